package capture

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"rfhandoff/exec"
	"rfhandoff/hackrfcli"
	"rfhandoff/state"
)

// toolClient is an RX-role runner for the HackRF tools alone (no git, so
// it runs under Wine too), resolving them to the simulator TestMain put
// first on PATH.
func toolClient(t *testing.T) *hackrfcli.Client {
	t.Helper()
	audit, err := exec.OpenAuditLog(filepath.Join(t.TempDir(), "audit.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	st, err := exec.New(exec.Options{Role: exec.RoleRX, Audit: audit, Environ: append(os.Environ(), "HACKRF_SIM="),
		DefaultTimeout: 2 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.SplitList(os.Getenv("PATH"))[0]
	if p := st.Paths()[exec.HackRFTransfer]; filepath.Dir(p) != bin {
		t.Fatalf("hackrf_transfer resolved to %q, not the simulator in %s", p, bin)
	}
	return &hackrfcli.Client{R: st, Timeout: time.Minute}
}

// TestEndCaptureToolByStart: the recovery stops a recorded hackrf_transfer
// that is not its child only when the process under the pid started when
// the recorded one did. Another start is another process (a reused pid):
// it is left running and counts as the recorded tool having ended.
func TestEndCaptureToolByStart(t *testing.T) {
	t.Parallel()
	path, _ := filepath.Abs(filepath.Join(t.TempDir(), "x"+DataSuffix))
	rcv, err := toolClient(t).StartReceive(context.WithoutCancel(t.Context()), hackrfcli.RxParams{
		FrequencyHz: 433_920_000, SampleRateHz: 2_000_000, NumSamples: 2_000_000 * 60, OutPath: path,
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	pid := rcv.Pid()
	ended := make(chan struct{})
	go func() { _, _ = rcv.Wait(); close(ended) }()
	t.Cleanup(func() { _ = rcv.Interrupt(); <-ended })
	start, ok := state.ProcessStart(pid)
	deadline := time.Now().Add(time.Minute)
	for st, err := os.Stat(path); err != nil || st.Size() == 0; st, err = os.Stat(path) {
		if time.Now().After(deadline) {
			t.Fatal("hackrf_transfer's file did not grow")
		}
		time.Sleep(20 * time.Millisecond)
	}
	ctx := t.Context()
	log := func(msg string, args ...any) { t.Log(append([]any{msg}, args...)...) }
	if ok {
		end, err := endCaptureTool(ctx, pid, start+1, path, 200*time.Millisecond, log)
		if err != nil || end.wasRunning || !strings.Contains(end.how, "had already ended") {
			t.Fatalf("another start: %+v, %v", end, err)
		}
		if !isCaptureTool(pid, path) {
			t.Fatal("a process with another start was stopped")
		}
	} else {
		t.Log("no process start on this system: the pid is checked without one")
	}
	end, err := endCaptureTool(ctx, pid, start, path, 200*time.Millisecond, log)
	if err != nil || !end.wasRunning || !strings.Contains(end.how, "stopped with "+stopSteps[0].name) {
		t.Fatalf("its own start: %+v, %v", end, err)
	}
	select {
	case <-ended:
	case <-time.After(time.Minute):
		t.Fatal("hackrf_transfer still runs after it was stopped")
	}
	end, err = endCaptureTool(ctx, pid, start, path, 200*time.Millisecond, log)
	if err != nil || end.wasRunning {
		t.Fatalf("after it ended: %+v, %v", end, err)
	}
}
