//go:build unix

package localfile

// pidPath: the lock file itself (flock stops no read or write).
func pidPath(lockPath string) string { return lockPath }
