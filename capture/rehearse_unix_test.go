//go:build !windows

package capture

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"rfhandoff/captureplan"
	"rfhandoff/exec"
	"rfhandoff/internal/publishtest"
)

// TestCaptureRehearsalFails: a board another program holds answers the
// rehearsal as the real hackrf_transfer does (hackrf_open() failed, exit
// 1; hackrf_info and hackrf_clock stay the simulator's, as a board busy
// only from then would). The capture is refused with the tool's words
// before anything arms: one start, the rehearsal's; no result; neither
// the capture's file nor the rehearsal's left.
func TestCaptureRehearsalFails(t *testing.T) {
	t.Parallel()
	busy := filepath.Join(t.TempDir(), "hackrf_transfer")
	script := "#!/bin/sh\necho 'hackrf_open() failed: HackRF busy (-6)' >&2\nexit 1\n"
	if err := os.WriteFile(busy, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	w, _ := scheduledWorld(t, captureplan.SyncPPS, 20*time.Second, nil, simEnv("HACKRF_SIM_TRIGGER=pps"),
		func(o *exec.Options) { o.Tools[exec.HackRFTransfer] = busy })
	refs := w.Refs(t)
	_, err := w.run(t, t.Context(), opts())
	if err == nil || !strings.Contains(err.Error(), "the start-up rehearsal") || !strings.Contains(err.Error(), "nothing was captured") {
		t.Fatalf("err = %v, want the failed rehearsal named", err)
	}
	t.Logf("refused: %v", err)
	if n := len(w.auditStarts(t, exec.HackRFTransfer)); n != 1 {
		t.Errorf("hackrf_transfer started %d times, want once (the rehearsal)", n)
	}
	if w.Refs(t) != refs {
		t.Error("something was published")
	}
	data := filepath.Join(w.Policy.CaptureDir(), publishtest.TaskID, publishtest.TaskID+DataSuffix)
	for _, p := range []string{data, data + rehearsalSuffix} {
		if _, err := os.Lstat(p); !os.IsNotExist(err) {
			t.Errorf("%s is left: %v", p, err)
		}
	}
}
