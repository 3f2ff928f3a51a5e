package gitcli_test

import (
	"slices"
	"strings"
	"testing"

	"rfhandoff/gitcli"
	"rfhandoff/gitcli/gittest"
)

// TestFileHistoryRealGit: every content the file had — deleted and
// re-added, oversized, and on a side branch that a merge kept out of the
// file (history simplification would hide it) — each named by the commit
// that introduced it, in three git processes.
func TestFileHistoryRealGit(t *testing.T) {
	t.Parallel()
	co := newCheckout(t)
	ctx := t.Context()
	first := gittest.Seed(t, co.rem, taskBranch, map[string]string{taskFile: "TASK_ID = T_1\n"})
	gittest.Seed(t, co.rem, taskBranch, map[string]string{taskFile: ""}) // deleted
	bigAt := gittest.Seed(t, co.rem, taskBranch, map[string]string{taskFile: strings.Repeat("x", 200)})
	side := gittest.Seed(t, co.rem, "side", map[string]string{taskFile: "TASK_ID = T_SIDE\n"}) // a root commit
	// A merge of side whose tree is the main line's ("-s ours"), made and
	// moved server side with plumbing.
	tree := strings.TrimSpace(gittest.Git(t, co.rem.R, co.rem.Dir, "rev-parse", bigAt+"^{tree}"))
	merge := strings.TrimSpace(gittest.Git(t, co.rem.R, co.rem.Dir, "commit-tree", tree, "-p", bigAt, "-p", side, "-m", "merge side"))
	gittest.Git(t, co.rem.R, co.rem.Dir, "update-ref", "refs/heads/"+taskBranch, merge)
	if err := co.c.FetchBranch(ctx, "origin", taskBranch); err != nil {
		t.Fatal(err)
	}

	cr := &gittest.Recorder{Runner: co.rem.R}
	c := &gitcli.Client{R: cr, Dir: co.dir}
	got, err := c.FileHistory(ctx, merge, taskFile, 100)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(cr.Take()); n != 3 {
		t.Errorf("FileHistory ran %d git processes, want 3", n)
	}
	byData := map[string]gitcli.FileVersion{}
	for _, v := range got {
		byData[string(v.Data)] = v
	}
	if v, ok := byData["TASK_ID = T_1\n"]; !ok || v.Commit != first {
		t.Errorf("first version: %+v, want commit %s", v, first)
	}
	if v, ok := byData["TASK_ID = T_SIDE\n"]; !ok || v.Commit != side {
		t.Errorf("side-branch version: %+v, want commit %s", v, side)
	}
	i := slices.IndexFunc(got, func(v gitcli.FileVersion) bool { return v.Size == 200 })
	if i < 0 || got[i].Data != nil || got[i].Commit != bigAt {
		t.Errorf("oversized version: %+v, want listed at %s without data", got, bigAt)
	}
	if len(got) != 3 {
		t.Errorf("got %d versions, want 3: %+v", len(got), got)
	}

	none, err := c.FileHistory(ctx, merge, "docs/never.md", 100)
	if err != nil || len(none) != 0 {
		t.Errorf("FileHistory of a path that never existed = %v, %v", none, err)
	}
}
