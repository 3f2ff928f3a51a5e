//go:build unix

package exec

import (
	"errors"
	"syscall"
)

// processGone is a reap-free check: a zombie still answers signal 0, so
// its state is looked at too (gone_linux_test.go).
func processGone(pid int) bool {
	err := syscall.Kill(pid, 0)
	return errors.Is(err, syscall.ESRCH) || isZombie(pid)
}
