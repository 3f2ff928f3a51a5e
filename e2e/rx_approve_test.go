package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"rfhandoff/gate"
	"rfhandoff/internal/rxtest"
	"rfhandoff/internal/tasktest"
	"rfhandoff/rxside"
	"rfhandoff/task"
)

// TestRxApprovePrompts drives `rx approve` on a real pseudo-terminal, as
// the operator would: approve, defer, stop, a wrong phrase, and the two
// RED phrases.
func TestRxApprovePrompts(t *testing.T) {
	t.Parallel()
	t.Run("approve GREEN", func(t *testing.T) {
		t.Parallel()
		rx := rxtest.New(t, rxtest.Options{})
		commit := rx.PushTask(tasktest.TaskSpec{ID: "APPROVE_GREEN", Body: "Do the thing.\n\x1b[2J\n"})
		s := rxTerminal(t, rx, "rx", "approve", "APPROVE_GREEN")
		s.WaitForText("TASK_ID: APPROVE_GREEN", rxWait)
		s.WaitForText(`<U+001B>[2J`, rxWait) // the body, escaped
		s.WaitForText(menu, rxWait)
		s.Send("A")
		if code := exitOf(t, s); code != 0 {
			t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, s.Stdout, s.Stderr)
		}
		if strings.ContainsRune(s.TTY.String(), 0x1b) && strings.Contains(s.TTY.String(), "\x1b[2J") {
			t.Error("the body's escape sequence reached the terminal raw")
		}
		if !strings.Contains(s.Stdout.String(), "approved task APPROVE_GREEN") {
			t.Errorf("stdout:\n%s", s.Stdout)
		}
		st := loadRX(t, rx)
		data := []byte(tasktest.TaskFile(tasktest.TaskSpec{ID: "APPROVE_GREEN", ExpectedHead: rx.Base, Body: "Do the thing.\n\x1b[2J\n"}))
		if st.LastApprovedTaskID != "APPROVE_GREEN" || st.Approval == nil || st.Approval.TaskSHA256 != task.Digest(data) || st.Approval.Commit != commit {
			t.Fatalf("state: %+v (approval %+v)", st, st.Approval)
		}
		out := filepath.Join(rx.StateDir(), rxside.OutboxDir, "APPROVE_GREEN")
		for _, f := range []string{rxside.OutboxTaskFile, rxside.OutboxResultJSONFile, rxside.OutboxResultMDFile} {
			if _, err := os.Stat(filepath.Join(out, f)); err != nil {
				t.Errorf("outbox: %v", err)
			}
		}
		// Approved: nothing new for rx check; approving again is a no-op.
		if code, out, _ := rxMain(t, rx, "rx", "check"); code != 0 || !strings.Contains(out, "already approved") {
			t.Errorf("check after approval: exit %d, %q", code, out)
		}
		s = rxTerminal(t, rx, "rx", "approve")
		if code := exitOf(t, s); code != 0 || !strings.Contains(s.Stdout.String(), "already approved") || strings.Contains(s.TTY.String(), menu) {
			t.Errorf("approve again: exit %d, stdout %q, tty %q", code, s.Stdout, s.TTY)
		}
	})

	t.Run("defer", func(t *testing.T) {
		t.Parallel()
		rx := rxtest.New(t, rxtest.Options{})
		rx.PushTask(tasktest.TaskSpec{ID: "APPROVE_DEFER"})
		s := rxTerminal(t, rx, "rx", "approve")
		s.WaitForText(menu, rxWait)
		s.Send("D")
		if code := exitOf(t, s); code != 1 || !strings.Contains(s.Stderr.String(), "deferred: nothing approved") {
			t.Fatalf("exit %d, stderr %q", code, s.Stderr)
		}
		if st := loadRX(t, rx); st.DeferredTaskID != "APPROVE_DEFER" || st.LastApprovedTaskID != "" || st.Approval != nil {
			t.Fatalf("state: %+v", st)
		}
		// Deferred still awaits approval.
		if code, out, _ := rxMain(t, rx, "rx", "check"); code != 10 || !strings.Contains(out, "deferred, awaits approval") {
			t.Errorf("check: exit %d, %q", code, out)
		}
	})

	t.Run("stop", func(t *testing.T) {
		t.Parallel()
		rx := rxtest.New(t, rxtest.Options{})
		rx.PushTask(tasktest.TaskSpec{ID: "APPROVE_STOP"})
		s := rxTerminal(t, rx, "rx", "approve")
		s.WaitForText(menu, rxWait)
		s.Send("a") // lowercase is not an answer: asked again
		s.WaitForText("capital letter", rxWait)
		s.WaitForText(menu, rxWait) // typed before the menu, an answer is discarded
		s.Send("S")
		if code := exitOf(t, s); code != 1 || !strings.Contains(s.Stderr.String(), "stopped: nothing approved") {
			t.Fatalf("exit %d, stderr %q", code, s.Stderr)
		}
		if st := loadRX(t, rx); st.LastApprovedTaskID != "" || st.Approval != nil || st.DeferredTaskID != "" {
			t.Fatalf("state: %+v", st)
		}
	})

	t.Run("wrong phrase", func(t *testing.T) {
		t.Parallel()
		rx := rxtest.New(t, rxtest.Options{})
		rx.PushTask(tasktest.TaskSpec{ID: "APPROVE_RED_WRONG", HardwareAccess: true, Level: gate.Red})
		s := rxTerminal(t, rx, "rx", "approve")
		s.WaitForText(menu, rxWait)
		s.Send("A")
		s.WaitForText("Type exactly: AUTHORIZE APPROVE_RED_WRONG", rxWait)
		s.Send("authorize APPROVE_RED_WRONG")
		if code := exitOf(t, s); code != 1 || !strings.Contains(s.Stderr.String(), "wrong phrase for task APPROVE_RED_WRONG: nothing approved") {
			t.Fatalf("exit %d, stderr %q", code, s.Stderr)
		}
		if st := loadRX(t, rx); st.LastApprovedTaskID != "" || st.Approval != nil {
			t.Fatalf("state: %+v", st)
		}
		if _, err := os.Stat(filepath.Join(rx.StateDir(), rxside.OutboxDir, "APPROVE_RED_WRONG")); !os.IsNotExist(err) {
			t.Errorf("outbox written for an unapproved task: %v", err)
		}
	})

	t.Run("RED phrase AUTHORIZE ID", func(t *testing.T) {
		t.Parallel()
		rx := rxtest.New(t, rxtest.Options{})
		rx.PushTask(tasktest.TaskSpec{ID: "APPROVE_RED_FW", HardwareAccess: true, Level: gate.Red})
		s := rxTerminal(t, rx, "rx", "approve")
		s.WaitForText("Level:   RED", rxWait)
		s.WaitForText(menu, rxWait)
		s.Send("A")
		s.WaitForText("Type exactly: AUTHORIZE APPROVE_RED_FW", rxWait)
		s.Send("AUTHORIZE APPROVE_RED_FW")
		if code := exitOf(t, s); code != 0 {
			t.Fatalf("exit %d, stderr %q", code, s.Stderr)
		}
		if st := loadRX(t, rx); st.LastApprovedTaskID != "APPROVE_RED_FW" {
			t.Fatalf("state: %+v", st)
		}
		md, err := os.ReadFile(filepath.Join(rx.StateDir(), rxside.OutboxDir, "APPROVE_RED_FW", rxside.OutboxTaskFile))
		if err != nil || !strings.Contains(string(md), "then the exact phrase `AUTHORIZE APPROVE_RED_FW`") {
			t.Fatalf("TASK.md: %v\n%s", err, md)
		}
	})

	t.Run("RED phrase AUTHORIZE RF TX", func(t *testing.T) {
		t.Parallel()
		rx := rxtest.New(t, rxtest.Options{})
		rx.PushTask(tasktest.TaskSpec{ID: "APPROVE_RED_TX", HardwareAccess: true, RFTX: true})
		// The per-task phrase does not approve an RF TX task.
		s := rxTerminal(t, rx, "rx", "approve")
		s.WaitForText(menu, rxWait)
		s.Send("A")
		s.WaitForText("Type exactly: AUTHORIZE RF TX", rxWait)
		s.Send("AUTHORIZE APPROVE_RED_TX")
		if code := exitOf(t, s); code != 1 {
			t.Fatalf("per-task phrase for RF TX: exit %d", code)
		}
		if st := loadRX(t, rx); st.LastApprovedTaskID != "" {
			t.Fatalf("approved with the wrong phrase: %+v", st)
		}
		s = rxTerminal(t, rx, "rx", "approve", "APPROVE_RED_TX")
		s.WaitForText(menu, rxWait)
		s.Send("A")
		s.WaitForText("Type exactly: AUTHORIZE RF TX", rxWait)
		s.Send("AUTHORIZE RF TX")
		if code := exitOf(t, s); code != 0 {
			t.Fatalf("exit %d, stderr %q", code, s.Stderr)
		}
		st := loadRX(t, rx)
		if st.LastApprovedTaskID != "APPROVE_RED_TX" {
			t.Fatalf("state: %+v", st)
		}
		md, err := os.ReadFile(filepath.Join(rx.StateDir(), rxside.OutboxDir, "APPROVE_RED_TX", rxside.OutboxTaskFile))
		if err != nil || !strings.Contains(string(md), "- RF TX: NOT allowed on this laptop, ever.") {
			t.Fatalf("TASK.md: %v\n%s", err, md)
		}
	})

	t.Run("changed while the prompt is open", func(t *testing.T) {
		t.Parallel()
		rx := rxtest.New(t, rxtest.Options{})
		rx.PushTask(tasktest.TaskSpec{ID: "APPROVE_SWAP"})
		s := rxTerminal(t, rx, "rx", "approve")
		s.WaitForText(menu, rxWait)
		// Approve-then-swap: the bytes change after they were shown.
		rx.PushTask(tasktest.TaskSpec{ID: "APPROVE_SWAP", HardwareAccess: true, Title: "Swapped"})
		s.Send("A")
		if code := exitOf(t, s); code != 1 || !strings.Contains(s.Stderr.String(), "changed while the prompt was open") {
			t.Fatalf("exit %d, stderr %q", code, s.Stderr)
		}
		if st := loadRX(t, rx); st.LastApprovedTaskID != "" || st.Approval != nil {
			t.Fatalf("approved after a swap: %+v", st)
		}
		// And the swapped content is rejected from now on.
		if code, _, errOut := rxMain(t, rx, "rx", "check"); code != 1 || !strings.Contains(errOut, "task APPROVE_SWAP changed") {
			t.Fatalf("check: exit %d, %q", code, errOut)
		}
	})

	t.Run("another TASK_ID", func(t *testing.T) {
		t.Parallel()
		rx := rxtest.New(t, rxtest.Options{})
		rx.PushTask(tasktest.TaskSpec{ID: "APPROVE_CURRENT"})
		s := rxTerminal(t, rx, "rx", "approve", "APPROVE_OTHER")
		if code := exitOf(t, s); code != 1 || !strings.Contains(s.Stderr.String(), "is APPROVE_CURRENT, not APPROVE_OTHER") {
			t.Fatalf("exit %d, stderr %q", code, s.Stderr)
		}
	})
}

// TestRxApproveNoTerminal: without a controlling terminal (stdin a pipe
// that even holds an "A"), nothing can be approved and the state is
// unchanged.
func TestRxApproveNoTerminal(t *testing.T) {
	t.Parallel()
	rx := rxtest.New(t, rxtest.Options{})
	rx.PushTask(tasktest.TaskSpec{ID: "NOTTY_1"})
	if code, _, _ := rxMain(t, rx, "rx", "check"); code != 10 {
		t.Fatalf("check: exit %d", code)
	}
	before, err := os.ReadFile(rx.StateFile())
	if err != nil {
		t.Fatal(err)
	}
	s := rxDetached(t, rx, "A\n", "rx", "approve", "NOTTY_1")
	if code := exitOf(t, s); code != 1 || !strings.Contains(s.Stderr.String(), "no terminal: nothing can be approved") {
		t.Fatalf("exit %d, stderr %q", code, s.Stderr)
	}
	if after, _ := os.ReadFile(rx.StateFile()); string(after) != string(before) {
		t.Fatalf("state changed:\n%s\nto\n%s", before, after)
	}
	if left := s.StdinLeft(); left != "A\n" {
		t.Errorf("stdin was read (%q left): answers must never come from it", left)
	}
}
