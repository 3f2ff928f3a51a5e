package tasknew_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"rfhandoff/gitcli"
	"rfhandoff/internal/gittest"
	"rfhandoff/mirror"
)

// task new reads both branches through the MAIN mirror: the checkout's
// refs and .git are untouched, the media pushed to the task branch is
// never downloaded, an old version's TASK_ID is still found (its blob
// fetched in one bounded fetch), an oversized old version is noted
// without being downloaded, and the number of git processes does not grow
// with the history.
func TestTaskNewReadsThroughTheMirror(t *testing.T) {
	t.Parallel()
	rem, w := mainCheckout(t)
	cr := &gittest.Recorder{Runner: w.Git.R}
	w.Git = &gitcli.Client{R: cr, Dir: w.Git.Dir}
	taskFile := w.Policy.Repo.TaskFile
	gittest.Seed(t, rem, taskBranch, map[string]string{taskFile: "TASK_ID = OLD_TASK_001\n"})
	big := gittest.Seed(t, rem, taskBranch, map[string]string{taskFile: "TASK_ID = HUGE_TASK_001\n" + gittest.Incompressible(2<<20)})
	gittest.Seed(t, rem, taskBranch, map[string]string{taskFile: "TASK_ID = LAST_TASK_001\n", "media/take.raw": gittest.Incompressible(4 << 20)})
	gittest.Seed(t, rem, "rx-node", map[string]string{
		"docs/handoff/results/RX_RESULT.json": `{"schema_version": 0, "task_id": "OLD_RESULT_001"}`,
	})

	gitDir := filepath.Join(w.Policy.Repo.Path, ".git")
	refsBefore := gittest.Git(t, w.Git.R, w.Policy.Repo.Path, "for-each-ref")
	sizeBefore := gittest.TreeBytes(t, gitDir)

	_, err := w.Write(t.Context(), request("OLD_TASK_001", "Reused"))
	got := reasons(t, err)
	if len(got) != 1 || !strings.Contains(got[0], "TASK_ID OLD_TASK_001 was already used: the task file at commit") {
		t.Fatalf("reasons %q, want the old version's TASK_ID found", got)
	}
	_, err = w.Write(t.Context(), request("OLD_RESULT_001", "Reused"))
	if got := reasons(t, err); len(got) != 1 || !strings.Contains(got[0], "on origin/rx-node is for it") {
		t.Fatalf("reasons %q, want the result's task_id found", got)
	}
	out, err := w.Write(t.Context(), request("NEW_TASK_002", "New"))
	if err != nil {
		t.Fatal(err)
	}
	note := "the task file at commit " + big + " is over max_task_bytes (withheld by the server, never downloaded)"
	if len(out.Notes) != 1 || !strings.HasPrefix(out.Notes[0], note) {
		t.Errorf("notes %q, want one starting %q", out.Notes, note)
	}

	if refs := gittest.Git(t, w.Git.R, w.Policy.Repo.Path, "for-each-ref"); refs != refsBefore {
		t.Errorf("the checkout's refs changed:\nbefore %s\nafter  %s", refsBefore, refs)
	}
	if n := gittest.TreeBytes(t, gitDir); n != sizeBefore {
		t.Errorf("the checkout's .git went from %d to %d bytes: task new fetched into it", sizeBefore, n)
	}
	mdir := w.Policy.StatePath(mirror.TXName)
	if _, err := os.Stat(mdir); err != nil {
		t.Fatalf("the mirror: %v", err)
	}
	if n := gittest.TreeBytes(t, mdir); n > 1<<20 {
		t.Errorf("the mirror %s holds %d bytes: the media or the oversized version was downloaded", mdir, n)
	}
	for _, args := range cr.Take() {
		if args[0] == "cat-file" || args[0] == "show" {
			continue
		}
		if args[0] == "fetch" && !strings.Contains(strings.Join(args, " "), "--filter=blob:") {
			t.Errorf("an unfiltered fetch: %q", args)
		}
	}

	if err := os.Remove(out.Path); err != nil {
		t.Fatal(err)
	}
	// Warm mirror: the same number of git processes with a history three
	// times as long.
	count := func() int {
		t.Helper()
		if _, err := w.Write(t.Context(), request("COUNT_TASK_003", "Count")); err != nil {
			t.Fatal(err)
		}
		cr.Take()
		if _, err := w.Write(t.Context(), request("COUNT_TASK_003", "Count")); err != nil {
			t.Fatal(err)
		}
		return len(cr.Take())
	}
	short := count()
	for i := range 6 {
		gittest.Seed(t, rem, taskBranch, map[string]string{taskFile: fmt.Sprintf("TASK_ID = MORE_TASK_%03d\n", i)})
		gittest.Seed(t, rem, "rx-node", map[string]string{"docs/handoff/results/RX_RESULT.json": fmt.Sprintf(`{"task_id": "MORE_RESULT_%03d"}`, i)})
	}
	if long := count(); long != short {
		t.Errorf("%d git processes with the longer history, %d with the short one", long, short)
	}
}
