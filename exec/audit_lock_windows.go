package exec

import (
	"os"

	"golang.org/x/sys/windows"
)

// lockAppend takes the writers' exclusive lock; closing f drops it. Windows
// locks are mandatory, so it covers one byte far past the log's end: no
// read is refused.
func lockAppend(f *os.File) error {
	ol := &windows.Overlapped{Offset: 0xFFFFFFFE, OffsetHigh: 0x7FFFFFFF}
	return windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK, 0, 1, 0, ol)
}

// auditOpenFlags: no open flag refuses a link on Windows; openAuditFile
// looks at the path again once the file is open.
const auditOpenFlags = 0
