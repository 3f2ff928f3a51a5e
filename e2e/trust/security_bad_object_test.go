package trust

import (
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"rfhandoff/internal/faultkit"
	"rfhandoff/internal/gittest"
	"rfhandoff/internal/tasktest"
	"rfhandoff/mirror"
)

// writeObject writes data as a loose object of kind into the remote's
// repository as it is (git hash-object --literally: no check at all, as
// a hand-crafted push would bring it) and returns its ID.
func writeObject(t *testing.T, l *trustLab, kind string, data []byte) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), "object")
	if err := os.WriteFile(f, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(gittest.Git(t, l.R, l.Remote.Dir, "hash-object", "-t", kind, "--literally", "-w", "--", f))
}

// pushRawCommit puts a commit with tree and header lines author and
// committer on top of the remote's task branch and returns it.
func pushRawCommit(t *testing.T, l *trustLab, tree, author, committer string) string {
	t.Helper()
	parent := l.Tip(tasktest.TaskBranch)
	c := writeObject(t, l, "commit", []byte("tree "+tree+"\nparent "+parent+"\nauthor "+author+"\ncommitter "+committer+"\n\nhand-made\n"))
	gittest.Git(t, l.R, l.Remote.Dir, "update-ref", "refs/heads/"+tasktest.TaskBranch, c, parent)
	return c
}

// treeWith is a tree object holding one entry name of mode pointing at a
// new blob (written with its entries in the raw form git stores).
func treeWith(t *testing.T, l *trustLab, mode, name string) string {
	t.Helper()
	blob := writeObject(t, l, "blob", []byte("[core]\n\thooksPath = /tmp\n"))
	raw, err := hex.DecodeString(blob)
	if err != nil {
		t.Fatal(err)
	}
	return writeObject(t, l, "tree", append([]byte(mode+" "+name+"\x00"), raw...))
}

// Invariant (PROTOCOL#mirror): a commit that is malformed but harmless (a date
// that is not a date) costs one report naming it, not the lab: the signed
// task pushed on top of it is offered. An object git refuses as unsafe to
// check out (a tree entry named .git, a .gitmodules that is a symbolic
// link) is refused by name with what the remote's owner must do, nothing
// of that fetch is accepted, and once the owner takes it off the branch
// the next task is offered with no action on the RX side.
func TestSecurityBadObjectReportedNotFatal(t *testing.T) {
	t.Parallel()
	l := newTrustLab(t)
	if out := l.RX.Run(faultkit.Wait, "rx", "check"); out.Code != 0 {
		t.Fatalf("first rx check:\n%s", out)
	}
	tree := strings.TrimSpace(gittest.Git(t, l.R, l.Remote.Dir, "rev-parse", l.Tip(tasktest.TaskBranch)+"^{tree}"))
	bad := pushRawCommit(t, l, tree, "M <m@x> notadate +0000", "M <m@x> 1700000000 +0000")
	l.pushTask(t, "BAD_OBJ_0001", l.main.Private)
	signed := l.Tip(tasktest.TaskBranch)

	out := l.RX.Run(faultkit.Wait, "rx", "check")
	if out.Code != 10 || !strings.Contains(out.Stdout, "commit:   "+signed) || !strings.Contains(out.Stdout, "signed:   main@lab") {
		t.Fatalf("rx check after the malformed commit: want exit 10 offering the signed task %s\n%s", signed, out)
	}
	if n := strings.Count(out.Stderr, bad); n != 1 || !strings.Contains(out.Stderr, "badDate") {
		t.Fatalf("the malformed commit %s is named %d times, want once with badDate:\n%s", bad, n, out.Stderr)
	}
	if again := l.RX.Run(faultkit.Wait, "rx", "check"); again.Code != 10 || strings.Contains(again.All(), bad) {
		t.Fatalf("second rx check: want exit 10 and no second report of %s\n%s", bad, again)
	}

	anchors := mirror.AnchorsPath(l.RX.Mirror())
	for _, c := range []struct{ name, mode, entry, id string }{
		{"a tree entry named .git", "100644", ".git", "hasDotgit"},
		{"a .gitmodules that is a symbolic link", "120000", ".gitmodules", "gitmodulesSymlink"},
	} {
		anchorsBefore, err := os.ReadFile(anchors)
		if err != nil {
			t.Fatal(err)
		}
		unsafe := treeWith(t, l, c.mode, c.entry)
		top := pushRawCommit(t, l, unsafe, "M <m@x> 1700000000 +0000", "M <m@x> 1700000000 +0000")
		for range 2 { // refused every time, not accepted the second
			out := l.RX.Run(faultkit.Wait, "rx", "check")
			if out.Code != 1 || !strings.Contains(out.Stderr, "tree "+unsafe+": "+c.id) ||
				!strings.Contains(out.Stderr, "the remote's owner must take the commit that brings it off the branch") {
				t.Fatalf("%s: rx check: want exit 1 naming tree %s and %s and the owner's remedy\n%s", c.name, unsafe, c.id, out)
			}
			if got := l.RX.TrackingRef(tasktest.TaskBranch); got != signed {
				t.Fatalf("%s: the mirror's tracking ref is %s, want %s (nothing accepted)", c.name, got, signed)
			}
			if now, _ := os.ReadFile(anchors); string(now) != string(anchorsBefore) {
				t.Fatalf("%s: the anchors changed:\n%s\nwant\n%s", c.name, now, anchorsBefore)
			}
		}
		// The remote's owner takes it off the branch.
		gittest.Git(t, l.R, l.Remote.Dir, "update-ref", "refs/heads/"+tasktest.TaskBranch, signed, top)
	}

	l.pushTask(t, "BAD_OBJ_0002", l.main.Private)
	next := l.Tip(tasktest.TaskBranch)
	if out := l.RX.Run(faultkit.Wait, "rx", "check"); out.Code != 10 || !strings.Contains(out.Stdout, "commit:   "+next) {
		t.Fatalf("after the owner removed the unsafe commits: want exit 10 offering %s\n%s", next, out)
	}
}
