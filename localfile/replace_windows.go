package localfile

import (
	"errors"
	"os"
	"time"

	"golang.org/x/sys/windows"
)

// replaceWait bounds how long replaceFile waits out a reader that holds
// path without FILE_SHARE_DELETE (another program, or Wine, which refuses
// the rename even with it). rfhandoff's readers hold a file for milliseconds.
const replaceWait = 2 * time.Second

// replaceFile renames tmp over path, retrying while a reader blocks it.
func replaceFile(tmp, path string) error {
	deadline := time.Now().Add(replaceWait)
	for {
		err := os.Rename(tmp, path)
		if err == nil || time.Now().After(deadline) ||
			!(errors.Is(err, windows.ERROR_ACCESS_DENIED) || errors.Is(err, windows.ERROR_SHARING_VIOLATION)) {
			return err
		}
		time.Sleep(20 * time.Millisecond)
	}
}
