//go:build unix

package localfile

import (
	"os"
	"syscall"
)

// openShared opens a file for reading that a writer may replace (rename
// over) while it is open. On Unix every open allows that.
func openShared(path string) (*os.File, error) { return os.Open(path) }

// OpenNoFollow is openShared refusing a symlink at path. O_NONBLOCK
// keeps a FIFO at path from holding the open until a writer comes (reads
// of a regular file ignore the flag); the caller's Stat then refuses it.
func OpenNoFollow(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
}
