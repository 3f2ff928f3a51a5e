package config

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

// PROTOCOL#policy-file: the [sync] keys are validated like every other key:
// file, key, value, cause and fix, every reason at once.
func TestSyncKeys(t *testing.T) {
	p, err := Parse([]byte("[sync]\nmin_lead_s = 2\nmax_host_clock_bound_s = 1\npps_arm_margin_s = 0.9\npps_error_s = 0.00000005\nallowed_modes = [\"PPS\"]\n"), "rx.toml")
	if err != nil {
		t.Fatal(err)
	}
	if want := (Sync{MinLeadS: 2, MaxHostClockBoundS: 1, PPSArmMarginS: 0.9, PPSErrorS: 5e-8, AllowedModes: []string{"PPS"}}); !reflect.DeepEqual(p.Sync, want) {
		t.Errorf("Sync = %+v, want %+v", p.Sync, want)
	}
	if p, err := Parse([]byte("[sync]\nallowed_modes = []\n"), "rx.toml"); err != nil || len(p.Sync.AllowedModes) != 0 || p.Sync.MinLeadS != 30 {
		t.Errorf("allowed_modes = []: %+v, %v", p.Sync, err)
	}

	doc := "[sync]\nmin_lead_s = 1\nmax_host_clock_bound_s = 0\npps_arm_margin_s = 1.0\npps_error_s = 0.002\nallowed_modes = [\"PPS\", \"pps\", \"PPS\"]\nlead_s = 3\n"
	_, err = Parse([]byte(doc), "rx.toml")
	errs := problemsOf(t, err, "rx.toml")
	for _, want := range []string{
		"sync.min_lead_s = 1: must be 2 to 3600 (seconds START_AT must be ahead",
		"sync.max_host_clock_bound_s = 0: must be from 1e-06 to 1 seconds",
		"sync.pps_arm_margin_s = 1: must be from 0.1 to 0.9 seconds: PPS arms inside the one second before the START_AT edge",
		"sync.pps_error_s = 0.002: must be from 0 to 0.001 seconds: the 1PPS edge's own error from true time",
		`sync.allowed_modes = [PPS pps PPS]: holds "pps": each must be HOST_CLOCK or PPS`,
		`sync.allowed_modes = [PPS pps PPS]: names "PPS" twice`,
		"unknown key sync.lead_s",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("refusal lacks %q:\n%v", want, err)
		}
	}
	if len(errs) != 7 {
		t.Errorf("%d problems, want 7: %q", len(errs), errs)
	}
}

// PROTOCOL#main-pc: limits.max_alignment_bound_s is validated like every
// other key, and its default passes what the RX defaults accept.
func TestMaxAlignmentBoundKey(t *testing.T) {
	p, err := Parse([]byte("[limits]\nmax_alignment_bound_s = 0.000001\n"), "main.toml")
	if err != nil || p.Limits.AlignmentBound() != time.Microsecond {
		t.Fatalf("0.000001: %v, %v", p.Limits.AlignmentBound(), err)
	}
	// An RX node calls a HOST_CLOCK capture aligned only when its bound
	// (the clock's plus one USB block) and its miss fit its
	// sync.max_host_clock_bound_s (capture/align.go): that default, and a
	// PPS bound (one sample period and the 1PPS error), must pass.
	rx := time.Duration(Default().Sync.MaxHostClockBoundS * 1e9)
	if got := Default().Limits.AlignmentBound(); got != 100*time.Millisecond || got < rx {
		t.Errorf("default %v, want 100ms, at least the RX default's %v", got, rx)
	}
	for _, v := range []string{"0", "1.5", "-0.1", "nan", "inf"} {
		_, err := Parse([]byte("[limits]\nmax_alignment_bound_s = "+v+"\n"), "main.toml")
		errs := problemsOf(t, err, "main.toml")
		if len(errs) != 1 || !strings.Contains(err.Error(), "limits.max_alignment_bound_s = ") ||
			!strings.Contains(err.Error(), "must be from 1e-06 to 1 seconds") {
			t.Errorf("%s: %d problems: %v", v, len(errs), err)
		}
	}
}
