package exec

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"rfhandoff/localfile"
)

var errNotRegular = errors.New("not a regular file")

// openAuditFile opens the audit log at path with flag (O_CREATE creates it
// 0600). The log is a regular file or nothing (PROTOCOL#audit-log): anything
// else at path, a symlink too, is refused before it is opened (opening a
// FIFO or a device can block or act; /dev/null records nothing), and the
// file opened must be the one at path, so nothing swapped in is written to.
func openAuditFile(path string, flag int) (*os.File, error) {
	if st, err := os.Lstat(path); err == nil && !st.Mode().IsRegular() {
		return nil, notRegularError(path, st.Mode())
	} else if err != nil && (flag&os.O_CREATE == 0 || !errors.Is(err, fs.ErrNotExist)) {
		return nil, err
	}
	f, err := os.OpenFile(path, flag|auditOpenFlags, 0o600)
	if err != nil {
		return nil, err
	}
	opened, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	// Lstat again: on Windows, where no open refuses a link, a symlink
	// placed at path meanwhile is followed by the open and found here.
	now, err := os.Lstat(path)
	if err != nil {
		f.Close()
		return nil, err
	}
	switch {
	case !now.Mode().IsRegular():
		err = notRegularError(path, now.Mode())
	case !opened.Mode().IsRegular():
		err = notRegularError(path, opened.Mode())
	case !os.SameFile(opened, now):
		err = &fs.PathError{Op: "open", Path: path, Err: errors.New("replaced while it was being opened")}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

func notRegularError(path string, m fs.FileMode) error {
	return &fs.PathError{Op: "open", Path: path, Err: fmt.Errorf(
		"%w (it is %s): the audit log must be a plain file rfhandoff writes itself; remove what is there, or point [audit] path at a file of its own",
		errNotRegular, localfile.FileKind(m))}
}
