package localfile

// recoverStale reports whether a recorded running flag is stale, so the
// caller clears it and logs a warning: running is set but the recorded
// watcher PID is dead (PIDAlive) or was never
// recorded (pid <= 0).
//
// A live PID proves little (PIDs are reused); the lock is authoritative.
// A caller that holds the lock uses (*Lock).recoverStale; a caller that
// does not (rx status) combines this with Probe: running without a held
// lock is stale too.
func recoverStale(running bool, pid int) (wasStale bool) {
	return running && !PIDAlive(pid)
}
