package config

import (
	"path/filepath"
	"strings"
	"testing"
)

// abs turns a slash-separated absolute test path into one of this system.
func abs(p string) string { return `C:` + filepath.FromSlash(p) }

// A drive-relative path (C:lab) depends on the drive's current directory,
// which every process has its own of: refused wherever a path is named.
func TestDriveRelativePathsRefused(t *testing.T) {
	_, err := Parse([]byte("[repo]\npath = 'C:lab'\nstate_dir = 'D:state'\n[capture]\ndir = 'C:caps'\n"), "p.toml")
	if err == nil {
		t.Fatal("drive-relative paths accepted")
	}
	for _, want := range []string{`repo.path = "C:lab"`, `repo.state_dir = "D:state"`, `capture.dir = "C:caps"`, "current directory of drive C:", "current directory of drive D:"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	p, err := Parse([]byte("[repo]\npath = 'C:\\lab\\rx'\n"), "p.toml")
	if err != nil || p.Repo.Path != `C:\lab\rx` {
		t.Errorf("absolute drive path: %v, %q", err, p.Repo.Path)
	}
}
