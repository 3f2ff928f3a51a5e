package config

import (
	"strings"
	"testing"

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
