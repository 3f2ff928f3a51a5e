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

// MountSyncFailing mounts on dir, which it creates, an ext4 file system
// without a journal whose image is a sparse file on a small tmpfs of its
// own, and unmounts both when the test ends. It returns fill, which fills
// that tmpfs (and returns a function that frees it again): from then on a
// write under dir still succeeds, into the page cache, but the fsync that
// carries it to the image fails (ENOSPC or EIO), as it does on a disk that
// fills up, or fails, under a file system. It skips the test without root,
// loop devices, mount or mkfs.ext4.
func MountSyncFailing(t testing.TB, dir string) (fill func() (free func())) {
	t.Helper()
	host := filepath.Join(t.TempDir(), "image-host")
	MountTmpfs(t, host, "4m")
	img := filepath.Join(host, "fs.img")
	f, err := os.Create(img)
	if err != nil {
		t.Fatal(err)
	}
	// 32 MiB the file system believes it has; the tmpfs holds only what
	// mkfs writes and what the test adds before fill.
	if err := f.Truncate(32 << 20); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if _, err := os.Stat("/dev/loop-control"); err != nil {
		t.Skipf("no loop devices here: %v", err)
	}
	runTool(t, "mkfs.ext4", nil, "-q", "-F", "-O", "^has_journal", img)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	runTool(t, "mount", nil, "-o", "loop,errors=continue", img, dir)
	t.Cleanup(func() {
		// The loop device goes with the last unmount (mount -o loop sets
		// autoclear); runs before the tmpfs's cleanup, registered earlier.
		if err := syscall.Unmount(dir, syscall.MNT_DETACH); err != nil {
			t.Errorf("faultkit: unmounting %s: %v", dir, err)
		}
	})
	if err := os.Chmod(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	return func() func() { return FillDisk(t, host) }
}
