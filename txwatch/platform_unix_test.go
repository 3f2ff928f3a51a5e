//go:build unix

package txwatch

// modesKept: files get the permission bits they are created with.
const modesKept = true
