//go:build unix && !linux

package exec

// isZombie: without /proc (macOS, the BSDs) there is no cheap look at a
// process's state. Never claiming a zombie keeps processGone honest: an
// orphaned grandchild is reaped by launchd or init, and only then does
// signal 0 answer ESRCH.
func isZombie(int) bool { return false }
