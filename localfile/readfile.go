package localfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// TooLargeError is a file over the limit ReadRegular was given. It comes
// inside an *fs.PathError that names the file; a caller that knows which
// setting set the limit names that too.
type TooLargeError struct{ Limit int64 }

func (e *TooLargeError) Error() string { return fmt.Sprintf("larger than %d bytes", e.Limit) }

// ReadRegular is the one bounded read of a local file (PROTOCOL#local-files): path
// must be a regular file, not a symlink, FIFO, device, socket or directory,
// and it is never read past limit+1 bytes, so a huge or endless file costs
// nothing. A FIFO is refused before it is opened (opening one waits for a
// writer); the file opened is checked to be the one looked at. Every
// error is an *fs.PathError naming path; over the limit its Err is a
// *TooLargeError. It opens with OpenNoFollow, so a writer may still
// replace the file.
func ReadRegular(path string, limit int64) ([]byte, error) {
	return ReadJudged(path, limit, nil)
}

// ReadJudged is ReadRegular with judge (when not nil) asked about the
// opened file before a byte of it is read (private.Read's ownership check).
// A file replaced by a rename between the look and the open (how every
// state file is written) is looked at again, a few times, rather than
// refused: a reader without the writer's lock then sees one whole version.
func ReadJudged(path string, limit int64, judge func(*os.File, fs.FileInfo) error) ([]byte, error) {
	for tries := 1; ; tries++ {
		data, err := readJudgedOnce(path, limit, judge)
		if !errors.Is(err, errReplaced) || tries == replacedTries {
			return data, err
		}
	}
}

// replacedTries bounds ReadJudged's looks at a file that keeps being
// replaced while it is opened.
const replacedTries = 5

var errReplaced = errors.New("replaced while it was being opened")

func readJudgedOnce(path string, limit int64, judge func(*os.File, fs.FileInfo) error) ([]byte, error) {
	before, err := os.Lstat(path)
	if pe, ok := err.(*fs.PathError); ok {
		pe.Op = "open" // what callers have always said of a missing file
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

// FileKind names what a file that is not regular is ("a symlink", "a
// FIFO", ...), for every refusal of one (the audit log's too).
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
