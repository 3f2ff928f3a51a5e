package e2e

import (
	"os"
	"strings"
	"testing"
	"time"

	"rfhandoff/config"
	"rfhandoff/internal/rxtest"
	"rfhandoff/internal/tasktest"
	"rfhandoff/internal/txtest"
)

// A 15 s planned duration leaves no room for the default transmission
// (tx.duration_s 10 + limits.min_remaining_s 10), keys only the MAIN side
// uses. The RX commands work with such a policy (rx capture too: its tests
// run with it, see newCaptureSide); config check reports the mismatch; tx
// watch and tx execute refuse it.
func TestMainOnlyKeysDoNotStopTheRXSide(t *testing.T) {
	t.Parallel()
	rx := rxtest.New(t, rxtest.Options{})
	rx.Policy.Limits.PlannedDurationS = 15
	rx.WritePolicy()
	rx.PushTask(tasktest.TaskSpec{ID: "SIDES_0001", HardwareAccess: true, RFRX: true})
	if code, out, errs := rxMain(t, rx, "rx", "check"); code != 10 {
		t.Fatalf("rx check: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	s := rxTerminal(t, rx, "rx", "approve", "SIDES_0001")
	s.WaitForText(menu, rxWait)
	s.Send("A")
	if code := exitOf(t, s); code != 0 {
		t.Fatalf("rx approve: exit %d\nstdout:\n%s\nstderr:\n%s", code, s.Stdout, s.Stderr)
	}
	if st := loadRX(t, rx); st.LastApprovedTaskID != "SIDES_0001" {
		t.Fatalf("rx approve did not record the approval: %+v", st)
	}

	code, out, errs := rxMain(t, rx, "config", "check")
	if code != 0 || !strings.Contains(out, "planned_duration_s = 15") {
		t.Fatalf("config check: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	for _, want := range []string{"warning: policy " + rx.PolicyFile + ": tx watch and tx execute refuse it",
		"tx.duration_s = 10: plus limits.min_remaining_s (10) exceeds limits.planned_duration_s (15)"} {
		if !strings.Contains(errs, want) {
			t.Errorf("config check stderr lacks %q:\n%s", want, errs)
		}
	}
}

func TestMainOnlyKeysThatDoNotFitStopTheMAINSide(t *testing.T) {
	t.Parallel()
	s := newTxSide(t, "")
	body := s.f.PolicyTOML("")
	tight := strings.Replace(body, "planned_duration_s = 600", "planned_duration_s = 15", 1)
	if tight == body {
		t.Fatal("the fixture policy has no planned_duration_s = 600")
	}
	if err := os.WriteFile(s.policy, []byte(tight), 0o600); err != nil {
		t.Fatal(err)
	}
	var err error
	if s.pol, err = config.Load(s.policy); err != nil {
		t.Fatalf("Load refused a policy only the MAIN side cannot use: %v", err)
	}
	s.f.Publish(t, txtest.Ready(time.Now()))
	const why = "tx.duration_s = 10: plus limits.min_remaining_s (10) exceeds limits.planned_duration_s (15)"

	w := s.detached(t, "tx", "watch")
	if code := exitStatus(t, w.Wait(txWait)); code != 1 || !strings.Contains(w.Stderr.String(), why) {
		t.Fatalf("tx watch: exit %d, stderr:\n%s", code, w.Stderr)
	}
	if files := s.authFiles(t); len(files) != 0 {
		t.Fatalf("authorization dir holds %v", files)
	}

	// A record made under an earlier policy: step 1 refuses it before the
	// phrase is asked for, and nothing is used or run.
	record := s.writeRecord(t, strings.Repeat("a", 40), strings.Repeat("b", 64), time.Now().Add(10*time.Minute))
	x := s.start(t, "tx", "execute", record)
	if code := exitStatus(t, x.Wait(txWait)); code != 1 || !strings.Contains(x.Stderr.String(), why) {
		t.Fatalf("tx execute: exit %d, stderr:\n%s", code, x.Stderr)
	}
	if strings.Contains(x.TTY.String(), "AUTHORIZE RF TX") {
		t.Errorf("tx execute asked for the phrase under a policy it refuses:\n%s", x.TTY)
	}
	if files := s.authFiles(t); len(files) != 1 || s.hackrfStarts(t) != 0 {
		t.Fatalf("authorization dir holds %v, hackrf_transfer starts %d", files, s.hackrfStarts(t))
	}
}
