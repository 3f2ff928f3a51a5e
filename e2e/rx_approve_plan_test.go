package e2e

import (
	"strings"
	"testing"

	"rfhandoff/internal/rxtest"
	"rfhandoff/internal/tasktest"
	"rfhandoff/prompt"
)

// TestRxApproveShowsWhatWillRun: `rx approve` of a capture task shows,
// before [A], the capture the policy will run (frequency, rate, gains,
// amp, antenna power, duration, bytes, where, free space) and no [S] Stop
// watcher, as no watcher runs; the approval binds that plan, so a policy
// changed afterwards makes rx capture refuse naming the key, and rx
// approve and rx watch ask again, showing the new plan.
func TestRxApproveShowsWhatWillRun(t *testing.T) {
	t.Parallel()
	rx := rxtest.New(t, rxtest.Options{})
	rx.Policy.Capture.LNAGainDB, rx.Policy.Capture.VGAGainDB, rx.Policy.Limits.PlannedDurationS = 24, 30, 60
	rx.WritePolicy()
	rx.PushTask(tasktest.Capture("APPROVE_PLAN"))
	s := rxTerminal(t, rx, "rx", "approve")
	s.WaitForText(menu+" (nothing approved)", rxWait)
	tty := s.TTY.String()
	for _, want := range []string{"Frequency:     433.92 MHz", "Sample rate:   2 MHz", "LNA/VGA gain:  24 dB / 30 dB", "RF amp:        off",
		"Antenna power: off", "Duration:      60 s planned", "Writes:        240 MB (240000000 bytes, ci8) into " + rx.Policy.CaptureDir(), "Free there:    "} {
		if !strings.Contains(tty, want) {
			t.Errorf("the prompt lacks %q:\n%s", want, tty)
		}
	}
	if strings.Contains(tty, "Stop watcher") || strings.Index(tty, "Free there:") > strings.Index(tty, menu) {
		t.Errorf("[S] Stop watcher offered without a watcher, or the plan not before the menu:\n%s", tty)
	}
	s.Send("A")
	if code := exitOf(t, s); code != 0 {
		t.Fatalf("rx approve: exit %d\n%s\n%s", code, s.Stdout, s.Stderr)
	}
	if a := loadRX(t, rx).Approval; a == nil || a.Capture == nil || a.Capture.LNAGainDB != 24 || a.Capture.PlannedDurationS != 60 {
		t.Fatalf("approval does not bind the plan: %+v", a)
	}

	rx.Policy.Capture.VGAGainDB = 40
	rx.WritePolicy()
	code, _, errOut := rxMain(t, rx, "rx", "capture", "APPROVE_PLAN")
	if code == 0 || !strings.Contains(errOut, "capture.vga_gain_db: approved 30, now 40") || !strings.Contains(errOut, "rx approve") {
		t.Fatalf("rx capture after a policy change: exit %d\n%s", code, errOut)
	}
	s = rxTerminal(t, rx, "rx", "approve")
	s.WaitForText("LNA/VGA gain:  24 dB / 40 dB", rxWait)
	s.WaitForText(menu, rxWait)
	s.Send("D")
	if code := exitOf(t, s); code != 1 || !strings.Contains(s.Stdout.String(), "capture.vga_gain_db: approved 30, now 40") {
		t.Fatalf("rx approve after a policy change: exit %d\n%s\n%s", code, s.Stdout, s.Stderr)
	}
	// A watcher offers the task, approved with the old plan, again too.
	w := rxTerminal(t, rx, "rx", "watch")
	w.Stderr.WaitForText("task was approved with other capture parameters: offering it again", rxWait)
	w.WaitForText("LNA/VGA gain:  24 dB / 40 dB", rxWait)
	w.WaitForText(prompt.WatcherMenu, rxWait)
	w.Send("S")
	if code := exitOf(t, w); code != 0 {
		t.Fatalf("rx watch: exit %d\n%s", code, w.Stderr)
	}
}
