package localfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// TooLargeError is a file over ReadRegular's limit, inside an *fs.PathError.
type TooLargeError struct{ Limit int64 }

func (e *TooLargeError) Error() string { return fmt.Sprintf("larger than %d bytes", e.Limit) }

// ReadRegular is the one bounded read of a local file (PROTOCOL#local-files):
// path must be a regular file, never read past limit+1 bytes. A FIFO is
// refused before it is opened (opening one waits for a writer); the file
// opened must be the one looked at. Every error is an *fs.PathError.
func ReadRegular(path string, limit int64) ([]byte, error) {
	return ReadJudged(path, limit, nil)
}

// ReadJudged is ReadRegular asking judge about the opened file before a
// byte is read (private.Read). A file replaced by a rename between the
// look and the open is looked at again: a reader without the writer's
// lock then sees one whole version.
func ReadJudged(path string, limit int64, judge func(*os.File, fs.FileInfo) error) ([]byte, error) {
	for tries := 1; ; tries++ {
		data, err := readJudgedOnce(path, limit, judge)
		if !errors.Is(err, errReplaced) || tries == replacedTries {
			return data, err
		}
	}
}

const replacedTries = 5

var errReplaced = errors.New("replaced while it was being opened")

func readJudgedOnce(path string, limit int64, judge func(*os.File, fs.FileInfo) error) ([]byte, error) {
	before, err := os.Lstat(path)
	if pe, ok := err.(*fs.PathError); ok {
		pe.Op = "open" // what callers have always said
	}
	if err != nil {
		return nil, err
	}
	if !before.Mode().IsRegular() {
		return nil, notRegular(path, before.Mode())
	}
	f, err := OpenNoFollow(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, notRegular(path, st.Mode())
	}
	if !os.SameFile(before, st) {
		return nil, &fs.PathError{Op: "read", Path: path, Err: errReplaced}
	}
	if judge != nil {
		if err := judge(f, st); err != nil {
			return nil, err
		}
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, &fs.PathError{Op: "read", Path: path, Err: &TooLargeError{Limit: limit}}
	}
	return data, nil
}

func notRegular(path string, m fs.FileMode) error {
	return &fs.PathError{Op: "read", Path: path, Err: fmt.Errorf("not a regular file (%s, %s)", m.Type(), FileKind(m))}
}

// FileKind names what a file that is not regular is ("a FIFO"), for
// every refusal of one.
func FileKind(m fs.FileMode) string {
	switch t := m.Type(); {
	case t&fs.ModeSymlink != 0:
		return "a symlink"
	case t&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case t&fs.ModeDevice != 0, t&fs.ModeCharDevice != 0:
		return "a device"
	case t&fs.ModeSocket != 0:
		return "a socket"
	case t&fs.ModeDir != 0:
		return "a directory"
	case t&fs.ModeIrregular != 0:
		return "an irregular file"
	default:
		return "not a plain file"
	}
}
