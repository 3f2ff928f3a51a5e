package captureplan

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func testPlan() Plan {
	return Plan{FrequencyHz: 433_920_000, SampleRateHz: 2_000_000, LNAGainDB: 16, VGAGainDB: 20,
		PlannedDurationS: 120, Dir: filepath.FromSlash("/srv/rx/captures"), FreeMarginBytes: 1 << 30}
}

func TestCapturePlanChangesNameTheKey(t *testing.T) {
	a := testPlan()
	if c := a.Changes(a); len(c) != 0 {
		t.Fatalf("same plan: %q", c)
	}
	b := a
	b.LNAGainDB, b.PlannedDurationS, b.Amp = 24, 3600, true
	got := strings.Join(a.Changes(b), "\n")
	for _, want := range []string{"capture.lna_gain_db: approved 16, now 24", "limits.planned_duration_s: approved 120, now 3600", "capture.amp: approved false, now true"} {
		if !strings.Contains(got, want) {
			t.Errorf("changes lack %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "frequency") {
		t.Errorf("an unchanged key is named:\n%s", got)
	}
}

func TestCapturePlanSpace(t *testing.T) {
	p := testPlan() // 480 MB + 1 GiB
	if err := p.CheckSpace(p.Bytes() + p.FreeMarginBytes); err != nil {
		t.Fatalf("exactly enough: %v", err)
	}
	err := p.CheckSpace(p.Bytes() + p.FreeMarginBytes - 1)
	var se *spaceError
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "capture.free_margin_mb") || !strings.Contains(err.Error(), p.Dir) {
		t.Fatalf("one byte short: %v", err)
	}
	lines := strings.Join(p.Describe(100e6, nil), "\n")
	for _, want := range []string{"433.92 MHz", "2 MHz", "16 dB / 20 dB", "RF amp:        off", "Antenna power: off", "120 s", "480 MB (480000000 bytes", "NOT ENOUGH"} {
		if !strings.Contains(lines, want) {
			t.Errorf("Describe lacks %q:\n%s", want, lines)
		}
	}
}

// A plan whose values came from the task says so where the operator reads
// it, in its changes and in the advice of a space refusal.
func TestCapturePlanFromTask(t *testing.T) {
	p := testPlan()
	p.FrequencyHz, p.PlannedDurationS = 868_000_000, 30
	p.Task = &Task{FrequencyHz: 868_000_000, DurationS: 30}
	lines := strings.Join(p.Describe(1e12, nil), "\n")
	for _, want := range []string{"868 MHz (task CAPTURE_FREQUENCY_HZ = 868000000)", "2 MHz (capture.sample_rate_hz = 2000000)", "30 s planned (task CAPTURE_DURATION_S)"} {
		if !strings.Contains(lines, want) {
			t.Errorf("Describe lacks %q:\n%s", want, lines)
		}
	}
	b := p
	b.PlannedDurationS = 40
	if got := strings.Join(p.Changes(b), "\n"); got != "task CAPTURE_DURATION_S: approved 30, now 40" {
		t.Errorf("changes: %q", got)
	}
	err := p.CheckSpace(p.Bytes())
	if err == nil || !strings.Contains(err.Error(), "a task (a new TASK_ID) with a lower CAPTURE_DURATION_S") || strings.Contains(err.Error(), "limits.planned_duration_s") {
		t.Errorf("space refusal of a task's plan: %v", err)
	}
	if err := testPlan().CheckSpace(0); err == nil || !strings.Contains(err.Error(), "lower limits.planned_duration_s") {
		t.Errorf("space refusal of the policy's plan: %v", err)
	}
	if (Task{}).IsZero() != true || (Task{DurationS: 1}).IsZero() {
		t.Error("IsZero")
	}
}

// A scheduled plan shows its start in UTC and local time and its mode
// with this node's limit, and binds them: another START_AT, mode or limit
// is a change naming the field or key.
func TestCapturePlanSync(t *testing.T) {
	at := time.Date(2026, 12, 2, 20, 0, 0, 0, time.UTC)
	p := testPlan()
	p.Dir = t.TempDir() // absolute on every platform, unlike /srv on Windows
	p.Sync = &Sync{StartAt: at, Mode: SyncPPS, PPSArmMarginS: 0.3, PPSErrorS: 5e-8}
	lines := strings.Join(p.Describe(1e12, nil), "\n")
	for _, want := range []string{
		"Starts at:     2026-12-02T20:00:00Z (local " + at.Local().Format("2006-01-02 15:04:05 MST") + ") (task START_AT)",
		"Sync mode:     PPS: arms hackrf_transfer -H 0.3 s before that 1PPS edge (sync.pps_arm_margin_s), the edge within 5e-08 s of true time (sync.pps_error_s) (task SYNC_MODE)",
	} {
		if !strings.Contains(lines, want) {
			t.Errorf("Describe lacks %q:\n%s", want, lines)
		}
	}
	h := testPlan()
	h.Sync = &Sync{StartAt: at, Mode: SyncHostClock, MaxHostClockBoundS: 0.01}
	if lines := strings.Join(h.Describe(1e12, nil), "\n"); !strings.Contains(lines, "HOST_CLOCK: a clock error bound over 0.01 s is refused (sync.max_host_clock_bound_s)") {
		t.Errorf("HOST_CLOCK lines:\n%s", lines)
	}
	if lines := strings.Join(testPlan().Describe(1e12, nil), "\n"); strings.Contains(lines, "Starts at") || strings.Contains(lines, "Sync mode") {
		t.Errorf("an unscheduled plan shows a start:\n%s", lines)
	}

	later := p
	s := *p.Sync
	s.StartAt = at.Add(time.Second)
	later.Sync = &s
	if got := strings.Join(p.Changes(later), "\n"); got != "task START_AT: approved 2026-12-02T20:00:00Z, now 2026-12-02T20:00:01Z" {
		t.Errorf("another START_AT: %q", got)
	}
	if got := strings.Join(p.Changes(h), "\n"); !strings.Contains(got, "task SYNC_MODE: approved PPS, now HOST_CLOCK") ||
		!strings.Contains(got, "sync.pps_arm_margin_s: approved 0.3, now 0") || !strings.Contains(got, "sync.pps_error_s: approved 5e-08, now 0") {
		t.Errorf("another mode: %q", got)
	}
	if got := strings.Join(testPlan().Changes(p), "\n"); !strings.Contains(got, "task START_AT: approved none, now 2026-12-02T20:00:00Z") {
		t.Errorf("an unscheduled approval: %q", got)
	}
	if c := p.Changes(p); len(c) != 0 {
		t.Errorf("same plan: %q", c)
	}
	// The JSON the approval stores: without a schedule exactly as before.
	js, _ := json.Marshal(testPlan())
	if strings.Contains(string(js), "sync") || strings.Contains(string(js), "start_at") {
		t.Errorf("an unscheduled plan's JSON: %s", js)
	}
	js, _ = json.Marshal(p)
	if !strings.Contains(string(js), `"sync":{"start_at":"2026-12-02T20:00:00Z","mode":"PPS","pps_arm_margin_s":0.3,"pps_error_s":5e-8}`) {
		t.Errorf("a scheduled plan's JSON: %s", js)
	}
	if errs := p.Validate("capture", nil); errs != nil {
		t.Errorf("valid: %v", errs)
	}
	bad := p
	bad.Sync = &Sync{StartAt: at.Add(time.Millisecond), Mode: "GPS"}
	if errs := bad.Validate("capture", nil); len(errs) != 1 || !strings.Contains(errs[0].Error(), `capture.sync: start_at 2026-12-02T20:00:00.001Z must be a whole second, and mode "GPS" must be HOST_CLOCK or PPS`) {
		t.Errorf("invalid sync: %v", errs)
	}
}
