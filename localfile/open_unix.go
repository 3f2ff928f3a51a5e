//go:build unix

package localfile

import (
	"os"
	"syscall"
)

// openShared opens a file for reading that a writer may replace while it
// is open: on Unix every open allows that.
func openShared(path string) (*os.File, error) { return os.Open(path) }

// OpenNoFollow is openShared refusing a symlink at path. O_NONBLOCK keeps
// a FIFO from holding the open until a writer comes; the caller's Stat
// then refuses it.
func OpenNoFollow(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
}
