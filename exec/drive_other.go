//go:build !windows

package exec

// hasDrivePrefix: outside Windows "C:/lab/rf.git" is the scp-like host
// "C", as git reads it.
func hasDrivePrefix(string) bool { return false }
