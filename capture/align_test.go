package capture

import (
	"strings"
	"testing"
	"time"

	"rfhandoff/captureplan"
	"rfhandoff/result"
)

func TestJudgeAlignment(t *testing.T) {
	start := time.Date(2026, 12, 2, 20, 0, 0, 0, time.UTC)
	ms := time.Millisecond
	base := func(mode string) alignFacts {
		return alignFacts{
			Mode: mode, StartAt: start, ArmedAt: start.Add(-300 * ms), RateHz: 10_000_000,
			ClockBound: 2 * ms, ClockBasis: "chrony: |offset| 0 + root dispersion 0.001 + root delay/2 0.001",
			PPSError: 50 * time.Nanosecond, MaxBound: 10 * ms, ArmMargin: 300 * ms,
		}
	}
	// At 10 Msps one USB block is 13.1072 ms: the estimate's resolution.
	cases := []struct {
		name    string
		edit    func(*alignFacts)
		aligned bool
		trigger result.Trigger
		edge    time.Time // zero: no edge
		first   time.Time
		bound   time.Duration
		reasons []string // substrings, one per reason, in order
	}{
		{"pps on the edge", func(f *alignFacts) { f.FirstSample = start.Add(3 * ms) },
			true, result.TriggerHonoured, start, start, 100*time.Nanosecond + 50*time.Nanosecond, nil},
		{"pps host clock 250 ms behind, said by the OS", func(f *alignFacts) {
			f.Offset, f.ArmedAt = -250*ms, start.Add(-550*ms)
			f.FirstSample = start.Add(-250*ms + 4*ms)
		}, true, result.TriggerHonoured, start, start, 150 * time.Nanosecond, nil},
		{"pps armed late: the next edge", func(f *alignFacts) { f.FirstSample = start.Add(time.Second + 1*ms) },
			false, result.TriggerHonoured, start.Add(time.Second), start.Add(time.Second), 150 * time.Nanosecond,
			[]string{"on the edge at 2026-12-02T20:00:01Z, not START_AT 2026-12-02T20:00:00Z"}},
		{"pps ignored: data at once after arming", func(f *alignFacts) { f.FirstSample = start.Add(-280 * ms) },
			false, result.TriggerIgnored, time.Time{}, start.Add(-280 * ms), 2*ms + 13107200*time.Nanosecond,
			[]string{"did not wait for the trigger"}},
		{"pps ignored, no clock report: data right after arming", func(f *alignFacts) {
			f.ClockBound = 300 * ms
			f.FirstSample = start.Add(-280 * ms)
		}, false, result.TriggerIgnored, time.Time{}, start.Add(-280 * ms), 300*ms + 13107200*time.Nanosecond,
			[]string{"after arming, within the 0.0331072 s an edge-less start allows"}},
		// Data at once that happen to fall on a whole second: the board
		// said it was armed 10 ms before, so no edge started them.
		{"pps ignored: data on a whole second right after arming", func(f *alignFacts) {
			f.ArmedAt = start.Add(-10 * ms)
			f.FirstSample = start.Add(3 * ms)
		}, false, result.TriggerIgnored, time.Time{}, start.Add(3 * ms), 2*ms + 13107200*time.Nanosecond,
			[]string{"the first sample came 0.013 s after arming, within the 0.0331072 s"}},
		// Armed 0.2 s before the edge, well beyond a block plus the slack.
		{"pps armed late in its window: honoured", func(f *alignFacts) {
			f.ArmedAt = start.Add(-200 * ms)
			f.FirstSample = start.Add(3 * ms)
		}, true, result.TriggerHonoured, start, start, 150 * time.Nanosecond, nil},
		// A small margin caps the limit at half of it.
		{"pps ignored within half a small margin", func(f *alignFacts) {
			f.ArmMargin = 60 * ms
			f.ArmedAt = start.Add(-25 * ms)
			f.FirstSample = start.Add(2 * ms)
		}, false, result.TriggerIgnored, time.Time{}, start.Add(2 * ms), 2*ms + 13107200*time.Nanosecond,
			[]string{"within the 0.03 s"}},
		{"pps without a policy bound", func(f *alignFacts) { f.FirstSample = start.Add(2 * ms); f.MaxBound = 0 },
			true, result.TriggerHonoured, start, start, 150 * time.Nanosecond, nil},
		{"pps with an overrun", func(f *alignFacts) { f.FirstSample = start.Add(1 * ms); f.Overruns = 2 },
			false, result.TriggerHonoured, start, start, 150 * time.Nanosecond, []string{"2 overruns"}},
		{"host clock within the bound", func(f *alignFacts) {
			f.Mode = captureplan.SyncHostClock
			f.RateHz = 20_000_000
			f.FirstSample = start.Add(1 * ms)
		},
			true, result.TriggerNotUsed, time.Time{}, start.Add(1 * ms), 2*ms + 6553600*time.Nanosecond, nil},
		{"host clock offset corrected", func(f *alignFacts) {
			f.Mode, f.RateHz, f.Offset = captureplan.SyncHostClock, 20_000_000, 30*ms
			f.FirstSample = start.Add(31 * ms)
		}, true, result.TriggerNotUsed, time.Time{}, start.Add(1 * ms), 2*ms + 6553600*time.Nanosecond, nil},
		{"host clock too far", func(f *alignFacts) {
			f.Mode = captureplan.SyncHostClock
			f.FirstSample = start.Add(40 * ms)
			f.Overruns = 1
		},
			false, result.TriggerNotUsed, time.Time{}, start.Add(40 * ms), 2*ms + 13107200*time.Nanosecond,
			[]string{"came 0.04 s from START_AT", "1 overruns"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := base(captureplan.SyncPPS)
			tc.edit(&f)
			v := judgeAlignment(f)
			if v.Aligned != tc.aligned || v.Trigger != tc.trigger || !v.FirstSampleAt.Equal(tc.first) || v.Bound != tc.bound {
				t.Errorf("got aligned %v trigger %s first %s bound %s, want %v %s %s %s",
					v.Aligned, v.Trigger, v.FirstSampleAt.Format(time.RFC3339Nano), v.Bound, tc.aligned, tc.trigger, tc.first.Format(time.RFC3339Nano), tc.bound)
			}
			if tc.edge.IsZero() != (v.EdgeAt == nil) || (v.EdgeAt != nil && !v.EdgeAt.Equal(tc.edge)) {
				t.Errorf("edge %v, want %v", v.EdgeAt, tc.edge)
			}
			if len(v.Reasons) != len(tc.reasons) {
				t.Fatalf("reasons %q, want %d like %q", v.Reasons, len(tc.reasons), tc.reasons)
			}
			for i, want := range tc.reasons {
				if !strings.Contains(v.Reasons[i], want) {
					t.Errorf("reason %d %q, want it to say %q", i, v.Reasons[i], want)
				}
			}
			if v.BoundBasis == "" {
				t.Error("no basis for the bound")
			}
		})
	}
}

func TestSecondsWritesNanoseconds(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0: "0.0 s", 150 * time.Nanosecond: "0.00000015 s", 40 * time.Millisecond: "0.04 s", -2 * time.Second: "2.0 s",
	} {
		if got := seconds(d); got != want {
			t.Errorf("seconds(%s) = %q, want %q", d, got, want)
		}
	}
}
