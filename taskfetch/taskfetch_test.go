package taskfetch_test

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"rfhandoff/exec"
	"rfhandoff/gitcli"
	"rfhandoff/internal/gittest"
	"rfhandoff/internal/rxtest"
	"rfhandoff/internal/tasktest"
	"rfhandoff/task"
	"rfhandoff/taskfetch"
)

func TestFetchValid(t *testing.T) {
	rx := rxtest.New(t, rxtest.Options{})
	content := tasktest.TaskFile(tasktest.TaskSpec{ID: "TF_VALID_1", ExpectedHead: rx.Base, RFRX: true, HardwareAccess: true})
	commit := rx.PushFile(content)

	cur, err := taskfetch.Fetch(t.Context(), rx.Client(rx.Runner()), rx.Policy)
	if err != nil {
		t.Fatalf("Fetch: %v", err)
	}
	if cur.Commit != commit {
		t.Errorf("read from %s, want the pushed commit %s", cur.Commit, commit)
	}
	if string(cur.Data) != content {
		t.Errorf("data differs from the pushed file:\n%s", cur.Data)
	}
	if cur.Task.ID != "TF_VALID_1" || cur.Task.SHA256 != task.Digest([]byte(content)) || cur.Task.EffectiveLevel.String() != "YELLOW" {
		t.Errorf("task = %+v", cur.Task)
	}
	// The tracking ref now holds the commit: ReadAt on it reads the same bytes.
	again, err := taskfetch.ReadAt(t.Context(), rx.Client(rx.Runner()), rx.Policy, commit)
	if err != nil || again.Task.SHA256 != cur.Task.SHA256 {
		t.Fatalf("ReadAt(%s) = %v, %v", commit, again, err)
	}
}

func TestFetchNotAncestor(t *testing.T) {
	rx := rxtest.New(t, rxtest.Options{})
	// main's tip is present in the checkout (it was cloned) but is not in
	// the task branch's history.
	other := gittest.Tip(t, rx.Remote, "main")
	commit := rx.PushTask(tasktest.TaskSpec{ID: "TF_OTHER_HISTORY", ExpectedHead: other})

	_, err := taskfetch.Fetch(t.Context(), rx.Client(rx.Runner()), rx.Policy)
	want := "task TF_OTHER_HISTORY: EXPECTED_HEAD " + other + " is not an ancestor of task branch commit " + commit
	if !errors.Is(err, taskfetch.ErrRefusedContent) || err.Error() != want {
		t.Fatalf("Fetch: %v; want ErrRefusedContent saying %q", err, want)
	}
}

// A missing EXPECTED_HEAD object makes merge-base exit 128: that is an
// error, never a yes and never a plain "not an ancestor".
func TestFetchMissingObjectIsAnError(t *testing.T) {
	rx := rxtest.New(t, rxtest.Options{})
	missing := strings.Repeat("ab", 20)
	rx.PushTask(tasktest.TaskSpec{ID: "TF_MISSING_HEAD", ExpectedHead: missing})

	_, err := taskfetch.Fetch(t.Context(), rx.Client(rx.Runner()), rx.Policy)
	var ee *exec.ExitError
	if err == nil || errors.Is(err, taskfetch.ErrRefusedContent) || !errors.As(err, &ee) || ee.Code != 128 {
		t.Fatalf("Fetch: %v (%T); want git's exit 128 that is not ErrRefusedContent", err, err)
	}
	if !strings.Contains(err.Error(), missing) || !strings.Contains(err.Error(), "TF_MISSING_HEAD") {
		t.Errorf("error does not name the task and EXPECTED_HEAD: %v", err)
	}
}

func TestFetchOversizeRefusedBeforeReading(t *testing.T) {
	rx := rxtest.New(t, rxtest.Options{})
	rx.Policy.Limits.MaxTaskBytes = 512
	content := tasktest.TaskFile(tasktest.TaskSpec{ID: "TF_TOO_BIG", ExpectedHead: rx.Base, Body: strings.Repeat("x", 600) + "\n"})
	rx.PushFile(content)
	r := gittest.RunnerWithHome(t, rx.Home) // its own audit log
	_, err := taskfetch.Fetch(t.Context(), rx.Client(r), rx.Policy)
	if want := fmt.Sprintf("is %d bytes, more than the limit of 512", len(content)); !errors.Is(err, gitcli.ErrUnreadableFile) || !strings.Contains(err.Error(), want) {
		t.Fatalf("Fetch: %v; want ErrUnreadableFile saying it %s", err, want)
	}
	// Refused from the tree entry's size: no cat-file ever ran.
	audit, err := os.ReadFile(r.AuditLog().Path())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(audit), `"cat-file"`) {
		t.Errorf("the blob was read although it is over the limit:\n%s", audit)
	}
}

func TestFetchSymlinkRefused(t *testing.T) {
	rx := rxtest.New(t, rxtest.Options{})
	// A symlink at the task path, pointing at a valid task file.
	r := rx.Runner()
	real := tasktest.TaskFile(tasktest.TaskSpec{ID: "TF_SYMLINK", ExpectedHead: rx.Base})
	gittest.Seed(t, rx.Remote, tasktest.TaskBranch, map[string]string{
		"real.md":         real,
		tasktest.TaskPath: gittest.SymlinkPrefix + "../../real.md",
	})

	_, err := taskfetch.Fetch(t.Context(), rx.Client(r), rx.Policy)
	if want := fmt.Sprintf("is not a regular file (mode %s,", gitcli.ModeSymlink); !errors.Is(err, gitcli.ErrUnreadableFile) || !strings.Contains(err.Error(), want) {
		t.Fatalf("Fetch: %v; want ErrUnreadableFile saying %q", err, want)
	}
}

func TestFetchInvalidTask(t *testing.T) {
	rx := rxtest.New(t, rxtest.Options{})
	bad := strings.Replace(tasktest.TaskFile(tasktest.TaskSpec{ID: "TF_INVALID", ExpectedHead: rx.Base}),
		"RF_TX = NO", "RF_TX = MAYBE", 1)
	bad = strings.Replace(bad, "SOURCE_BRANCH = "+tasktest.TaskBranch, "SOURCE_BRANCH = main", 1)
	rx.PushFile(bad)

	_, err := taskfetch.Fetch(t.Context(), rx.Client(rx.Runner()), rx.Policy)
	var inv *task.InvalidError
	if !errors.As(err, &inv) {
		t.Fatalf("Fetch: %v; want *task.InvalidError", err)
	}
	fields := map[string]bool{}
	for _, p := range inv.Problems() {
		fields[p.Field] = true
	}
	if !fields["RF_TX"] || !fields["SOURCE_BRANCH"] {
		t.Errorf("not every reason reported: %v", err)
	}
}

func TestFetchMissingTaskFileAndBranch(t *testing.T) {
	rx := rxtest.New(t, rxtest.Options{})
	_, err := taskfetch.Fetch(t.Context(), rx.Client(rx.Runner()), rx.Policy)
	if !errors.Is(err, gitcli.ErrNotFound) || !errors.Is(err, taskfetch.ErrNoTask) {
		t.Fatalf("Fetch without a task file: %v; want ErrNotFound and ErrNoTask", err)
	}
	// A missing branch is not "no task yet" (rx check's exit 0): it fails.
	rx.Policy.Repo.TaskBranch = "no-such-branch"
	_, err = taskfetch.Fetch(t.Context(), rx.Client(rx.Runner()), rx.Policy)
	if !errors.Is(err, gitcli.ErrNotFound) || errors.Is(err, taskfetch.ErrNoTask) {
		t.Fatalf("Fetch of a missing branch: %v; want ErrNotFound, not ErrNoTask", err)
	}
}
