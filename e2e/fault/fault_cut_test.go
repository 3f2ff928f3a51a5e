package fault

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"syscall"
	"testing"

	"rfhandoff/gate"
	"rfhandoff/internal/faultkit"
	"rfhandoff/internal/tasktest"
	"rfhandoff/state"
)

// bigBlob is incompressible text far larger than the proxy's cut.
// bigTree is files enough that the commit's tree alone (what a blobless
// poll fetches, 20 incompressible bytes of object ID per entry) is far
// bigger than the cut.
func bigTree(prefix string, files map[string]string) map[string]string {
	for i := range 3000 {
		files[fmt.Sprintf("%s/%04d.hex", prefix, i)] = fmt.Sprintf("%d\n", i)
	}
	return files
}

func bigBlob(t *testing.T) string {
	t.Helper()
	b := make([]byte, 128<<10)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}

// Invariant: a connection cut in the middle of a fetch leaves no partial
// ref (the tracking ref stays where it was), the watcher lives on, and the
// same update arrives whole once the network works again.
func TestFaultConnectionCutMidFetch(t *testing.T) {
	t.Parallel()
	t.Run("rx watch", func(t *testing.T) {
		t.Parallel()
		lab := faultkit.NewLab(t)
		d := lab.StartDaemon()
		p := faultkit.StartProxy(t, d.Addr())
		lab.RX.SetRemoteURL(p.URL("remote.git"))
		w := lab.RX.Start("rx", "watch")
		faultkit.WatcherUp(t, lab.RX, w.Pid(), false)
		faultkit.WaitFetches(t, lab.RX, "a successful fetch through the proxy", 1, faultkit.Call.OK)
		old := lab.RX.TrackingRef(tasktest.TaskBranch)

		p.CutAfter(16 << 10)
		// One commit with the task, a blob and a tree far bigger than the cut.
		data := []byte(tasktest.TaskFile(tasktest.TaskSpec{ID: "FAULT_CUT_0001", Level: gate.Yellow, ExpectedHead: lab.Base}))
		commit := lab.PushFiles(tasktest.TaskBranch, bigTree("docs/firmware", map[string]string{
			tasktest.TaskPath: string(data), "docs/firmware.hex": bigBlob(t)}))
		faultkit.WaitFetches(t, lab.RX, "two fetches cut by the proxy", 2, faultkit.Call.Failed)
		if p.Cuts.Load() == 0 {
			t.Fatal("the proxy cut nothing: the test did not test a cut")
		}
		if got := lab.RX.TrackingRef(tasktest.TaskBranch); got != old {
			t.Fatalf("a cut fetch moved the tracking ref from %s to %s", old, got)
		}
		if st, err := state.LoadRX(lab.RX.StateDir()); err != nil || st.LastSeenTaskID != "" {
			t.Fatalf("after cut fetches: state %+v, %v; want nothing seen", st, err)
		}
		if w.Exited() {
			t.Fatalf("rx watch died on a cut connection\nstderr:\n%s", w.Stderr.String())
		}

		p.CutAfter(0)
		w.Stderr.WaitFor(faultkit.TaskAwaits("FAULT_CUT_0001"), faultkit.Wait)
		if got := lab.RX.TrackingRef(tasktest.TaskBranch); got != commit {
			t.Errorf("after the network came back the tracking ref is %s, want %s", got, commit)
		}
		w.Signal(syscall.SIGTERM)
		if st := w.Wait(faultkit.Wait); st.ExitCode() != 0 {
			t.Errorf("rx watch after SIGTERM: exit %d", st.ExitCode())
		}
		st, err := state.LoadRX(lab.RX.StateDir())
		if err != nil {
			t.Fatal(err)
		}
		if st.LastSeenTaskID != "FAULT_CUT_0001" || st.SeenTaskDigests["FAULT_CUT_0001"] != faultkit.SHA256Hex(data) {
			t.Errorf("state after recovery: last seen %q digest %q", st.LastSeenTaskID, st.SeenTaskDigests["FAULT_CUT_0001"])
		}
		faultkit.CheckAuditChain(t, lab.RX.AuditPath())
	})
	t.Run("tx watch", func(t *testing.T) {
		t.Parallel()
		lab := faultkit.NewLab(t)
		lab.PushTask(tasktest.Capture("FAULT_CUT_0002"))
		d := lab.StartDaemon()
		p := faultkit.StartProxy(t, d.Addr())
		lab.Main.SetRemoteURL(p.URL("remote.git"))
		w := lab.Main.Start("tx", "watch")
		faultkit.WatcherUp(t, lab.Main, w.Pid(), true)
		faultkit.WaitFetches(t, lab.Main, "a successful fetch through the proxy", 1, faultkit.Call.OK)
		old := lab.Main.TrackingRef(tasktest.ResultBranch)

		p.CutAfter(16 << 10)
		commit := lab.PushFiles(tasktest.ResultBranch, bigTree("docs/notes", map[string]string{
			tasktest.ResultPath: string(lab.Encode(lab.Ready("FAULT_CUT_0002"))), "docs/notes.hex": bigBlob(t)}))
		faultkit.WaitFetches(t, lab.Main, "two fetches cut by the proxy", 2, faultkit.Call.Failed)
		if p.Cuts.Load() == 0 {
			t.Fatal("the proxy cut nothing: the test did not test a cut")
		}
		if got := lab.Main.TrackingRef(tasktest.ResultBranch); got != old {
			t.Fatalf("a cut fetch moved the tracking ref from %s to %s", old, got)
		}
		if w.Exited() {
			t.Fatalf("tx watch died on a cut connection\nstdout:\n%s", w.Stdout.String())
		}

		p.CutAfter(0)
		w.Stdout.WaitForText("READY result for task FAULT_CUT_0002 awaiting authorization", faultkit.Wait)
		if got := lab.Main.TrackingRef(tasktest.ResultBranch); got != commit {
			t.Errorf("after the network came back the tracking ref is %s, want %s", got, commit)
		}
		w.Signal(syscall.SIGTERM)
		if st := w.Wait(faultkit.Wait); st.ExitCode() != 0 {
			t.Errorf("tx watch after SIGTERM: exit %d", st.ExitCode())
		}
		if _, err := state.LoadTX(lab.Main.StateDir()); err != nil {
			t.Fatal(err)
		}
		faultkit.CheckAuditChain(t, lab.Main.AuditPath())
	})
}
