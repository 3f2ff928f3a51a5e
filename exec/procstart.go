package exec

// ProcessStart is when the process now running under pid started, as an
// opaque number compared only for equality on the same machine: a
// recorded pid is the recorded process only while it still answers the
// same start (a pid may have been reused). Linux: starttime from
// /proc/<pid>/stat, clock ticks since boot (procstart_linux.go). Windows:
// the creation time from GetProcessTimes, a FILETIME (procstart_windows.go).
// Elsewhere, and for a pid with no process, ok is false.
func ProcessStart(pid int) (start int64, ok bool) {
	if pid <= 0 {
		return 0, false
	}
	return processStart(pid)
}
