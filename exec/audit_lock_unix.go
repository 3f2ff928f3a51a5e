//go:build unix

package exec

import (
	"os"
	"syscall"
)

// lockAppend takes the writers' exclusive lock on the open log; closing f
// drops it.
func lockAppend(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_EX) }
