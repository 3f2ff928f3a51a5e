package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"rfhandoff/capture"
	"rfhandoff/internal/gittest"
	"rfhandoff/internal/rxtest"
	"rfhandoff/internal/tasktest"
	"rfhandoff/localfile"
)

// TestRxCheckExitCodes walks `rx check` through its exit codes on a real
// bare remote: 10 while a valid task awaits approval, 0 once there is
// nothing new to approve, 1 for every kind of error.
func TestRxCheckExitCodes(t *testing.T) {
	t.Parallel()
	rx := rxtest.New(t, rxtest.Options{})

	// No task file yet is nothing to approve: exit 0 and one line, so
	// that cron mails nothing until the MAIN PC writes its first task.
	code, out, errOut := rxMain(t, rx, "rx", "check")
	if code != 0 || errOut != "" || strings.Count(out, "\n") != 1 ||
		!strings.Contains(out, "no task yet: docs/handoff/NEXT_RX_TASK.md is not in task branch commit "+rx.Base) {
		t.Fatalf("no task file: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if st := loadRX(t, rx); st.LastSeenTaskID != "" || st.LastSeenTaskCommit != "" {
		t.Fatalf("no task file recorded something: %+v", st)
	}
	// A missing task branch is still an error.
	rxBadBranch := rxtest.New(t, rxtest.Options{})
	gittest.Git(t, rxBadBranch.Remote.R, rxBadBranch.Remote.Dir, "update-ref", "-d", "refs/heads/"+rxBadBranch.Policy.Repo.TaskBranch)
	if code, _, errOut := rxMain(t, rxBadBranch, "rx", "check"); code != 1 || !strings.Contains(errOut, "not found") {
		t.Fatalf("no task branch: exit %d, stderr %q", code, errOut)
	}

	rx.PushTask(tasktest.TaskSpec{ID: "CHECK_NEW_1", Title: "Look \x1b]0;owned\x07 here", HardwareAccess: true, RFRX: true})
	code, _, errOut = rxMain(t, rx, "rx", "check")
	if code != 1 || !strings.Contains(errOut, `TASK_TITLE: control character`) || strings.ContainsRune(errOut, 0x1b) {
		t.Fatalf("title with an escape: exit %d, stderr %q", code, errOut)
	}

	commit := rx.PushTask(tasktest.TaskSpec{ID: "CHECK_NEW_1", HardwareAccess: true, RFRX: true})
	code, out, errOut = rxMain(t, rx, "rx", "check")
	if code != 10 {
		t.Fatalf("new task: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	for _, want := range []string{"task:     CHECK_NEW_1\n", "commit:   " + commit + "\n",
		"level:    YELLOW (declared YELLOW, derived YELLOW from HARDWARE_ACCESS = YES, RF_RX = YES)\n",
		"approval: A\n", "status:   awaits approval\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
	st := loadRX(t, rx)
	if st.LastSeenTaskID != "CHECK_NEW_1" || st.LastSeenTaskCommit != commit || st.LastApprovedTaskID != "" {
		t.Fatalf("state after check: %+v", st)
	}
	// Seen is not approved: still 10.
	if code, _, _ = rxMain(t, rx, "rx", "check"); code != 10 {
		t.Fatalf("second check: exit %d", code)
	}

	// The same ID with other bytes: rejected, every time.
	rx.PushTask(tasktest.TaskSpec{ID: "CHECK_NEW_1", HardwareAccess: true, RFRX: true, Title: "Sneakily revised"})
	for range 2 {
		code, _, errOut = rxMain(t, rx, "rx", "check")
		if code != 1 || !strings.Contains(errOut, "task CHECK_NEW_1 changed") || !strings.Contains(errOut, "must get a new TASK_ID") {
			t.Fatalf("changed content: exit %d, stderr %q", code, errOut)
		}
	}

	// Invalid: every reason at once.
	bad := strings.NewReplacer("RF_TX = NO", "RF_TX = MAYBE", "RISK_LEVEL = GREEN", "RISK_LEVEL = PURPLE").
		Replace(tasktest.TaskFile(tasktest.TaskSpec{ID: "CHECK_BAD", ExpectedHead: rx.Base}))
	rx.PushFile(bad)
	code, _, errOut = rxMain(t, rx, "rx", "check")
	if code != 1 || !strings.Contains(errOut, "RF_TX:") || !strings.Contains(errOut, "RISK_LEVEL:") {
		t.Fatalf("invalid task: exit %d, stderr %q", code, errOut)
	}

	// EXPECTED_HEAD from another history.
	rx.PushTask(tasktest.TaskSpec{ID: "CHECK_ANCESTRY", ExpectedHead: gittest.Tip(t, rx.Remote, "main")})
	code, _, errOut = rxMain(t, rx, "rx", "check")
	if code != 1 || !strings.Contains(errOut, "is not an ancestor of task branch commit") {
		t.Fatalf("not an ancestor: exit %d, stderr %q", code, errOut)
	}

	// Completed: nothing new, never offered again.
	rx.PushTask(tasktest.TaskSpec{ID: "CHECK_DONE"})
	if code, _, _ = rxMain(t, rx, "rx", "check"); code != 10 {
		t.Fatalf("CHECK_DONE: exit %d", code)
	}
	// An rx capture holding its lock keeps its record: mark-completed
	// marks the task and leaves capture_in_progress to the capture.
	l, err := localfile.Acquire(filepath.Join(rx.StateDir(), capture.LockFile))
	if err != nil {
		t.Fatal(err)
	}
	code, out, _ = rxMain(t, rx, "rx", "mark-completed", "CHECK_DONE")
	l.Release()
	if code != 0 || !strings.Contains(out, "CHECK_DONE marked completed") ||
		!strings.Contains(out, "an rx capture is running; capture_in_progress is left to it\n") {
		t.Fatalf("mark-completed beside a capture: exit %d, %q", code, out)
	}
	code, out, _ = rxMain(t, rx, "rx", "check")
	if code != 0 || !strings.Contains(out, "status:   completed, never offered again\n") {
		t.Fatalf("completed task: exit %d, stdout %q", code, out)
	}

	// A force-pushed branch is refused, not followed.
	rx.ForcePushTask(tasktest.TaskSpec{ID: "CHECK_EVIL"})
	code, _, errOut = rxMain(t, rx, "rx", "check")
	if code != 1 || !strings.Contains(errOut, "force-push refused") {
		t.Fatalf("force-push: exit %d, stderr %q", code, errOut)
	}
	if st := loadRX(t, rx); st.LastSeenTaskID != "CHECK_DONE" {
		t.Fatalf("a refused check changed last_seen: %+v", st)
	}
}

// TestRxCheckRefusals: a state directory git does not ignore, a corrupt
// state file, and a bad TASK_ID for mark-completed each refuse with a
// clear message and change nothing.
func TestRxCheckRefusals(t *testing.T) {
	t.Parallel()
	t.Run("not ignored", func(t *testing.T) {
		rx := rxtest.New(t, rxtest.Options{NotIgnored: true})
		rx.PushTask(tasktest.TaskSpec{ID: "REFUSE_1"})
		for _, args := range [][]string{{"rx", "check"}, {"rx", "watch"}, {"rx", "mark-completed", "REFUSE_1"}} {
			code, _, errOut := rxMain(t, rx, args...)
			if code != 1 || !strings.Contains(errOut, "is not ignored by git") || !strings.Contains(errOut, "/.local/") {
				t.Errorf("%v: exit %d, stderr %q", args, code, errOut)
			}
		}
		if _, err := os.Stat(rx.StateDir()); !os.IsNotExist(err) {
			t.Errorf("state directory created where .local is not ignored: %v", err)
		}
	})
	t.Run("corrupt state", func(t *testing.T) {
		rx := rxtest.New(t, rxtest.Options{})
		rx.PushTask(tasktest.TaskSpec{ID: "REFUSE_2"})
		if err := os.MkdirAll(rx.StateDir(), 0o700); err != nil {
			t.Fatal(err)
		}
		bad := []byte("{\"last_seen_task_id\": \"REFUSE_2\", \"last_seen_task_id\": \"OTHER\"}\n")
		if err := os.WriteFile(rx.StateFile(), bad, 0o600); err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{{"rx", "check"}, {"rx", "watch"}, {"rx", "status"}, {"rx", "mark-completed", "REFUSE_2"}} {
			code, _, errOut := rxMain(t, rx, args...)
			if code != 1 || !strings.Contains(errOut, rx.StateFile()) || !strings.Contains(errOut, "corrupt") {
				t.Errorf("%v: exit %d, stderr %q", args, code, errOut)
			}
		}
		if got, _ := os.ReadFile(rx.StateFile()); string(got) != string(bad) {
			t.Errorf("corrupt state file changed: %q", got)
		}
	})
	t.Run("bad TASK_ID", func(t *testing.T) {
		rx := rxtest.New(t, rxtest.Options{})
		code, _, errOut := rxMain(t, rx, "rx", "mark-completed", "lower_case")
		if code != 1 || !strings.Contains(errOut, `invalid TASK_ID "lower_case"`) {
			t.Errorf("exit %d, stderr %q", code, errOut)
		}
	})
}

func TestRxStatus(t *testing.T) {
	t.Parallel()
	rx := rxtest.New(t, rxtest.Options{})
	code, out, errOut := rxMain(t, rx, "rx", "status")
	if code != 0 || !strings.Contains(out, "watcher:         not running\n") || !strings.Contains(out, "last seen:       - at -\n") {
		t.Fatalf("fresh status: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	rx.PushTask(tasktest.TaskSpec{ID: "STATUS_1"})
	if code, _, _ = rxMain(t, rx, "rx", "check"); code != 10 {
		t.Fatalf("check: exit %d", code)
	}
	rxMain(t, rx, "rx", "mark-completed", "STATUS_0")
	code, out, _ = rxMain(t, rx, "rx", "status", "--json")
	var s struct {
		StateFile      string `json:"state_file"`
		WatcherRunning bool   `json:"watcher_running"`
		StaleRunning   bool   `json:"stale_running"`
		State          struct {
			LastSeenTaskID   string   `json:"last_seen_task_id"`
			CompletedTaskIDs []string `json:"completed_task_ids"`
			Running          bool     `json:"running"`
		} `json:"state"`
	}
	if err := json.Unmarshal([]byte(out), &s); code != 0 || err != nil {
		t.Fatalf("status --json: exit %d, %v:\n%s", code, err, out)
	}
	if s.StateFile != rx.StateFile() || s.WatcherRunning || s.StaleRunning || s.State.LastSeenTaskID != "STATUS_1" ||
		len(s.State.CompletedTaskIDs) != 1 || s.State.CompletedTaskIDs[0] != "STATUS_0" {
		t.Fatalf("status --json: %+v", s)
	}
}
