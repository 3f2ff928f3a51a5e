package capture

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"rfhandoff/config"
	"rfhandoff/exec"
	"rfhandoff/internal/publishtest"
	"rfhandoff/localfile"
	"rfhandoff/publish"
	"rfhandoff/result"
	"rfhandoff/state"
)

// TestCaptureAbortLeavesNothing: a failure at any step before READY is on
// the remote leaves no hackrf_transfer running, no file in the capture
// directory (neither the samples nor a local READY), no capture_in_progress
// and nothing on the remote. Each step fails after doing its own work, so
// there is something to undo: readers running, the tool writing, the
// state recorded, the local READY written.
func TestCaptureAbortLeavesNothing(t *testing.T) {
	injected := errors.New("injected failure")
	tests := []struct {
		step    string
		err     error
		started bool // hackrf_transfer had been started
	}{
		{stepParams, injected, false},
		{stepFollow, injected, false},
		{stepFollowBehind, injected, false},
		{stepStarted, injected, true},
		{stepHead, injected, true},
		{stepRecord, injected, true},
		{stepPublish + string(result.StateReady), &publish.CheckError{Step: 1, Name: "injected", Err: injected}, true},
	}
	for _, tt := range tests {
		t.Run(tt.step, func(t *testing.T) {
			t.Parallel()
			// A long capture: only the abort can end the tool in time. The
			// tool takes 2 s to stop (slowstop) and the runner's own grace
			// after a cancelled context is 1 s: the abort's SIGINT and its
			// Grace must come before that context ends, or the tool would
			// be killed while it stops.
			w := newWorld(t, "slowstop", publishtest.Options{}, func(p *config.Policy) { p.Limits.PlannedDurationS = 600 },
				func(o *exec.Options) { o.Grace = time.Second })
			refs := w.Refs(t)
			var mu sync.Mutex
			var seen []string
			o := opts()
			o.fail = func(step string) error {
				mu.Lock()
				defer mu.Unlock()
				seen = append(seen, step)
				if step == tt.step {
					return tt.err
				}
				return nil
			}
			_, err := w.run(t, t.Context(), o)
			if !errors.Is(err, injected) {
				t.Fatalf("err = %v, want the failure injected at %s", err, tt.step)
			}
			mu.Lock()
			reached := slices.Contains(seen, tt.step)
			mu.Unlock()
			if !reached {
				t.Fatalf("the capture never reached step %s (steps seen: %q)", tt.step, seen)
			}

			// No process: every start of hackrf_transfer has its end in
			// the audit log (its exit was collected before run returned),
			// and its pid is gone.
			entries, err := exec.ReadAuditTail(w.Stack.AuditLog().Path(), 0)
			if err != nil {
				t.Fatal(err)
			}
			starts, ends := 0, 0
			for _, e := range entries {
				if e.Tool != exec.HackRFTransfer {
					continue
				}
				switch e.Event {
				case exec.EventStart:
					starts++
				case exec.EventEnd:
					ends++
					// Stopped by the abort's SIGINT (through the tool's
					// handler, or by the signal itself when it came before
					// the handler was installed), not killed when run's
					// context went.
					if clean := e.ExitCode != nil && *e.ExitCode == 0; !clean && e.Signal != "interrupt" {
						code := "none"
						if e.ExitCode != nil {
							code = fmt.Sprint(*e.ExitCode)
						}
						t.Errorf("hackrf_transfer ended with exit %s, signal %q; want it stopped by SIGINT", code, e.Signal)
					}
				}
				if e.Pid > 0 && localfile.PIDAlive(e.Pid) {
					t.Errorf("hackrf_transfer (pid %d) is still running", e.Pid)
				}
			}
			if starts != ends || (starts > 0) != tt.started {
				t.Errorf("hackrf_transfer: %d starts, %d ends; want it started: %v, and every start ended", starts, ends, tt.started)
			}

			// No stray file.
			dir := filepath.Join(w.Policy.CaptureDir(), publishtest.TaskID)
			files, err := os.ReadDir(dir)
			if err != nil && !errors.Is(err, os.ErrNotExist) {
				t.Fatal(err)
			}
			var names []string
			for _, f := range files {
				names = append(names, f.Name())
			}
			if len(names) > 0 {
				t.Errorf("left in %s: %s", dir, strings.Join(names, ", "))
			}
			st, err := state.LoadRX(w.StateDir)
			if err != nil {
				t.Fatal(err)
			}
			if st.CaptureInProgress != nil {
				t.Errorf("capture_in_progress left in the state: %+v", st.CaptureInProgress)
			}
			if got := w.Refs(t); got != refs {
				t.Errorf("remote refs changed:\n%s\n->\n%s", refs, got)
			}
		})
	}
}
