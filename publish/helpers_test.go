package publish_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"rfhandoff/exec"
	"rfhandoff/internal/gittest"
	"rfhandoff/internal/publishtest"
)

// bareGit runs git in the fixture's bare remote.
func bareGit(t *testing.T, f *publishtest.Fixture, args ...string) string {
	t.Helper()
	return gittest.Git(t, f.Runner, f.Remote.Dir, args...)
}

// auditEntries reads every line of an audit log.
func auditEntries(t *testing.T, path string) []exec.Entry {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []exec.Entry
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var e exec.Entry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("audit line %q: %v", sc.Text(), err)
		}
		out = append(out, e)
	}
	return out
}

// gitSub is the git subcommand of an audited argv (after the runner's -c
// options).
func gitSub(argv []string) string {
	for i := 1; i < len(argv); i++ {
		if argv[i] == "-c" {
			i++
			continue
		}
		return argv[i]
	}
	return ""
}

// unchanged asserts that a refused or failed publish left the remote's
// refs and the RX checkout exactly as they were.
func unchanged(t *testing.T, f *publishtest.Fixture, refs, snap string) {
	t.Helper()
	if got := f.Refs(t); got != refs {
		t.Errorf("remote refs changed:\nbefore:\n%s\nafter:\n%s", refs, got)
	}
	if got := f.Snapshot(t); got != snap {
		t.Errorf("RX checkout changed:\nbefore:\n%s\nafter:\n%s", snap, got)
	}
}

// privateTemp points os.TempDir (and so the publisher's clone) at a fresh
// directory and returns it, so a test can check nothing is left behind.
// Tests that use it must not be parallel.
func privateTemp(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "tmp")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TMPDIR", dir)
	return dir
}

// leftovers lists publish's temporary clones left in dir.
func leftovers(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "rfhandoff-clone-") {
			names = append(names, e.Name())
		}
	}
	slices.Sort(names)
	return names
}

// allEnded asserts that every git call a publish started had ended when
// it returned (a read started beside the checks included): each start
// line of the audit log has its end line.
func allEnded(t *testing.T, f *publishtest.Fixture) {
	t.Helper()
	open := map[string]bool{}
	for _, e := range auditEntries(t, f.Runner.AuditLog().Path()) {
		switch e.Event {
		case exec.EventStart:
			open[e.ID] = true
		case exec.EventEnd:
			delete(open, e.ID)
		}
	}
	if len(open) > 0 {
		t.Errorf("%d git calls were still running when the publish returned: %v", len(open), open)
	}
}
