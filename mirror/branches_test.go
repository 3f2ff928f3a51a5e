package mirror_test

import (
	"errors"
	"os"
	"strings"
	"testing"

	"rfhandoff/gitcli"
	"rfhandoff/internal/gittest"
	"rfhandoff/mirror"
)

// One fetch brings several branches (PROTOCOL#several-nodes): each is reported on
// its own, each keeps its own anchor, and a rewritten one is refused by
// name while the others stay accepted.
func TestFetchBranchesUpdated(t *testing.T) {
	t.Parallel()
	nodes := []string{"rx-a", "rx-b", "rx-c"}
	rem := gittest.NewBareRemote(t, append([]string{branch}, nodes...)...)
	f := &fixture{rem: rem, checkout: &gitcli.Client{R: rem.R, Dir: gittest.Clone(t, rem, branch)},
		dir: t.TempDir() + "/state/" + mirror.TXName, logs: &gittest.SyncBuffer{}}
	m := f.open(t)
	ctx := t.Context()

	ups, err := m.FetchBranchesUpdated(ctx, "origin", nodes)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range nodes {
		if !ups[n].Updated {
			t.Errorf("first fetch: %s not reported as updated: %+v", n, ups[n])
		}
		got, err := m.ResolveCommit(ctx, "refs/remotes/origin/"+n)
		if err != nil || got != gittest.Tip(t, rem, n) {
			t.Errorf("%s: tracking ref %s (%v), want %s", n, got, err, gittest.Tip(t, rem, n))
		}
	}
	anchors, err := os.ReadFile(mirror.AnchorsPath(f.dir))
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range nodes {
		if !strings.Contains(string(anchors), gittest.Tip(t, rem, n)+" "+n+"\n") {
			t.Errorf("anchors file has no anchor for %s:\n%s", n, anchors)
		}
	}

	ups, err = m.FetchBranchesUpdated(ctx, "origin", nodes)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range nodes {
		if ups[n].MayHaveMoved() {
			t.Errorf("idle fetch: %s may have moved: %+v", n, ups[n])
		}
	}

	b2 := gittest.Seed(t, rem, "rx-b", map[string]string{"r.json": "2\n"})
	ups, err = m.FetchBranchesUpdated(ctx, "origin", nodes)
	if err != nil {
		t.Fatal(err)
	}
	if !ups["rx-b"].Updated || ups["rx-a"].MayHaveMoved() || ups["rx-c"].MayHaveMoved() {
		t.Errorf("after a push to rx-b only: %+v", ups)
	}
	if got, _ := m.ResolveCommit(ctx, "refs/remotes/origin/rx-b"); got != b2 {
		t.Errorf("rx-b tracking ref %s, want %s", got, b2)
	}

	gittest.Rewrite(t, rem, "rx-c", map[string]string{"r.json": "forged\n"})
	var fp *gitcli.ForcePushError
	if _, err := m.FetchBranchesUpdated(ctx, "origin", nodes); !errors.As(err, &fp) || fp.Branch != "rx-c" {
		t.Fatalf("after rx-c was rewritten: %v, want a refused force-push of rx-c", err)
	}
	// A rebuilt mirror (its tracking refs gone) refuses it too, by its anchor.
	if err := os.RemoveAll(f.dir); err != nil {
		t.Fatal(err)
	}
	m = f.open(t)
	if _, err := m.FetchBranchesUpdated(ctx, "origin", nodes); !errors.As(err, &fp) || fp.Branch != "rx-c" {
		t.Fatalf("rebuilt mirror after rx-c was rewritten: %v, want a refused force-push of rx-c", err)
	}
}
