package localfile

import (
	"errors"
	"os"
	"time"

	"golang.org/x/sys/windows"
)

// replaceWait bounds how long replaceFile waits out a reader that holds
// path without FILE_SHARE_DELETE (another program, an older rfhandoff, or
// Wine, which refuses the rename even with it). rfhandoff's own readers
// hold a state file for the few milliseconds of a read.
const replaceWait = 2 * time.Second

// replaceFile renames tmp over path (MoveFileEx, replacing). Readers that
// opened path with FILE_SHARE_DELETE (openShared) do not stop it; one
// that did not makes it fail with access denied or a sharing violation
// until it closes the file, so it is retried for a while.
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
