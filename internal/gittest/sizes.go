package gittest

import (
	"errors"
	"io/fs"
	"path/filepath"
	"testing"
)

// TreeBytes is the total size of the regular files under dir (0 when dir
// does not exist yet): what a fetch or a poll left on disk.
func TreeBytes(t testing.TB, dir string) int64 {
	t.Helper()
	var n int64
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			fi, err := d.Info()
			if err != nil {
				return err
			}
			n += fi.Size()
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// Incompressible is n reproducible bytes that do not compress: media whose
// download would show in TreeBytes.
func Incompressible(n int) string {
	b := make([]byte, n)
	x := uint64(0x9e3779b97f4a7c15)
	for i := range b {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		b[i] = byte(x)
	}
	return string(b)
}
