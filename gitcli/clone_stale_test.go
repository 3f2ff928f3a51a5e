package gitcli

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

func TestRemoveStaleClones(t *testing.T) {
	dir := t.TempDir()
	dead := filepath.Join(dir, clonePrefix+"999999999-123") // no such pid
	live := filepath.Join(dir, clonePrefix+strconv.Itoa(os.Getpid())+"-456")
	other := filepath.Join(dir, "unrelated-999999999-1")
	for _, d := range []string{dead, live, other} {
		if err := os.MkdirAll(filepath.Join(d, "repo", ".git"), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	removed, err := RemoveStaleClones(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(removed) != 1 || removed[0] != dead {
		t.Fatalf("removed %v, want only %s", removed, dead)
	}
	for _, d := range []string{live, other} {
		if _, err := os.Stat(d); err != nil {
			t.Errorf("%s was removed: %v", d, err)
		}
	}
}

func TestClonePID(t *testing.T) {
	for name, want := range map[string]int{
		clonePrefix + "42-abc": 42, clonePrefix + "x-1": 0, clonePrefix + "42": 0, "other-42-1": 0, clonePrefix + "-1-2": 0,
	} {
		got, ok := clonePID(name)
		if got != want || ok != (want > 0) {
			t.Errorf("clonePID(%q) = %d, %v; want %d", name, got, ok, want)
		}
	}
}
