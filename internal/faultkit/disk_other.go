//go:build !linux

package faultkit

import "testing"

// MountTmpfs skips: a size-limited tmpfs is a Linux mount.
func MountTmpfs(t testing.TB, dir, size string) {
	t.Helper()
	t.Skip("faultkit: mounting a tmpfs is Linux-only")
}

// MountSyncFailing skips: it mounts a loop device (Linux).
func MountSyncFailing(t testing.TB, dir string) (fill func() (free func())) {
	t.Helper()
	t.Skip("faultkit: a file system whose sync fails is mounted on Linux only")
	return nil
}
