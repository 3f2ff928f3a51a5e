package gitcli

import (
	"path/filepath"
	"testing"
)

func TestAbsoluteURL(t *testing.T) {
	checkout := t.TempDir()
	cases := map[string]string{
		"https://example.org/lab/rf.git":   "https://example.org/lab/rf.git",
		"git@example.org:lab/rf.git":       "git@example.org:lab/rf.git",
		"file:///srv/git/rf.git":           "file:///srv/git/rf.git",
		"/srv/git/rf.git":                  "file://" + rootedFileURLPath,
		"../remote.git":                    "file://" + fileURLPath(filepath.Join(filepath.Dir(checkout), "remote.git")),
		"ssh://rx@example.org:2222/rf.git": "ssh://rx@example.org:2222/rf.git",
	}
	for in, want := range cases {
		got, err := AbsoluteURL(in, checkout)
		if err != nil || got != want {
			t.Errorf("AbsoluteURL(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}
