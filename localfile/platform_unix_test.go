//go:build unix

package localfile

// modesKept: files get the permission bits they are created with.
const modesKept = true

// alwaysAlivePID is a process that always exists and is not ours (init:
// kill(1, 0) answers EPERM).
const alwaysAlivePID = 1
