package localfile

import (
	"errors"
	"io/fs"

	"golang.org/x/sys/windows"
)

func freeBytes(path string) (int64, error) {
	p, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return 0, err
	}
	var avail, total, free uint64
	if err := windows.GetDiskFreeSpaceEx(p, &avail, &total, &free); err != nil {
		return 0, &fs.PathError{Op: "GetDiskFreeSpaceEx", Path: path, Err: err}
	}
	return int64(avail), nil
}

func isNotExist(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, windows.ERROR_PATH_NOT_FOUND) || errors.Is(err, windows.ERROR_FILE_NOT_FOUND)
}
