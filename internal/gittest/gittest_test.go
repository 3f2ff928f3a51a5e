package gittest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"rfhandoff/exec"
)

func TestSeedRewriteTip(t *testing.T) {
	rem := NewBareRemote(t, "main")
	first := Tip(t, rem, "main")
	if first == "" {
		t.Fatal("NewBareRemote did not create main")
	}
	if Tip(t, rem, "nope") != "" {
		t.Error("Tip of a missing branch is not empty")
	}
	second := Seed(t, rem, "main", map[string]string{"a/b.txt": "b\n", "link": SymlinkPrefix + "a/b.txt", "README.md": ""})
	tree := Git(t, rem.R, rem.Dir, "ls-tree", "-r", "--full-tree", second)
	if !strings.Contains(tree, "100644 blob") || !strings.Contains(tree, "\ta/b.txt\n") ||
		!strings.Contains(tree, "120000 blob") || strings.Contains(tree, "README.md") {
		t.Errorf("seeded tree:\n%s", tree)
	}
	if got := strings.TrimSpace(Git(t, rem.R, rem.Dir, "rev-parse", second+"^")); got != first {
		t.Errorf("Seed's parent %s, want the previous tip %s", got, first)
	}
	side := Commit(t, rem, "main", map[string]string{"c": "c\n"})
	if Tip(t, rem, "main") != second {
		t.Error("Commit moved the branch")
	}
	if got := strings.TrimSpace(Git(t, rem.R, rem.Dir, "rev-parse", side+"^")); got != second {
		t.Errorf("Commit's parent %s, want the tip %s", got, second)
	}
	root := Rewrite(t, rem, "main", map[string]string{"x": "x\n"})
	if Tip(t, rem, "main") != root {
		t.Error("Rewrite did not move the branch")
	}
	if out := strings.TrimSpace(Git(t, rem.R, rem.Dir, "log", "--format=%H", root)); out != root {
		t.Errorf("Rewrite's commit has history %q, want a root commit", out)
	}
}

// Stack keeps the caller's options and adds its own audit log: a run
// through it is logged at the returned path, and a pinned tool path is
// honoured (here one that cannot exist, so the tool is missing).
func TestStack(t *testing.T) {
	s, auditPath := Stack(t, exec.Options{
		Role:         exec.RoleTransmit,
		GitProtocols: []string{"file"},
		Environ:      Environ(Home(t)),
		Tools:        map[exec.Tool]string{exec.HackRFTransfer: "/nonexistent/gittest/hackrf_transfer"},
	})
	if s.Missing()[exec.HackRFTransfer] == nil {
		t.Error("hackrf_transfer pinned to a missing path is not reported missing")
	}
	Git(t, s, t.TempDir(), "version")
	entries, err := exec.ReadAuditTail(auditPath, 0)
	if err != nil {
		t.Fatal(err)
	}
	starts := 0
	for _, e := range entries {
		if e.Tool == exec.Git && e.Event == exec.EventStart {
			starts++
		}
	}
	if starts != 1 {
		t.Errorf("audit log %s has %d git starts, want 1: %+v", auditPath, starts, entries)
	}
}

// The objects Seed writes without git are ones git accepts in full, and
// Tip reads a packed ref as git does.
func TestSeedObjectsPassFsckAndTipReadsPackedRefs(t *testing.T) {
	rem := NewBareRemote(t, "main")
	tip := Seed(t, rem, "main", map[string]string{"d/e/f.txt": "f\n", "d/g": SymlinkPrefix + "e/f.txt", "z": "z\n"})
	Git(t, rem.R, rem.Dir, "fsck", "--strict", "--no-dangling")
	if got := strings.TrimSpace(Git(t, rem.R, rem.Dir, "rev-parse", "refs/heads/main")); got != tip {
		t.Fatalf("git reads the branch at %s, Seed returned %s", got, tip)
	}
	if got := Git(t, rem.R, rem.Dir, "show", tip+":d/e/f.txt"); got != "f\n" {
		t.Errorf("git show of a seeded file: %q", got)
	}
	// What git pack-refs writes (not allowlisted: the runner is rfhandoff's).
	packed := "# pack-refs with: peeled fully-peeled sorted \n" + tip + " refs/heads/main\n"
	if err := os.WriteFile(filepath.Join(rem.Dir, "packed-refs"), []byte(packed), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(rem.Dir, "refs", "heads", "main")); err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(Git(t, rem.R, rem.Dir, "rev-parse", "refs/heads/main")); got != tip {
		t.Fatalf("git reads the packed branch at %s, want %s", got, tip)
	}
	if got := Tip(t, rem, "main"); got != tip {
		t.Errorf("Tip of a packed ref: %q, want %s", got, tip)
	}
}
