package state

import (
	"errors"

	"golang.org/x/sys/unix"
)

// RecoverStale reports whether a recorded running flag is stale, so the
// caller clears it and logs a warning: running is set but the recorded
// watcher PID is dead (kill(pid, 0) fails with ESRCH) or was never
// recorded (pid <= 0).
//
// A live PID proves little (PIDs are reused); the lock is authoritative.
// A caller that holds the lock uses (*Lock).RecoverStale; a caller that
// does not (rx status) combines this with Probe: running without a held
// lock is stale too.
func RecoverStale(running bool, pid int) (wasStale bool) {
	return running && !PIDAlive(pid)
}

// PIDAlive reports whether a process with this PID exists. EPERM (it
// exists but belongs to someone else) counts as alive.
func PIDAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := unix.Kill(pid, 0)
	return err == nil || !errors.Is(err, unix.ESRCH)
}
