package localfile

// pidPath is where a lock's holder records its pid: beside the lock file,
// since a Windows lock (LockFileEx, through flock) refuses other handles
// the bytes it covers, and the holder's pid would be unreadable there.
func pidPath(lockPath string) string { return lockPath + ".pid" }
