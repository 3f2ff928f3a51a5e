//go:build unix

package localfile

import (
	"errors"
	"io/fs"

	"golang.org/x/sys/unix"
)

func freeBytes(path string) (int64, error) {
	var st unix.Statfs_t
	if err := unix.Statfs(path, &st); err != nil {
		return 0, &fs.PathError{Op: "statfs", Path: path, Err: err}
	}
	return int64(st.Bavail) * int64(st.Bsize), nil //nolint:unconvert // field types differ per platform
}

func isNotExist(err error) bool { return errors.Is(err, fs.ErrNotExist) }
