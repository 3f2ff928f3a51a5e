package faultkit

import (
	"errors"
	"os"
	"path/filepath"
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

// FillDisk writes a filler file in dir until the file system is full and
// returns a function that removes it again.
func FillDisk(t testing.TB, dir string) (free func()) {
	t.Helper()
	p := filepath.Join(dir, "faultkit-filler")
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 4096)
	for {
		if _, err := f.Write(buf); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatalf("faultkit: filling %s: %v", dir, err)
			}
			break
		}
	}
	// Single bytes take whatever is left in the filler's last page.
	for {
		if _, err := f.Write(buf[:1]); err != nil {
			break
		}
	}
	f.Close()
	return func() {
		if err := os.Remove(p); err != nil {
			t.Errorf("faultkit: removing the filler: %v", err)
		}
	}
}
