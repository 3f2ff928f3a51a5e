package main

import (
	"path/filepath"
	"strings"
	"testing"

	"rfhandoff/state"
)

// TestCaptureLine: rx status tells a finished capture whose COMPLETE is
// saved but unpublished from one in progress, says why and where the
// COMPLETE is, and suggests no command that cannot work.
func TestCaptureLine(t *testing.T) {
	data := filepath.FromSlash("/srv/cap/T_003/T_003.sigmf-data")
	saved := filepath.Join(filepath.Dir(data), "RX_RESULT.json")
	rec := func(f func(*state.CaptureInProgress)) *state.CaptureInProgress {
		r := &state.CaptureInProgress{TaskID: "T_003", DataPath: data, CapturePID: 7, RfhandoffPID: 8, ReadyPublished: true}
		if f != nil {
			f(r)
		}
		return r
	}
	done := func(r *state.CaptureInProgress) { r.CompleteSHA256 = strings.Repeat("a", 64) }
	tests := []struct {
		name    string
		r       *state.CaptureInProgress
		running bool
		want    []string
		not     []string
	}{
		{"live", rec(nil), true, []string{"T_003 in progress", "holds the capture lock"}, []string{"finished", "simulated"}},
		{"live, simulated", rec(func(r *state.CaptureInProgress) { r.Simulated = true }), true,
			[]string{"T_003 in progress", "(simulated: rfhandoff's HackRF simulator, no radio)"}, []string{"finished"}},
		{"finished, simulated", rec(func(r *state.CaptureInProgress) { done(r); r.Simulated = true }), false,
			[]string{"T_003 finished", "(simulated: rfhandoff's HackRF simulator, no radio)"}, []string{"in progress"}},
		{"died", rec(nil), false, []string{"in progress", "gone without COMPLETE"}, []string{"finished"}},
		{"finished, publishing", rec(done), true, []string{"T_003 finished, COMPLETE saved at " + saved, "publishing it"}, []string{"in progress"}},
		{"finished, push failed", rec(func(r *state.CaptureInProgress) { done(r); r.CompleteError = "push: connection refused" }), false,
			[]string{"finished", "unpublished: push: connection refused", "tries again"}, []string{"in progress", "publish-result"}},
		{"finished, refused", rec(func(r *state.CaptureInProgress) {
			done(r)
			r.CompleteError, r.CompleteRefused = "check 5 (source head): source_head is x", true
		}), false, []string{"finished", "refuses it (check 5", "rx mark-completed T_003"}, []string{"in progress", "publish-result", "tries again"}},
	}
	for _, tt := range tests {
		got := captureLine(tt.r, tt.running)
		for _, w := range tt.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: %q lacks %q", tt.name, got, w)
			}
		}
		for _, n := range tt.not {
			if strings.Contains(got, n) {
				t.Errorf("%s: %q holds %q", tt.name, got, n)
			}
		}
	}
}

// TestLastResultLine: rx status names the last capture's kept result and
// says when the simulator made it.
func TestLastResultLine(t *testing.T) {
	for _, tt := range []struct {
		r    *lastResult
		want string
	}{
		{nil, "-"},
		{&lastResult{TaskID: "T_003", State: "CAPTURE_COMPLETE"}, "T_003 CAPTURE_COMPLETE"},
		{&lastResult{TaskID: "T_003", State: "RX_READY_FOR_TX", Simulated: true}, "T_003 RX_READY_FOR_TX (simulated: rfhandoff's HackRF simulator, no radio)"},
	} {
		if got := lastResultLine(tt.r); got != tt.want {
			t.Errorf("lastResultLine(%+v) = %q, want %q", tt.r, got, tt.want)
		}
	}
}
