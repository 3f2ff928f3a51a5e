package exec

// ProcessStart is when the process now running under pid started, an
// opaque number compared only for equality: a recorded pid is the
// recorded process only while it answers the same start (pids are
// reused). Where unknown, and for no process, ok is false.
func ProcessStart(pid int) (start int64, ok bool) {
	if pid <= 0 {
		return 0, false
	}
	return processStart(pid)
}
