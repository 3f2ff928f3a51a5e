package fault

import (
	"strings"
	"syscall"
	"testing"

	"rfhandoff/gate"
	"rfhandoff/internal/faultkit"
	"rfhandoff/internal/gittest"
	"rfhandoff/internal/tasktest"
	"rfhandoff/state"
)

// Invariant: a force-pushed task branch is refused and reported, never
// followed, by the one-shot `rx check` too: it exits 1 naming the refused
// force-push, the tracking ref stays on the old commit and the task on the
// rewritten branch is never read or recorded. (The watcher's side is
// TestRxWatchForcePushRefused in cmd_rx_watch_test.go.)
func TestFaultForcePushedTaskBranch(t *testing.T) {
	t.Parallel()
	lab := faultkit.NewLab(t)
	lab.PushTask(tasktest.Capture("FAULT_FORCE_0001"))
	if out := lab.RX.Run(faultkit.Wait, "rx", "check"); out.Code != 10 {
		t.Fatalf("rx check of the first task: want exit 10\n%s", out)
	}
	old := lab.RX.TrackingRef(tasktest.TaskBranch)

	rewritten := gittest.Rewrite(t, lab.Remote, tasktest.TaskBranch, map[string]string{
		tasktest.TaskPath: tasktest.TaskFile(tasktest.TaskSpec{ID: "FAULT_FORCE_0002", Level: gate.Yellow, ExpectedHead: lab.Base}),
	})
	for range 2 {
		check := lab.RX.Run(faultkit.Wait, "rx", "check")
		if check.Code != 1 || !strings.Contains(check.Stderr, "force-push refused") || strings.Contains(check.All(), "FAULT_FORCE_0002") {
			t.Errorf("rx check after the rewrite: want exit 1 naming the refused force-push\n%s", check)
		}
	}
	if got := lab.RX.TrackingRef(tasktest.TaskBranch); got != old || got == rewritten {
		t.Errorf("tracking ref %s after the force-push; want it kept at %s", got, old)
	}
	st, err := state.LoadRX(lab.RX.StateDir())
	if err != nil {
		t.Fatal(err)
	}
	if st.LastSeenTaskID != "FAULT_FORCE_0001" || st.SeenTaskDigests["FAULT_FORCE_0002"] != "" {
		t.Errorf("state after the rewrite: last seen %q, seen %v", st.LastSeenTaskID, st.SeenTaskDigests)
	}
	faultkit.CheckAuditChain(t, lab.RX.AuditPath())
}

// Invariant: a force-pushed result branch is refused and reported, never
// followed: the READY result on the rewritten branch is never shown, the
// tracking ref stays, the watcher lives on.
func TestFaultForcePushedResultBranch(t *testing.T) {
	t.Parallel()
	lab := faultkit.NewLab(t)
	lab.PushTask(tasktest.Capture("FAULT_FORCE_0003"))
	lab.PushFiles(tasktest.ResultBranch, map[string]string{"docs/handoff/results/.keep": "x\n"})
	w := lab.Main.Start("tx", "watch")
	faultkit.WatcherUp(t, lab.Main, w.Pid(), true)
	faultkit.WaitFetches(t, lab.Main, "a first fetch", 1, faultkit.Call.OK)
	old := lab.Main.TrackingRef(tasktest.ResultBranch)

	gittest.Rewrite(t, lab.Remote, tasktest.ResultBranch, map[string]string{
		tasktest.ResultPath: string(lab.Encode(lab.Ready("FAULT_FORCE_0003"))),
	})
	w.Stdout.WaitForText("force-push refused", faultkit.Wait)
	faultkit.WaitFetches(t, lab.Main, "two refused fetches after the rewrite", 2, faultkit.Call.Failed)
	if got := lab.Main.TrackingRef(tasktest.ResultBranch); got != old {
		t.Errorf("tracking ref %s after the force-push; want it kept at %s", got, old)
	}
	if w.Exited() {
		t.Fatalf("tx watch died on a force-push\nstdout:\n%s", w.Stdout.String())
	}
	if out := w.Stdout.String(); strings.Contains(out, "READY result") {
		t.Errorf("a result from the rewritten branch was shown:\n%s", out)
	}
	w.Signal(syscall.SIGTERM)
	if st := w.Wait(faultkit.Wait); st.ExitCode() != 0 {
		t.Errorf("tx watch after SIGTERM: exit %d", st.ExitCode())
	}
	st, err := state.LoadTX(lab.Main.StateDir())
	if err != nil {
		t.Fatal(err)
	}
	if len(st.ShownResultDigests) != 0 {
		t.Errorf("shown digests after a refused rewrite: %v", st.ShownResultDigests)
	}
	faultkit.CheckAuditChain(t, lab.Main.AuditPath())
}
