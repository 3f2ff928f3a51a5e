package publish_test

import (
	"slices"
	"strings"
	"testing"

	"rfhandoff/internal/publishtest"
)

// TestPublishGitCalls counts the git subprocesses of a publish once the RX
// mirror exists (a node that watched and approved): check 6 is answered by
// the result branch's clone, so no ls-remote runs; where git fetches from
// and pushes to is read three times, one config listing each (the
// checkout's remote, the mirror's, the clone's: PROTOCOL#subprocesses, no rewrite
// anywhere), and the committer identity once more; the mirror's URL
// record is a file, not a git config read; the mirror resolves the fetched
// tip once (against its anchor) for the task read; the task file, in a
// directory with nothing missing, is one listing, its entry and its blob;
// the ancestry check against the accepted tip is one rev-list. A count,
// not a time: every call is a process plus two audit lines. (HEAD for
// check 5 and the committer identity are read beside other calls: counted
// all the same.)
func TestPublishGitCalls(t *testing.T) {
	t.Parallel()
	f := publishtest.New(t, publishtest.Options{})
	mustPublish(t, f, f.Ready()) // builds the mirror
	before := len(auditEntries(t, f.Runner.AuditLog().Path()))
	mustPublish(t, f, nth(f, f.Ready(), 1))
	var subs []string
	urlReads := 0
	for _, e := range auditEntries(t, f.Runner.AuditLog().Path())[before:] {
		if e.Event == "start" {
			subs = append(subs, gitSub(e.Argv))
			if strings.Contains(e.Argv[len(e.Argv)-1], "insteadof") {
				urlReads++
			}
		}
	}
	const want = 18
	if len(subs) != want {
		t.Errorf("a publish ran %d git calls, want %d: %q", len(subs), want, subs)
	}
	if slices.Contains(subs, "ls-remote") || slices.Contains(subs, "remote") {
		t.Errorf("a publish that succeeded asked ls-remote or git remote: %q", subs)
	}
	if urlReads != 3 || slices.Index(subs, "clone") < 0 || slices.Index(subs, "push") != len(subs)-1 {
		t.Errorf("want three reads of the remote's URL settings (%d), a clone, the push last: %q", urlReads, subs)
	}
}
