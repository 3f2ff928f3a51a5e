package localfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// wantRefusal checks that err is an *fs.PathError naming path whose
// message says why.
func wantRefusal(t *testing.T, err error, path, why string) {
	t.Helper()
	var pe *fs.PathError
	if !errors.As(err, &pe) || pe.Path != path || !strings.Contains(err.Error(), path) {
		t.Fatalf("ReadRegular(%s) = %v, want an *fs.PathError naming the file", path, err)
	}
	if !strings.Contains(err.Error(), why) {
		t.Errorf("ReadRegular(%s) = %q, want it to say %q", path, err, why)
	}
}

func TestReadRegular(t *testing.T) {
	dir := t.TempDir()
	exact := filepath.Join(dir, "exact")
	over := filepath.Join(dir, "over")
	if err := os.WriteFile(exact, []byte("12345678"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(over, []byte("123456789"), 0o600); err != nil {
		t.Fatal(err)
	}
	data, err := ReadRegular(exact, 8)
	if err != nil || string(data) != "12345678" {
		t.Fatalf("a file at the limit: %q, %v", data, err)
	}

	_, err = ReadRegular(over, 8)
	var big *TooLargeError
	if !errors.As(err, &big) || big.Limit != 8 || big.Error() != "larger than 8 bytes" {
		t.Errorf("a file over the limit: %v, want a *TooLargeError for 8 bytes", err)
	}
	wantRefusal(t, err, over, "larger than 8 bytes")

	_, err = ReadRegular(dir, 8)
	wantRefusal(t, err, dir, "not a regular file (d")
	wantRefusal(t, err, dir, "a directory")

	missing := filepath.Join(dir, "missing")
	_, err = ReadRegular(missing, 8)
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing file: %v, want fs.ErrNotExist", err)
	}
	wantRefusal(t, err, missing, "open "+missing+": ")
}

// A symlink is refused even when it points at a good regular file: the
// link could be swapped for one to anything (a device, /proc/…, a file of
// another user) between two reads.
func TestReadRegularRefusesASymlink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	if err := os.WriteFile(target, []byte("ok"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("cannot create a symlink here: %v", err)
	}
	skipUnlessLink(t, link)
	data, err := ReadRegular(link, 8)
	if data != nil {
		t.Errorf("the link was read: %q", data)
	}
	wantRefusal(t, err, link, "a symlink")
}

// skipUnlessLink skips where link is not a symlink this system reads
// through (Wine's emulation of Windows symlinks is neither).
func skipUnlessLink(t *testing.T, link string) {
	t.Helper()
	fi, err := os.Lstat(link)
	if err == nil && fi.Mode()&os.ModeSymlink != 0 {
		_, err = os.ReadFile(link)
	} else if err == nil {
		err = errors.New("not reported as a symlink")
	}
	if err != nil {
		t.Skipf("no working symlink here (Wine's emulation): %v", err)
	}
}
