package localfile

import (
	"os"

	"golang.org/x/sys/windows"
)

// openShared opens a file for reading that a writer may replace while it
// is open: os.Open does not pass FILE_SHARE_DELETE, without which the
// writer's MoveFileEx fails while a reader holds the file.
func openShared(path string) (*os.File, error) { return openSharedFlags(path, 0) }

// OpenNoFollow is openShared refusing to follow a symlink at path.
func OpenNoFollow(path string) (*os.File, error) {
	f, err := openSharedFlags(path, windows.FILE_FLAG_OPEN_REPARSE_POINT)
	if err != nil {
		return nil, err
	}
	var info windows.ByHandleFileInformation
	if err := windows.GetFileInformationByHandle(windows.Handle(f.Fd()), &info); err != nil {
		f.Close()
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	if info.FileAttributes&windows.FILE_ATTRIBUTE_REPARSE_POINT != 0 {
		f.Close()
		return nil, &os.PathError{Op: "open", Path: path, Err: windows.ERROR_CANT_RESOLVE_FILENAME}
	}
	return f, nil
}

func openSharedFlags(path string, flags uint32) (*os.File, error) {
	p, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	h, err := windows.CreateFile(p, windows.GENERIC_READ,
		windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE|windows.FILE_SHARE_DELETE,
		nil, windows.OPEN_EXISTING, windows.FILE_ATTRIBUTE_NORMAL|flags, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	return os.NewFile(uintptr(h), path), nil
}
