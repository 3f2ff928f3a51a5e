package gitcli_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"rfhandoff/exec"
	"rfhandoff/gitcli"
	"rfhandoff/internal/gittest"
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

// TestFileHistorySinceRealGit: the versions since a look are every content
// the file got after it, the ones that came and went and the one a merge
// brought in from a side branch (first parent or not) included, never the
// look's own; an unknown look reads everything; the bound keeps the
// commits nearest the tip whatever dates they claim, and says more were
// left.
func TestFileHistorySinceRealGit(t *testing.T) {
	t.Parallel()
	co := newCheckout(t)
	ctx := t.Context()
	look := gittest.Seed(t, co.rem, taskBranch, map[string]string{taskFile: "LOOK\n"})
	gittest.Seed(t, co.rem, taskBranch, map[string]string{taskFile: "CAME\n"})
	went := gittest.Seed(t, co.rem, taskBranch, map[string]string{taskFile: "LOOK\n"}) // back to the look's bytes
	side := gittest.Seed(t, co.rem, "side", map[string]string{taskFile: "SIDE\n"})     // a root commit
	// A merge whose tree is the main line's, with the side branch as the
	// first parent: a first-parent walk would never see "CAME".
	tree := strings.TrimSpace(gittest.Git(t, co.rem.R, co.rem.Dir, "rev-parse", went+"^{tree}"))
	merge := strings.TrimSpace(gittest.Git(t, co.rem.R, co.rem.Dir, "commit-tree", tree, "-p", side, "-p", went, "-m", "merge"))
	gittest.Git(t, co.rem.R, co.rem.Dir, "update-ref", "refs/heads/"+taskBranch, merge)
	if err := co.c.FetchBranch(ctx, "origin", taskBranch); err != nil {
		t.Fatal(err)
	}
	contents := func(vs []gitcli.FileVersion) []string {
		var out []string
		for _, v := range vs {
			out = append(out, string(v.Data))
		}
		slices.Sort(out)
		return out
	}

	got, more, err := co.c.FileHistorySince(ctx, merge, look, taskFile, 100, 10)
	if err != nil || more {
		t.Fatalf("since the look: %v, more %v", err, more)
	}
	// LOOK again is a version since the look (commit went), so it is listed.
	if want := []string{"CAME\n", "LOOK\n", "SIDE\n"}; !slices.Equal(contents(got), want) {
		t.Errorf("since the look: %q, want %q", contents(got), want)
	}
	for _, v := range got {
		if v.Commit == look {
			t.Errorf("the look's own commit is listed: %+v", v)
		}
	}
	if got, _, err := co.c.FileHistorySince(ctx, merge, merge, taskFile, 100, 10); err != nil || len(got) != 0 {
		t.Errorf("since the tip itself: %+v, %v; want nothing", got, err)
	}
	// A look git does not have reads the whole history, T_1 of the
	// remote's seed included.
	missing := strings.Repeat("ab", 20)
	got, _, err = co.c.FileHistorySince(ctx, merge, missing, taskFile, 100, 10)
	i := slices.IndexFunc(got, func(v gitcli.FileVersion) bool { return string(v.Data) == "LOOK\n" })
	if err != nil || i < 0 || got[i].Commit != look {
		t.Errorf("since a commit not in the repository: %+v, %v; want the whole history, LOOK from %s", got, err, look)
	}

	// Bounded: five commits dated in the future under one dated in the
	// past, which is nearest the tip. Topological order reads it.
	base := merge
	work := gittest.Clone(t, co.rem, taskBranch)
	for i := range 5 {
		gittest.WriteFiles(t, work, map[string]string{taskFile: fmt.Sprintf("FUTURE %d\n", i)})
		gittest.Git(t, co.rem.R, work, "add", "--all")
		res, err := co.rem.R.Run(ctx, exec.Cmd{Tool: exec.Git, Dir: work, Env: []string{"GIT_COMMITTER_DATE=2099-01-01T00:00:00Z", "GIT_AUTHOR_DATE=2099-01-01T00:00:00Z"},
			Args: []string{"commit", "--quiet", "-m", "future"}})
		if err != nil {
			t.Fatalf("%v %s", err, res.Stderr)
		}
	}
	gittest.WriteFiles(t, work, map[string]string{taskFile: "TIP\n"})
	gittest.Git(t, co.rem.R, work, "add", "--all")
	if _, err := co.rem.R.Run(ctx, exec.Cmd{Tool: exec.Git, Dir: work, Env: []string{"GIT_COMMITTER_DATE=2001-01-01T00:00:00Z", "GIT_AUTHOR_DATE=2001-01-01T00:00:00Z"},
		Args: []string{"commit", "--quiet", "-m", "past"}}); err != nil {
		t.Fatal(err)
	}
	gittest.Git(t, co.rem.R, work, "push", "--quiet", "origin", "HEAD:refs/heads/"+taskBranch)
	if err := co.c.FetchBranch(ctx, "origin", taskBranch); err != nil {
		t.Fatal(err)
	}
	tip := git(t, co, "rev-parse", "refs/remotes/origin/"+taskBranch)
	cr := &gittest.Recorder{Runner: co.rem.R}
	c := &gitcli.Client{R: cr, Dir: co.dir}
	got, more, err = c.FileHistorySince(ctx, tip, base, taskFile, 100, 3)
	if err != nil || !more {
		t.Fatalf("six commits since, at most 3: %v, more %v; want more", err, more)
	}
	if want := []string{"FUTURE 3\n", "FUTURE 4\n", "TIP\n"}; !slices.Equal(contents(got), want) {
		t.Errorf("the bounded read: %q, want the three nearest the tip %q", contents(got), want)
	}
	if n := len(cr.Take()); n != 4 {
		t.Errorf("FileHistorySince ran %d git processes, want 4 (the look's ancestry, log, two cat-file)", n)
	}
	if got, more, err := c.FileHistorySince(ctx, tip, base, taskFile, 100, 6); err != nil || more || len(got) != 6 {
		t.Errorf("six commits since, at most 6: %d versions, more %v, %v", len(got), more, err)
	}
}
