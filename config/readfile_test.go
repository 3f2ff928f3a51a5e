package config

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadRegularFile(t *testing.T) {
	dir := t.TempDir()
	exact := filepath.Join(dir, "exact")
	over := filepath.Join(dir, "over")
	if err := os.WriteFile(exact, []byte("12345678"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(over, []byte("123456789"), 0o600); err != nil {
		t.Fatal(err)
	}
	data, err := ReadRegularFile(exact, 8)
	if err != nil || string(data) != "12345678" {
		t.Fatalf("a file at the limit: %q, %v", data, err)
	}
	var big *TooLargeError
	if _, err := ReadRegularFile(over, 8); !errors.As(err, &big) || big.Limit != 8 || err.Error() != "larger than 8 bytes" {
		t.Errorf("a file over the limit: %v, want a *TooLargeError for 8 bytes", err)
	}
	if _, err := ReadRegularFile(dir, 8); err == nil || !strings.HasPrefix(err.Error(), "not a regular file (d") {
		t.Errorf("a directory: %v, want not a regular file", err)
	}
	var pe *fs.PathError
	if _, err := ReadRegularFile(filepath.Join(dir, "missing"), 8); !errors.As(err, &pe) || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing file: %v, want an *fs.PathError for a file that does not exist", err)
	}
}
