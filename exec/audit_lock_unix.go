//go:build unix

package exec

import (
	"os"
	"syscall"
)

// lockAppend takes the writers' exclusive lock on the open log; closing f
// drops it.
func lockAppend(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_EX) }

// auditOpenFlags refuse a symlink at the log's path and keep a FIFO put there
// from holding the open (writes to a regular file ignore O_NONBLOCK).
const auditOpenFlags = syscall.O_NOFOLLOW | syscall.O_NONBLOCK
