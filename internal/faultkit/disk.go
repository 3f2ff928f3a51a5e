package faultkit

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

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
