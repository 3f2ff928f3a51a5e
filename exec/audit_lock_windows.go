package exec

import (
	"os"

	"golang.org/x/sys/windows"
)

// lockAppend takes the writers' exclusive lock on the open log; closing f
// drops it. Windows locks are mandatory for the range they cover, so the
// lock is on one byte far past any real end of the log: readers (audit
// show, audit verify) and this handle's own reads are never refused.
func lockAppend(f *os.File) error {
	ol := &windows.Overlapped{Offset: 0xFFFFFFFE, OffsetHigh: 0x7FFFFFFF}
	return windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK, 0, 1, 0, ol)
}

// auditOpenFlags: no open flag refuses a link on Windows; openAuditFile
// looks at the path again once the file is open.
const auditOpenFlags = 0
