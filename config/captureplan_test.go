package config

import (
	"strings"
	"testing"
	"time"

	"rfhandoff/captureplan"
)

// PROTOCOL#task-file: a task's CAPTURE_* values are what the node captures;
// the policy keeps the rest, and its ranges refuse what lies outside them.
func TestCapturePlanForTask(t *testing.T) {
	p := Default()
	// No capture fields: the policy's plan, exactly.
	if got, err := p.CapturePlanFor(captureplan.Task{}); err != nil || got != p.CapturePlan() || got.Task != nil {
		t.Fatalf("zero task: %+v, %v; want %+v", got, err, p.CapturePlan())
	}
	tc := captureplan.Task{FrequencyHz: 868_000_000, SampleRateHz: 10_000_000, DurationS: 30}
	got, err := p.CapturePlanFor(tc)
	if err != nil {
		t.Fatal(err)
	}
	if got.FrequencyHz != tc.FrequencyHz || got.SampleRateHz != tc.SampleRateHz || got.PlannedDurationS != tc.DurationS ||
		got.Task == nil || *got.Task != tc || got.LNAGainDB != p.Capture.LNAGainDB || got.Dir != p.CapturePlan().Dir {
		t.Errorf("plan %+v: want the task's frequency, rate and duration and the policy's gains and dir", got)
	}
	// Only the duration: the rest is the policy's.
	got, err = p.CapturePlanFor(captureplan.Task{DurationS: 20})
	if err != nil || got.PlannedDurationS != 20 || got.FrequencyHz != p.Capture.FrequencyHz || got.SampleRateHz != p.Capture.SampleRateHz {
		t.Errorf("duration only: %+v, %v", got, err)
	}
}

func TestCapturePlanForTaskOutsideRanges(t *testing.T) {
	p := Default()
	p.Capture.FrequencyRangeHz = []int64{400_000_000, 500_000_000}
	p.Capture.MaxSampleRateHz = 8_000_000
	p.Capture.MaxDurationS = 60
	for _, tc := range []struct {
		task captureplan.Task
		want []string
	}{
		{captureplan.Task{FrequencyHz: 399_999_999}, []string{"CAPTURE_FREQUENCY_HZ = 399999999", "capture.frequency_range_hz (400000000 to 500000000)"}},
		{captureplan.Task{FrequencyHz: 500_000_001}, []string{"CAPTURE_FREQUENCY_HZ = 500000001", "capture.frequency_range_hz"}},
		{captureplan.Task{SampleRateHz: 8_000_001}, []string{"CAPTURE_SAMPLE_RATE_HZ = 8000001", "capture.max_sample_rate_hz (2000000 to 8000000)"}},
		{captureplan.Task{DurationS: 61}, []string{"CAPTURE_DURATION_S = 61", "capture.max_duration_s (15 to 60)"}},
		// Every reason at once.
		{captureplan.Task{FrequencyHz: 868_000_000, SampleRateHz: 20_000_000, DurationS: 3600},
			[]string{"3 problems", "CAPTURE_FREQUENCY_HZ = 868000000", "CAPTURE_SAMPLE_RATE_HZ = 20000000", "CAPTURE_DURATION_S = 3600"}},
	} {
		got, err := p.CapturePlanFor(tc.task)
		if err == nil {
			t.Errorf("%+v accepted: %+v", tc.task, got)
			continue
		}
		for _, w := range append(tc.want, "a new TASK_ID") {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%+v: %q does not say %q", tc.task, err, w)
			}
		}
	}
	// The edges are inside.
	if _, err := p.CapturePlanFor(captureplan.Task{FrequencyHz: 400_000_000, SampleRateHz: 8_000_000, DurationS: 60}); err != nil {
		t.Errorf("edges refused: %v", err)
	}
}

func TestCaptureRangeKeysValidated(t *testing.T) {
	p := Default()
	p.Capture.FrequencyRangeHz = []int64{500_000_000, 400_000_000}
	p.Capture.MaxSampleRateHz = 1_000_000
	p.Capture.MaxDurationS = 3601
	err := p.Validate()
	for _, w := range []string{"capture.frequency_range_hz", "capture.max_sample_rate_hz", "capture.max_duration_s"} {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("Validate does not refuse %s: %v", w, err)
		}
	}
	for _, r := range [][]int64{{1_000_000}, {999_999, 2_000_000}, {1_000_000, 6_000_000_001}, nil} {
		p := Default()
		p.Capture.FrequencyRangeHz = r
		if err := p.Validate(); err == nil || !strings.Contains(err.Error(), "capture.frequency_range_hz") {
			t.Errorf("range %v: %v", r, err)
		}
	}
}

// The MAIN side reads the task's duration where it has one.
func TestLimitsForTask(t *testing.T) {
	p := Default()
	if l := p.ForTask(0).Limits; l.PlannedS() != 120 || l.PublicationAge().Seconds() != 120 || !strings.Contains(l.PublicationAgeName(), "planned_duration_s (120 s") {
		t.Errorf("no task duration: %d %v %s", l.PlannedS(), l.PublicationAge(), l.PublicationAgeName())
	}
	if l := p.ForTask(45).Limits; l.PlannedS() != 45 || l.PublicationAge().Seconds() != 45 || !strings.Contains(l.PublicationAgeName(), "CAPTURE_DURATION_S (45 s") {
		t.Errorf("task duration 45: %d %v %s", l.PlannedS(), l.PublicationAge(), l.PublicationAgeName())
	}
	if p.TOML() != p.ForTask(45).TOML() {
		t.Error("the task's duration reaches the policy's TOML")
	}
}

// PROTOCOL#task-file: the plan of a scheduled task carries START_AT and
// SYNC_MODE with this node's limit for that mode; a mode the node does not
// allow is refused naming sync.allowed_modes, with the range reasons.
func TestCapturePlanForSchedule(t *testing.T) {
	p := Default()
	at := time.Date(2026, 12, 2, 20, 0, 0, 0, time.UTC)
	got, err := p.CapturePlanFor(captureplan.Task{DurationS: 30, StartAt: at, SyncMode: captureplan.SyncPPS})
	if err != nil {
		t.Fatal(err)
	}
	if want := (captureplan.Sync{StartAt: at, Mode: "PPS", PPSArmMarginS: 0.5, PPSErrorS: 1e-7}); got.Sync == nil || *got.Sync != want {
		t.Errorf("PPS plan's sync %+v, want %+v", got.Sync, want)
	}
	got, err = p.CapturePlanFor(captureplan.Task{DurationS: 30, StartAt: at, SyncMode: captureplan.SyncHostClock})
	if err != nil || got.Sync == nil || got.Sync.MaxHostClockBoundS != 0.1 || got.Sync.PPSArmMarginS != 0 {
		t.Errorf("HOST_CLOCK plan's sync %+v, %v", got.Sync, err)
	}
	if got, _ := p.CapturePlanFor(captureplan.Task{DurationS: 30}); got.Sync != nil {
		t.Errorf("a task without START_AT got a sync: %+v", got.Sync)
	}

	p.Sync.AllowedModes = []string{"HOST_CLOCK"}
	p.Capture.MaxDurationS = 20
	_, err = p.CapturePlanFor(captureplan.Task{DurationS: 30, StartAt: at, SyncMode: captureplan.SyncPPS})
	for _, w := range []string{"2 problems", "capture.max_duration_s", "SYNC_MODE = PPS is not in this node's sync.allowed_modes [HOST_CLOCK]", "adds PPS to sync.allowed_modes"} {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("refusal %v does not say %q", err, w)
		}
	}
	p.Sync.AllowedModes = []string{}
	if _, err := p.CapturePlanFor(captureplan.Task{DurationS: 15, StartAt: at, SyncMode: captureplan.SyncHostClock}); err == nil ||
		!strings.Contains(err.Error(), "[] (no scheduled task runs here)") {
		t.Errorf("allowed_modes = []: %v", err)
	}
}

// A START_AT is judged against the clock at the moment asked: at least
// sync.min_lead_s ahead passes; closer or past is refused saying when it
// was judged and that a missed START_AT needs a new TASK_ID.
func TestCheckStartAt(t *testing.T) {
	p := Default() // min_lead_s 30
	at := time.Date(2026, 12, 2, 20, 0, 0, 0, time.UTC)
	task := captureplan.Task{DurationS: 30, StartAt: at, SyncMode: captureplan.SyncPPS}
	if err := p.CheckStartAt(captureplan.Task{DurationS: 30}, at.Add(time.Hour)); err != nil {
		t.Errorf("no START_AT: %v", err)
	}
	if err := p.CheckStartAt(task, at.Add(-30*time.Second)); err != nil {
		t.Errorf("exactly min_lead_s ahead: %v", err)
	}
	cet := time.FixedZone("CET", 3600)
	for _, tc := range []struct {
		now  time.Time
		want []string
	}{
		{at.Add(-29*time.Second - 500*time.Millisecond).In(cet), []string{"START_AT = 2026-12-02T20:00:00Z is only 29.5s ahead at 2026-12-02T19:59:30.5Z", "sync.min_lead_s (30 s)", "lowers sync.min_lead_s"}},
		{at, []string{"START_AT = 2026-12-02T20:00:00Z is past: 0s ago at 2026-12-02T20:00:00Z"}},
		{at.Add(3*time.Minute + 20*time.Second), []string{"is past: 3m20s ago at 2026-12-02T20:03:20Z by this node's clock"}},
	} {
		err := p.CheckStartAt(task, tc.now)
		for _, w := range append(tc.want, "a missed START_AT is never run", "a new TASK_ID", "--start-at YYYY-MM-DDTHH:MM:SSZ --sync PPS", "at least 30 s ahead") {
			if err == nil || !strings.Contains(err.Error(), w) {
				t.Errorf("now %s: %v does not say %q", tc.now, err, w)
			}
		}
	}
	p.Sync.MinLeadS = 2
	if err := p.CheckStartAt(task, at.Add(-3*time.Second)); err != nil {
		t.Errorf("3 s ahead with min_lead_s 2: %v", err)
	}
}
