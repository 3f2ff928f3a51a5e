package e2e

import (
	"encoding/json"
	"strings"
	"syscall"
	"testing"

	"rfhandoff/internal/faultkit"
	"rfhandoff/internal/gittest"
	"rfhandoff/internal/tasktest"
	"rfhandoff/result"
	"rfhandoff/state"
)

// rxStatusJSON is the part of rx status --json's object this test reads.
type rxStatusJSON struct {
	CaptureRunning bool     `json:"capture_running"`
	State          state.RX `json:"state"`
}

// TestRxCaptureKilledRecoveryCommands: an rx capture SIGKILLed after READY
// leaves its hackrf_transfer to the parent-death signal and its record in
// the state. rx status shows the record; rx watch publishes the COMPLETE
// as it starts. When the publisher refuses the COMPLETE (the RX checkout's
// HEAD moved on: check 5; a task branch that moved on no longer stops it,
// PROTOCOL#publishing), rx capture starts nothing and names rx mark-completed,
// which drops the record.
func TestRxCaptureKilledRecoveryCommands(t *testing.T) {
	t.Parallel()
	lab := faultkit.NewLab(t)
	killAfterReady := func(id string) {
		t.Helper()
		commit, data := lab.PushTask(tasktest.Capture(id))
		lab.Approve(id, data, commit)
		s := lab.RX.Start("rx", "capture", id)
		s.Stderr.WaitForText("READY published", faultkit.Wait)
		s.Signal(syscall.SIGKILL)
		s.Wait(faultkit.Wait)
		faultkit.Eventually(t, faultkit.Wait, "the killed capture's hackrf_transfer to end on its own", func() bool {
			return len(faultkit.LiveProcsMentioning(lab.RX.Dir)) == 0
		})
	}
	status := func() (string, rxStatusJSON) {
		t.Helper()
		text := lab.RX.Run(faultkit.Wait, "rx", "status")
		js := lab.RX.Run(faultkit.Wait, "rx", "status", "--json")
		var s rxStatusJSON
		if text.Code != 0 || js.Code != 0 || json.Unmarshal([]byte(js.Stdout), &s) != nil {
			t.Fatalf("rx status:\n%s\n%s", text, js)
		}
		return text.Stdout, s
	}

	killAfterReady("RECOVER_CAP_01")
	text, js := status()
	if !strings.Contains(text, "capture:         RECOVER_CAP_01 in progress") || !strings.Contains(text, "gone without COMPLETE") ||
		js.CaptureRunning || js.State.CaptureInProgress == nil || js.State.CaptureInProgress.TaskID != "RECOVER_CAP_01" {
		t.Fatalf("rx status after the kill:\n%s\n%+v", text, js)
	}

	w := lab.RX.StartConsole("rx", "watch") // the task is approved: nothing to prompt for
	w.Stdout.WaitForText("recovered: the capture of RECOVER_CAP_01", faultkit.Wait)
	faultkit.WatcherUp(t, lab.RX, w.Pid(), false)
	w.Signal(syscall.SIGTERM)
	if st := w.Wait(faultkit.Wait); st.ExitCode() != 0 {
		t.Fatalf("rx watch: exit %d\n%s", st.ExitCode(), w.Stderr.String())
	}
	tip, err := result.Decode([]byte(faultkit.GitOut(t, lab, "show", "refs/heads/"+tasktest.ResultBranch+":"+tasktest.ResultPath)), result.Options{})
	if err != nil || tip.TaskID != "RECOVER_CAP_01" || tip.State != result.StateComplete || *tip.CaptureExitCode != -1 {
		t.Fatalf("result branch tip after rx watch: %+v %v", tip, err)
	}
	if text, js = status(); !strings.Contains(text, "capture:         -\n") || js.State.CaptureInProgress != nil {
		t.Fatalf("rx status after the recovery:\n%s", text)
	}

	killAfterReady("RECOVER_CAP_02")
	gittest.Git(t, lab.R, lab.RX.Dir, "commit", "--quiet", "--allow-empty", "-m", "the checkout moved on")
	before := lab.Tip(tasktest.ResultBranch)
	commit, data := lab.PushTask(tasktest.Capture("RECOVER_CAP_03"))
	lab.Approve("RECOVER_CAP_03", data, commit)
	out := lab.RX.Run(faultkit.Wait, "rx", "capture", "RECOVER_CAP_03")
	if out.Code != 1 || !strings.Contains(out.Stderr, "publisher refuses it") ||
		!strings.Contains(out.Stderr, "rfhandoff rx mark-completed RECOVER_CAP_02") {
		t.Fatalf("rx capture with an unrecoverable record: want exit 1 naming rx mark-completed\n%s", out)
	}
	if lab.Tip(tasktest.ResultBranch) != before {
		t.Fatal("a refused recovery changed the result branch")
	}
	if st, err := state.LoadRX(lab.RX.StateDir()); err != nil || st.CaptureInProgress == nil {
		t.Fatalf("record after the refusal: %+v, %v; want it kept", st.CaptureInProgress, err)
	}
	out = lab.RX.Run(faultkit.Wait, "rx", "mark-completed", "RECOVER_CAP_02")
	if out.Code != 0 || !strings.Contains(out.Stdout, "dropped the record of its capture in progress") {
		t.Fatalf("rx mark-completed:\n%s", out)
	}
	if text, _ = status(); !strings.Contains(text, "capture:         -\n") {
		t.Fatalf("rx status after rx mark-completed:\n%s", text)
	}
}
