package localfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"rfhandoff/errlist"
)

// The ownership boundary (PROTOCOL#rx-state, PROTOCOL#local-files; OPERATIONS#threat-model): what rfhandoff
// trusts on the local disk — the state directory and everything in it, the
// audit log, the policy file and the files it names — must be changeable
// by this account alone. An agent working in the checkout as another
// account (the supported way to run one) can then write the working tree
// but none of these. As OpenSSH's StrictModes does, the check looks at the
// file itself and at every directory above it: a directory another account
// may write lets that account rename the file away and put its own in its
// place. Nothing is ever chmod'ed to pass: a directory others could write
// may already hold their files, and only a person can tell.

// CheckPrivate refuses path unless only this account can change it: it
// must be a directory or a regular file, not a symlink, owned by this
// account (or root; on Windows the user, Administrators or SYSTEM) and
// writable by no one else, and every directory above it must be owned by
// this account or root and writable by no one else unless it is sticky
// (/tmp; on Windows the directories above are not judged). The object
// opened is the one looked at. Every problem is reported at once, each
// naming the path, what is wrong and the command that fixes it.
func CheckPrivate(path string) error {
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
			before.Mode().Type(), FileKind(before.Mode()), symlinkAdvice(before.Mode()))}
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

// privateProblems is CheckPrivate's judgement of the opened f (st its
// Stat) at path and of the directories above it, or nil.
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

// ReadPrivate is ReadRegular for a file rfhandoff trusts: the file opened
// must also pass CheckPrivate (its owner, who may write it, the
// directories above it). A refusal is an *fs.PathError naming path.
func ReadPrivate(path string, limit int64) ([]byte, error) {
	return readRegular(path, limit, func(f *os.File, st fs.FileInfo) error {
		return privateProblems(path, f, st)
	})
}

// MkdirPrivate creates dir, and any missing directory above it, so that
// only this account may use it (0700; on Windows an access list of its
// own granting this account, SYSTEM and Administrators, nothing inherited),
// then checks it as CheckPrivate does. A directory that exists is only
// checked, never changed.
func MkdirPrivate(dir string) error {
	if err := mkdirPrivate(dir); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	return CheckPrivate(dir)
}

func symlinkAdvice(m fs.FileMode) string {
	if m&fs.ModeSymlink == 0 {
		return ""
	}
	return ": rfhandoff never follows a link here (another account could point it elsewhere); put the directory or file itself in its place"
}
