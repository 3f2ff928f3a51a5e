package fault

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"rfhandoff/internal/faultkit"
	"rfhandoff/internal/gittest"
	"rfhandoff/internal/tasktest"
	"rfhandoff/state"
	"rfhandoff/txwatch"
)

// The RX watcher's outage (git daemon stopped and started again on the
// same port, a task pushed meanwhile, the outage reported once) is
// TestRxWatchRemoteDownThenBack in cmd_rx_watch_test.go.

// Invariant: the TX watcher outlives its remote. A READY result published
// while git daemon is down is shown once it is back (without a terminal:
// reported, nothing authorized); no record is written; the digest is
// recorded as shown exactly once.
func TestFaultTXWatchRemoteAwayAndBack(t *testing.T) {
	t.Parallel()
	lab := faultkit.NewLab(t)
	d := lab.StartDaemon()
	lab.UseURL(lab.DaemonURL(d))
	lab.PushTask(tasktest.Capture("FAULT_AWAY_0002"))

	w := lab.Main.Start("tx", "watch")
	faultkit.WatcherUp(t, lab.Main, w.Pid(), true)
	faultkit.WaitFetches(t, lab.Main, "a successful fetch through the daemon", 1, faultkit.Call.OK)

	d.Stop()
	faultkit.WaitFetches(t, lab.Main, "three failed fetches with the daemon down", 3, faultkit.Call.Failed)
	ready := lab.Encode(lab.Ready("FAULT_AWAY_0002"))
	lab.PushResult(ready)
	if w.Exited() {
		t.Fatalf("tx watch died while the remote was away\nstdout:\n%s", w.Stdout.String())
	}
	d.Start()
	w.Stdout.WaitForText("READY result for task FAULT_AWAY_0002 awaiting authorization", faultkit.Wait)
	w.Stdout.WaitForText("no terminal", faultkit.Wait)
	if out := w.Stdout.String(); !strings.Contains(out, "recovered") {
		t.Errorf("the recovery was not reported:\n%s", out)
	}

	w.Signal(syscall.SIGTERM)
	if st := w.Wait(faultkit.Wait); st.ExitCode() != 0 {
		t.Errorf("tx watch after SIGTERM: exit %d", st.ExitCode())
	}
	st, err := state.LoadTX(lab.Main.StateDir())
	if err != nil {
		t.Fatal(err)
	}
	if len(st.ShownResultDigests) != 1 || st.Running {
		t.Errorf("state after the outage: shown %v running %v", st.ShownResultDigests, st.Running)
	}
	store, err := txwatch.StoreOf(lab.Main.Policy)
	if err != nil {
		t.Fatal(err)
	}
	if recs := faultkit.TempFiles(t, store.Dir); len(recs) != 0 {
		t.Errorf("temp files in the authorization directory: %v", recs)
	}
	if n := countRecords(t, store.Dir); n != 0 {
		t.Errorf("%d authorization records written without a terminal", n)
	}
	faultkit.CheckAuditChain(t, lab.Main.AuditPath())
}

// Invariant: a publish against a remote that is down, or that dies in the
// middle of the push, fails and changes nothing (result branch, RX state);
// once the remote is back the same command publishes exactly one commit,
// and running it again is a no-op (no duplicate commit).
func TestFaultPublishRemoteAwayAndBack(t *testing.T) {
	t.Parallel()
	lab := faultkit.NewLab(t)
	d := lab.StartDaemon()
	lab.UseURL(lab.DaemonURL(d))
	commit, data := lab.PushTask(tasktest.Capture("FAULT_AWAY_0003"))
	lab.Approve("FAULT_AWAY_0003", data, commit)
	file := lab.WriteResult(lab.Encode(lab.Ready("FAULT_AWAY_0003")))
	before := lab.Tip(tasktest.ResultBranch)
	stateBefore := readFile(t, lab.RX.StateDir()+"/"+state.RXStateFile)

	d.Stop()
	down := lab.RX.Run(faultkit.Wait, "rx", "publish-result", file)
	t.Logf("publish with the remote down:\n%s", down)
	if down.Code != 1 {
		t.Fatalf("publish with the remote down: want exit 1\n%s", down)
	}
	if tip := lab.Tip(tasktest.ResultBranch); tip != before {
		t.Fatalf("a failed publish moved the result branch to %s", tip)
	}
	if got := readFile(t, lab.RX.StateDir()+"/"+state.RXStateFile); got != stateBefore {
		t.Errorf("a failed publish changed the RX state:\n%s\nwas:\n%s", got, stateBefore)
	}

	// The remote dies in the middle of the push: a pre-receive hook kills
	// git daemon's whole process group (itself included) once.
	d.Start()
	t.Run("dies mid-push", func(t *testing.T) {
		gittest.InstallHook(t, lab.Remote, "pre-receive", "#!/bin/sh\n"+
			"if [ ! -e ./faultkit-died-once ]; then : > ./faultkit-died-once; kill -9 0; fi\nexit 0\n")
		mid := lab.RX.Run(faultkit.Wait, "rx", "publish-result", file)
		t.Logf("publish with the remote dying during the push:\n%s", mid)
		if mid.Code != 1 {
			t.Fatalf("publish with the remote dying during the push: want exit 1\n%s", mid)
		}
		if _, err := os.Stat(filepath.Join(lab.Remote.Dir, "faultkit-died-once")); err != nil {
			t.Fatalf("the push never reached the remote's hook: %v", err)
		}
		if tip := lab.Tip(tasktest.ResultBranch); tip != before {
			t.Fatalf("a push cut by the remote's death moved the result branch to %s", tip)
		}
		if got := readFile(t, lab.RX.StateDir()+"/"+state.RXStateFile); got != stateBefore {
			t.Errorf("a failed publish changed the RX state")
		}
	})
	if t.Failed() {
		t.FailNow()
	}

	d.Restart()
	up := lab.RX.Run(faultkit.Wait, "rx", "publish-result", file)
	if up.Code != 0 || !strings.Contains(up.Stdout, "published") {
		t.Fatalf("publish with the remote back: want exit 0\n%s", up)
	}
	again := lab.RX.Run(faultkit.Wait, "rx", "publish-result", file)
	if again.Code != 0 || !strings.Contains(again.Stdout, "already published") {
		t.Fatalf("publishing the same result again: want the identical no-op\n%s", again)
	}
	after := lab.Tip(tasktest.ResultBranch)
	if n := commitsBetween(t, lab, before, after); n != 1 {
		t.Errorf("%d commits added to the result branch, want exactly 1", n)
	}
	faultkit.CheckAuditChain(t, lab.RX.AuditPath())
}
