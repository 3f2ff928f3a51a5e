//go:build !linux

package faultkit

import "testing"

// MountTmpfs skips: a size-limited tmpfs is a Linux mount.
func MountTmpfs(t testing.TB, dir, size string) {
	t.Helper()
	t.Skip("faultkit: mounting a tmpfs is Linux-only")
}
