package hacksim

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// IsSimulator is the path identity: the running executable itself, a
// symlink or a hard link to it is the simulator; a copy or another
// program is not.
func TestIsSimulator(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	data, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	copied := filepath.Join(dir, "copy")
	if err := os.WriteFile(copied, data, 0o755); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "other")
	if err := os.WriteFile(other, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		path string
		want bool
	}{
		{"the executable", self, true},
		{"a copy", copied, false},
		{"another program", other, false},
	}
	// Links are cases on Unix. On Windows the simulator is a copy
	// (symlinks need a privilege), which the marker line catches, and
	// under Wine a symlink does not resolve and a hard link has a file
	// index of its own.
	links := runtime.GOOS != "windows"
	if link := filepath.Join(dir, "hackrf_info"); links && os.Symlink(self, link) == nil {
		tests = append(tests, struct {
			name string
			path string
			want bool
		}{"a symlink", link, true})
	}
	if hard := filepath.Join(dir, "hackrf_transfer"); links && os.Link(self, hard) == nil {
		tests = append(tests, struct {
			name string
			path string
			want bool
		}{"a hard link", hard, true})
	}
	for _, tt := range tests {
		got, err := IsSimulator(tt.path)
		if err != nil || got != tt.want {
			t.Errorf("%s: IsSimulator(%s) = %v, %v; want %v", tt.name, tt.path, got, err, tt.want)
		}
	}
	if _, err := IsSimulator(filepath.Join(dir, "missing")); err == nil {
		t.Error("a missing file: no error")
	}
}
