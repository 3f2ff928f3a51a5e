package capture

import (
	"time"

	"golang.org/x/sys/windows"
)

// cpuTime is this process's user+system CPU time: unlike wall time it
// does not grow when other jobs share the machine.
func cpuTime() time.Duration {
	var c, e, k, u windows.Filetime
	if err := windows.GetProcessTimes(windows.CurrentProcess(), &c, &e, &k, &u); err != nil {
		return 0
	}
	// Filetime counts 100 ns units.
	ticks := func(f windows.Filetime) int64 { return int64(f.HighDateTime)<<32 | int64(f.LowDateTime) }
	return time.Duration((ticks(k) + ticks(u)) * 100)
}

// orphanStopped is how the recovery says it stopped an orphaned
// hackrf_transfer that outlived the grace: the test started it without a
// console of its own, so no Ctrl-C can reach it, and its process is
// terminated.
const orphanStopped = "stopped with TerminateProcess"
