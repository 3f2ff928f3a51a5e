package faultkit

import (
	"errors"
	"os"
	"syscall"
	"testing"
)

// MountTmpfs mounts a tmpfs of the given size (e.g. "64k") on dir, which
// it creates, and unmounts it when the test ends. It skips the test when
// the process may not mount (not root, or no CAP_SYS_ADMIN).
func MountTmpfs(t testing.TB, dir, size string) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("mounting a tmpfs needs root")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mount("tmpfs", dir, "tmpfs", syscall.MS_NOSUID|syscall.MS_NODEV, "size="+size+",mode=0700"); err != nil {
		if errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.EACCES) {
			t.Skipf("cannot mount a tmpfs here: %v", err)
		}
		t.Fatalf("faultkit: mounting a tmpfs on %s: %v", dir, err)
	}
	t.Cleanup(func() {
		if err := syscall.Unmount(dir, syscall.MNT_DETACH); err != nil {
			t.Errorf("faultkit: unmounting %s: %v", dir, err)
		}
	})
}
