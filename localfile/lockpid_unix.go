//go:build unix

package localfile

// pidPath is where a lock's holder records its pid: in the lock file
// itself (flock does not stop reads or writes).
func pidPath(lockPath string) string { return lockPath }
