package private

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"rfhandoff/errlist"
	"rfhandoff/localfile"
)

// Check refuses path unless only this account can change it (see the
// package doc): a directory or a regular file, not a symlink. The object
// opened is the one looked at. Every problem is reported at once, each
// with the command that fixes it.
func Check(path string) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	before, err := os.Lstat(abs)
	if err != nil {
		return err
	}
	if !before.IsDir() && !before.Mode().IsRegular() {
		return &fs.PathError{Op: "check", Path: path, Err: fmt.Errorf("not a plain file or directory (%s, %s)%s",
			before.Mode().Type(), localfile.FileKind(before.Mode()), symlinkAdvice(before.Mode()))}
	}
	f, err := openNoFollow(abs, before.IsDir())
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if !os.SameFile(before, st) {
		return &fs.PathError{Op: "check", Path: path, Err: errors.New("replaced while it was being checked")}
	}
	return privateProblems(path, f, st)
}

// privateProblems judges the opened f and the directories above it.
func privateProblems(path string, f *os.File, st fs.FileInfo) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	problems := judgeOpened(abs, f, st)
	problems = append(problems, judgeAbove(abs)...)
	if len(problems) == 0 {
		return nil
	}
	return &fs.PathError{Op: "check", Path: path, Err: errlist.Join(problems...)}
}

// Read is localfile.ReadRegular for a file rfhandoff trusts: the file
// opened must also pass Check.
func Read(path string, limit int64) ([]byte, error) {
	return localfile.ReadJudged(path, limit, func(f *os.File, st fs.FileInfo) error {
		return privateProblems(path, f, st)
	})
}

// Mkdir creates dir (and those above) for this account alone, then checks
// it. A directory that exists is only checked, never changed.
func Mkdir(dir string) error {
	if err := mkdirOwn(dir); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	return Check(dir)
}

func symlinkAdvice(m fs.FileMode) string {
	if m&fs.ModeSymlink == 0 {
		return ""
	}
	return ": rfhandoff never follows a link here (another account could point it elsewhere); put the directory or file itself in its place"
}
