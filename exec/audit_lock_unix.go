//go:build unix

package exec

import (
	"os"
	"syscall"
)

// lockAppend takes the writers' exclusive lock on the open log; closing f
// drops it.
func lockAppend(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_EX) }

// auditOpenFlags make every open of the log refuse a symlink at its path
// (ELOOP) and keep a FIFO put there meanwhile from holding the open until
// a reader comes (writes to a regular file ignore O_NONBLOCK).
const auditOpenFlags = syscall.O_NOFOLLOW | syscall.O_NONBLOCK
