package localfile

// pidPath: beside the lock file, whose locked bytes other handles cannot
// read on Windows.
func pidPath(lockPath string) string { return lockPath + ".pid" }
