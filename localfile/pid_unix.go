//go:build unix

package localfile

import (
	"errors"

	"golang.org/x/sys/unix"
)

// PIDAlive reports whether a process with this PID exists (EPERM: someone
// else's, alive).
func PIDAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := unix.Kill(pid, 0)
	return err == nil || !errors.Is(err, unix.ESRCH)
}
