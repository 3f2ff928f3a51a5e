package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"rfhandoff/gate"
	"rfhandoff/internal/gittest"
	"rfhandoff/internal/rxtest"
	"rfhandoff/internal/tasktest"
	"rfhandoff/prompt"
	"rfhandoff/rxside"
	"rfhandoff/state"
)

// TestRxWatchApprove: watch → prompt → approve → outbox → state, then a
// task whose content changes under the same ID is rejected and reported
// (never offered), a deferred task is not offered again by that watcher,
// and [S] stops it cleanly.
func TestRxWatchApprove(t *testing.T) {
	t.Parallel()
	rx := rxtest.New(t, rxtest.Options{})
	rx.Policy.Capture.LNAGainDB, rx.Policy.Capture.VGAGainDB = 8, 14
	rx.WritePolicy()
	s := rxTerminal(t, rx, "rx", "watch")
	pid := waitRunning(t, rx)
	if pid != s.Pid() {
		t.Fatalf("watcher_pid %d, the watcher is %d", pid, s.Pid())
	}
	code, out, _ := rxMain(t, rx, "rx", "status")
	if code != 0 || !regexp.MustCompile(`watcher: +running \(process \d+\)`).MatchString(out) {
		t.Fatalf("status while watching: exit %d\n%s", code, out)
	}

	commit := rx.PushTask(tasktest.TaskSpec{ID: "WATCH_ONE", HardwareAccess: true, RFRX: true, AllowPush: "RX_RESULT_ONLY"})
	s.WaitForText("TASK_ID: WATCH_ONE", rxWait)
	s.WaitForText(menu, rxWait)
	// Before [A], the capture this policy will run; [S] stops the watcher.
	tty := s.TTY.String()
	for _, want := range []string{"Frequency:     433.92 MHz", "LNA/VGA gain:  8 dB / 14 dB", "Writes:        ", "Free there:    ", prompt.WatcherMenu} {
		if !strings.Contains(tty, want) {
			t.Errorf("the watcher's prompt lacks %q:\n%s", want, tty)
		}
	}
	if strings.Index(tty, "Free there:") > strings.Index(tty, menu) {
		t.Errorf("the capture plan comes after the menu:\n%s", tty)
	}
	s.Send("A")
	s.Stderr.WaitForText("ManualExecutor prepared the task", rxWait)
	st := loadRX(t, rx)
	if st.LastApprovedTaskID != "WATCH_ONE" || st.Approval == nil || st.Approval.Commit != commit || !st.Running {
		t.Fatalf("state after approval: %+v", st)
	}
	md, err := os.ReadFile(filepath.Join(rx.StateDir(), rxside.OutboxDir, "WATCH_ONE", rxside.OutboxTaskFile))
	if err != nil || !strings.Contains(string(md), "- RF TX: NOT allowed (RF_TX = NO)") {
		t.Fatalf("TASK.md: %v\n%s", err, md)
	}

	// Changed content under the approved ID: rejected, reported, not offered.
	rx.PushTask(tasktest.TaskSpec{ID: "WATCH_ONE", HardwareAccess: true, RFRX: true, AllowPush: "RX_RESULT_ONLY", Title: "Changed"})
	s.Stderr.WaitForText("task WATCH_ONE changed", rxWait)

	// Defer a new task; the next one is offered, the deferred one is not again.
	rx.PushTask(tasktest.TaskSpec{ID: "WATCH_DEFER"})
	s.WaitForText("TASK_ID: WATCH_DEFER", rxWait)
	s.WaitForText(menu, rxWait)
	if tail := s.TTY.String()[strings.LastIndex(s.TTY.String(), "TASK_ID: WATCH_DEFER"):]; strings.Contains(tail, "Frequency:") {
		t.Errorf("a task that captures nothing is shown a capture plan:\n%s", tail)
	}
	s.Send("D")
	s.Stderr.WaitForText("task deferred", rxWait)
	polled := fetches(t, rx.Policy.AuditPath())
	waitFor(t, "three more polls", func() bool { return fetches(t, rx.Policy.AuditPath()) >= polled+3 })
	rx.PushTask(tasktest.TaskSpec{ID: "WATCH_LAST"})
	s.WaitForText("TASK_ID: WATCH_LAST", rxWait)
	s.WaitForText(menu, rxWait)
	if n := strings.Count(s.TTY.String(), "TASK_ID: WATCH_DEFER"); n != 1 {
		t.Errorf("the deferred task was shown %d times", n)
	}
	if n := strings.Count(s.Stderr.String(), "task WATCH_ONE changed"); n != 1 {
		t.Errorf("the changed task was reported %d times, want once", n)
	}
	if st := loadRX(t, rx); st.DeferredTaskID != "WATCH_DEFER" {
		t.Errorf("deferred_task_id %q", st.DeferredTaskID)
	}
	s.Send("S")
	if code := exitOf(t, s); code != 0 {
		t.Fatalf("[S]: exit %d, stderr:\n%s", code, s.Stderr)
	}
	if st := loadRX(t, rx); st.Running || st.WatcherPID != 0 || st.LastApprovedTaskID != "WATCH_ONE" {
		t.Fatalf("state after [S]: %+v", st)
	}
}

// TestRxWatchSignals: SIGINT and SIGTERM stop the watcher cleanly (exit
// 0, running false), also while a prompt is open; a wrong phrase approves
// nothing and the task is asked again.
func TestRxWatchSignals(t *testing.T) {
	t.Parallel()
	rx := rxtest.New(t, rxtest.Options{})
	rx.PushTask(tasktest.TaskSpec{ID: "SIGNAL_RED", HardwareAccess: true, Level: gate.Red})
	s := rxTerminal(t, rx, "rx", "watch")
	s.WaitForText(menu, rxWait)
	s.Send("A")
	s.WaitForText("Type exactly: AUTHORIZE SIGNAL_RED", rxWait)
	s.Send("AUTHORIZE RF TX")
	s.Stderr.WaitForText("wrong phrase: nothing approved", rxWait)
	s.WaitForText(menu, rxWait) // asked again at the next poll
	s.Signal(syscall.SIGINT)
	if code := exitOf(t, s); code != 0 {
		t.Fatalf("SIGINT at the prompt: exit %d, stderr:\n%s", code, s.Stderr)
	}
	if st := loadRX(t, rx); st.Running || st.LastApprovedTaskID != "" || st.Approval != nil {
		t.Fatalf("state: %+v", st)
	}

	s = rxDetached(t, rx, "", "rx", "watch")
	waitRunning(t, rx)
	s.Stderr.WaitForText("task awaits approval, but there is no terminal", rxWait)
	s.Signal(syscall.SIGTERM)
	if code := exitOf(t, s); code != 0 {
		t.Fatalf("SIGTERM: exit %d, stderr:\n%s", code, s.Stderr)
	}
	if st := loadRX(t, rx); st.Running || st.WatcherPID != 0 || st.LastApprovedTaskID != "" {
		t.Fatalf("state after SIGTERM: %+v", st)
	}
}

// TestRxWatchForcePushRefused: a force-pushed task branch is refused and
// reported once; the watcher keeps running (and polling).
func TestRxWatchForcePushRefused(t *testing.T) {
	t.Parallel()
	rx := rxtest.New(t, rxtest.Options{})
	rx.PushTask(tasktest.TaskSpec{ID: "FORCE_ONE"})
	s := rxDetached(t, rx, "", "rx", "watch")
	s.Stderr.WaitForText("task_id=FORCE_ONE", rxWait)
	rx.ForcePushTask(tasktest.TaskSpec{ID: "FORCE_EVIL"})
	s.Stderr.WaitForText("task branch rewritten: refused, not followed", rxWait)
	polled := fetches(t, rx.Policy.AuditPath())
	waitFor(t, "three more polls", func() bool { return fetches(t, rx.Policy.AuditPath()) >= polled+3 })
	if s.Exited() {
		t.Fatal("the watcher stopped after a force-push")
	}
	errOut := s.Stderr.String()
	if n := strings.Count(errOut, "task branch rewritten"); n != 1 {
		t.Errorf("force-push reported %d times, want once:\n%s", n, errOut)
	}
	if strings.Contains(errOut, "FORCE_EVIL") {
		t.Errorf("the rewritten branch was followed:\n%s", errOut)
	}
	if st := loadRX(t, rx); st.LastSeenTaskID != "FORCE_ONE" || !st.Running {
		t.Errorf("state: %+v", st)
	}
	s.Signal(syscall.SIGTERM)
	if code := exitOf(t, s); code != 0 {
		t.Fatalf("exit %d", code)
	}
}

// TestRxWatchRemoteDownThenBack serves the remote with git daemon, stops
// it and starts it again on the same port: the watcher reports the error
// once, backs off, says when the remote is back and detects a task pushed
// while it was down.
func TestRxWatchRemoteDownThenBack(t *testing.T) {
	t.Parallel()
	rx := rxtest.New(t, rxtest.Options{})
	d := gittest.StartDaemon(t, filepath.Dir(rx.Remote.Dir), rx.Environ())
	rx.SetRemoteURL(d.URL(filepath.Base(rx.Remote.Dir)))
	rx.PushTask(tasktest.TaskSpec{ID: "DAEMON_ONE"})

	s := rxDetached(t, rx, "", "rx", "watch")
	s.Stderr.WaitForText("task_id=DAEMON_ONE", rxWait)

	d.Stop()
	s.Stderr.WaitForText("task branch poll failed; backing off", rxWait)
	failedAt := fetches(t, rx.Policy.AuditPath())
	waitFor(t, "four more failed polls", func() bool { return fetches(t, rx.Policy.AuditPath()) >= failedAt+4 })
	rx.PushTask(tasktest.TaskSpec{ID: "DAEMON_TWO"}) // lands while the daemon is down
	d.Start()
	s.Stderr.WaitForText("remote reachable again", rxWait)
	s.Stderr.WaitForText("task_id=DAEMON_TWO", rxWait)

	// The outage is reported once. A fetch in flight when the daemon
	// stopped may end with an error of its own first (a cut listing, not
	// a refused connection): one distinct error, one report more.
	errOut := s.Stderr.String()
	refused, cut, all := 0, 0, 0
	for _, line := range strings.Split(errOut, "\n") {
		if !strings.Contains(line, "task branch poll failed; backing off") {
			continue
		}
		all++
		if !strings.Contains(line, `cause="remote unreachable"`) {
			continue
		}
		if strings.Contains(line, "Connection refused") {
			refused++
		} else if strings.Contains(line, "expected flush after ref listing") {
			cut++
		}
	}
	if refused != 1 || cut > 1 || all != refused+cut {
		t.Errorf("the outage was reported %d times (%d as refused, %d as a cut fetch), want once (and the cut fetch at most once):\n%s", all, refused, cut, errOut)
	}
	if st := loadRX(t, rx); st.LastSeenTaskID != "DAEMON_TWO" {
		t.Errorf("state: %+v", st)
	}
	s.Signal(syscall.SIGTERM)
	if code := exitOf(t, s); code != 0 {
		t.Fatalf("exit %d:\n%s", code, errOut)
	}
}

// TestRxWatchSecondRefused: one watcher at a time; rx check and rx approve
// refuse beside it too, while mark-completed works.
func TestRxWatchSecondRefused(t *testing.T) {
	t.Parallel()
	rx := rxtest.New(t, rxtest.Options{})
	rx.PushTask(tasktest.TaskSpec{ID: "SECOND_ONE"})
	first := rxDetached(t, rx, "", "rx", "watch")
	pid := waitRunning(t, rx)

	second := rxDetached(t, rx, "", "rx", "watch")
	if code := exitOf(t, second); code != 1 || !strings.Contains(second.Stderr.String(), "only one watcher may run at a time") ||
		!strings.Contains(second.Stderr.String(), "rx_agent.lock") {
		t.Fatalf("second watcher: exit %d, stderr %q", code, second.Stderr)
	}
	code, _, errOut := rxMain(t, rx, "rx", "check")
	if code != 1 || !strings.Contains(errOut, "is running and holds") {
		t.Fatalf("check beside a watcher: exit %d, stderr %q", code, errOut)
	}
	if code, _, errOut = rxMain(t, rx, "rx", "mark-completed", "SECOND_ONE"); code != 0 {
		t.Fatalf("mark-completed beside a watcher: exit %d, %q", code, errOut)
	}
	first.Stderr.WaitForText("task is completed: not offered again", rxWait)
	if st := loadRX(t, rx); !st.Running || st.WatcherPID != pid {
		t.Fatalf("the refused commands disturbed the watcher's state: %+v", st)
	}
	first.Signal(syscall.SIGTERM)
	if code := exitOf(t, first); code != 0 {
		t.Fatalf("exit %d", code)
	}
}

// TestRxWatchKilledThenRestarted: SIGKILL leaves running=true; the state
// still parses, status calls it stale, and the next watcher recovers it
// with a warning.
func TestRxWatchKilledThenRestarted(t *testing.T) {
	t.Parallel()
	rx := rxtest.New(t, rxtest.Options{})
	rx.PushTask(tasktest.TaskSpec{ID: "KILLED_ONE"})
	s := rxDetached(t, rx, "", "rx", "watch")
	pid := waitRunning(t, rx)
	s.Stderr.WaitForText("task_id=KILLED_ONE", rxWait)
	s.Signal(syscall.SIGKILL)
	s.Wait(rxWait)

	st := loadRX(t, rx) // parses
	if !st.Running || st.WatcherPID != pid || st.LastSeenTaskID != "KILLED_ONE" {
		t.Fatalf("state after SIGKILL: %+v", st)
	}
	code, out, _ := rxMain(t, rx, "rx", "status")
	if code != 0 || !strings.Contains(out, "stale running flag") {
		t.Fatalf("status: exit %d\n%s", code, out)
	}

	s = rxDetached(t, rx, "", "rx", "watch")
	s.Stderr.WaitForText("recovered a stale running flag", rxWait)
	waitFor(t, "the new watcher's PID", func() bool {
		st, err := state.LoadRX(rx.StateDir())
		return err == nil && st.Running && st.WatcherPID == s.Pid()
	})
	s.Signal(syscall.SIGTERM)
	if code := exitOf(t, s); code != 0 {
		t.Fatalf("exit %d", code)
	}
	if st := loadRX(t, rx); st.Running {
		t.Fatalf("state: %+v", st)
	}
}
