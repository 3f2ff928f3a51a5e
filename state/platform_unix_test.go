//go:build unix

package state

// modesKept: files get the permission bits they are created with.
const modesKept = true

// abs turns a slash-separated absolute test path into one of this system.
func abs(p string) string { return p }
