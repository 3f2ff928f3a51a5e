package tasknew_test

import (
	"errors"
	"io/fs"
	"os"
	"strings"
	"testing"
	"time"

	"rfhandoff/internal/gittest"
	"rfhandoff/internal/tasktest"
	"rfhandoff/result"
)

// TestRefusedDuringALiveCapture: while the result branch shows a READY
// without COMPLETE for the task on the task branch, task new refuses
// without --force, naming that task and when its capture ends; --force
// writes it.
func TestRefusedDuringALiveCapture(t *testing.T) {
	t.Parallel()
	rem, w := mainCheckout(t)
	base := gittest.Tip(t, rem, taskBranch)
	spec := tasktest.Capture("LIVE_TASK_003")
	spec.ExpectedHead = base
	gittest.Seed(t, rem, taskBranch, map[string]string{w.Policy.Repo.TaskFile: tasktest.TaskFile(spec)})
	now := time.Now().UTC().Truncate(time.Millisecond)
	ready := tasktest.Ready("LIVE_TASK_003", base, w.Policy, now, 10*time.Second)
	data, err := result.Encode(ready)
	if err != nil {
		t.Fatal(err)
	}
	commit := gittest.Seed(t, rem, "rx-node", map[string]string{"docs/handoff/results/RX_RESULT.json": string(data)})
	ends := ready.CaptureStartedAt.Add(time.Duration(ready.PlannedDurationS) * time.Second).UTC().Format(time.RFC3339)

	_, err = w.Write(t.Context(), request("NEXT_TASK_004", "Next"))
	got := reasons(t, err)
	if len(got) != 1 || !strings.Contains(got[0], "task LIVE_TASK_003 is capturing: READY at commit "+commit) ||
		!strings.Contains(got[0], "its capture ends at "+ends) || !strings.Contains(got[0], "--force") {
		t.Fatalf("reasons %q, want the live capture of LIVE_TASK_003 ending at %s", got, ends)
	}
	path := w.Policy.Resolve(w.Policy.Repo.TaskFile)
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the refused task new left %s: %v", path, err)
	}
	req := request("NEXT_TASK_004", "Next")
	req.Force = true
	if _, err := w.Write(t.Context(), req); err != nil {
		t.Fatalf("with --force: %v", err)
	}
	if data, err := os.ReadFile(path); err != nil || !strings.Contains(string(data), "TASK_ID = NEXT_TASK_004") {
		t.Fatalf("with --force, %s holds %q (%v)", path, data, err)
	}
}

// TestRFTXExplained: a task with RF_TX = YES is written with what that
// means (the receiver transmits; rx capture refuses it) and what a capture
// while the MAIN PC transmits uses instead; a task without it says nothing.
func TestRFTXExplained(t *testing.T) {
	t.Parallel()
	_, w := mainCheckout(t)
	req := request("RF_TX_TASK_001", "Transmit")
	req.Spec.HardwareAccess, req.Spec.RFTX = true, true
	req.Spec.Body = ""
	out, err := w.Write(t.Context(), req)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	out.Print(&b, "origin", taskBranch)
	for _, want := range []string{"RX node itself transmits", "RED", "AUTHORIZE RF TX", "rx capture refuses it", "does not set it", "--rf-rx"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("task new --rf-tx output lacks %q:\n%s", want, b.String())
		}
	}
	req = request("RF_RX_TASK_002", "Receive")
	req.Force = true
	out, err = w.Write(t.Context(), req)
	if err != nil {
		t.Fatal(err)
	}
	b.Reset()
	out.Print(&b, "origin", taskBranch)
	if strings.Contains(b.String(), "rf_tx:") {
		t.Errorf("a task without RF_TX explains it:\n%s", b.String())
	}
}
