//go:build unix

package localfile

import (
	"os"
	"syscall"
)

// OpenNoFollow opens path for reading, refusing a symlink; a writer may
// still replace the file. O_NONBLOCK keeps a FIFO from holding the open
// until a writer comes; the caller's Stat then refuses it.
func OpenNoFollow(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
}
