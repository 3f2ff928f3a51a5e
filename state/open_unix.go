//go:build unix

package state

import (
	"os"
	"syscall"
)

// OpenShared opens a file for reading that a writer may replace (rename
// over) while it is open. On Unix every open allows that.
func OpenShared(path string) (*os.File, error) { return os.Open(path) }

// OpenSharedNoFollow is OpenShared refusing a symlink at path.
func OpenSharedNoFollow(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
}
