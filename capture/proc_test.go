package capture

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"log/slog"

	"rfhandoff/exec"
	"rfhandoff/hackrfcli"
)

// toolClient is a RoleCapture runner for the HackRF tools alone (no git, so
// it runs under Wine too), resolving them to the simulator TestMain put
// first on PATH.
func toolClient(t *testing.T, sim string) *hackrfcli.Client {
	t.Helper()
	audit, err := exec.OpenAuditLog(filepath.Join(t.TempDir(), "audit.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	st, err := exec.New(exec.Options{Role: exec.RoleCapture, Audit: audit, Environ: append(os.Environ(), "HACKRF_SIM="+sim),
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
	rcv, err := toolClient(t, "").StartReceive(context.WithoutCancel(t.Context()), hackrfcli.RxParams{
		FrequencyHz: 433_920_000, SampleRateHz: 2_000_000, NumSamples: 2_000_000 * 60, OutPath: path,
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	pid := rcv.Pid()
	ended := make(chan struct{})
	go func() { _, _ = rcv.Wait(); close(ended) }()
	t.Cleanup(func() { _ = rcv.Interrupt(); <-ended })
	start, ok := exec.ProcessStart(pid)
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

// TestWatchStopsTheTool: the capture's watch, against the simulator as
// hackrf_transfer and without git (so under Wine too), stops the tool
// through its interrupt (SIGINT; on Windows the Ctrl-C helper) when the
// file stalls and when rfhandoff is interrupted, and the tool ends on its
// own within the grace: no kill was needed. Interrupted, it exits 0; a
// stalled one exits 1 ("Couldn't transfer any bytes"), as the real one does.
func TestWatchStopsTheTool(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, sim string
		cancel    bool
		exit      int
		seconds   int64 // the stall comes at a third; an interrupt must end it, however slowly it arrives (Wine)
	}{
		{"stall", "stall", false, 1, 6},
		{"interrupted", "", true, 0, 600},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			path, _ := filepath.Abs(filepath.Join(t.TempDir(), "x"+DataSuffix))
			procCtx, kill := context.WithCancel(context.WithoutCancel(t.Context()))
			defer kill()
			const rate = 2_000_000
			started := now()
			rcv, err := toolClient(t, c.sim).StartReceive(procCtx, hackrfcli.RxParams{
				FrequencyHz: 433_920_000, SampleRateHz: rate, NumSamples: rate * c.seconds, OutPath: path,
			}, nil)
			if err != nil {
				t.Fatal(err)
			}
			s := &session{
				d:   Deps{Logger: slog.New(slog.NewTextHandler(t.Output(), nil))},
				o:   Options{Tick: 50 * time.Millisecond, StallAfter: 400 * time.Millisecond, Grace: 30 * time.Second},
				rep: &Report{DataPath: path, ProcessStarted: started},
				rcv: rcv, cancelProc: kill, exited: make(chan struct{}),
				prog: &progress{}, first: newFirstSample(rate, started),
			}
			go func() {
				s.res, s.waitErr = rcv.Wait()
				close(s.exited)
			}()
			// A capture is watched once its file grows (confirm), never
			// while a slow machine is still starting the tool.
			deadline := time.Now().Add(time.Minute)
			for st, err := os.Stat(path); err != nil || st.Size() == 0; st, err = os.Stat(path) {
				if time.Now().After(deadline) {
					t.Fatal("hackrf_transfer's file did not grow")
				}
				time.Sleep(20 * time.Millisecond)
			}
			ctx, cancel := context.WithCancelCause(t.Context())
			defer cancel(nil)
			if c.cancel {
				cancel(errors.New("test interrupt"))
			}
			end := s.watch(ctx)
			if end.stalled != !c.cancel || end.interrupted != c.cancel {
				t.Errorf("watch ended %+v", end)
			}
			if s.res.ExitCode != c.exit || s.res.Signal != "" || (c.exit == 0) != (s.waitErr == nil) {
				t.Errorf("hackrf_transfer ended with exit %d, signal %q, %v; want exit %d, not killed", s.res.ExitCode, s.res.Signal, s.waitErr, c.exit)
			}
			if st, err := os.Stat(path); err != nil || st.Size() == 0 || st.Size() >= 2*rate*c.seconds {
				t.Errorf("capture file after the stop: %v, %v; want one cut short", st, err)
			}
		})
	}
}
