//go:build unix

package localfile

// modesKept: files get the permission bits they are created with.
const modesKept = true

// abs turns a slash-separated absolute test path into one of this system.
func abs(p string) string { return p }

// alwaysAlivePID is a process that always exists and is not ours (init:
// kill(1, 0) answers EPERM).
const alwaysAlivePID = 1
