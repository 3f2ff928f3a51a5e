//go:build unix

package capture

import (
	"syscall"
	"time"
)

// cpuTime is this process's user+system CPU time: unlike wall time it
// does not grow when other jobs share the machine.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// orphanStopped is how the recovery says it stopped an orphaned
// hackrf_transfer that outlived the grace: SIGINT, as Ctrl-C would.
const orphanStopped = "stopped with SIGINT"
