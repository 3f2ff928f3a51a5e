package capture

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"rfhandoff/captureplan"
	"rfhandoff/config"
	"rfhandoff/exec"
	"rfhandoff/internal/clocktest"
	"rfhandoff/internal/publishtest"
	"rfhandoff/result"
)

// scheduledWorld is a world whose task starts at a whole second lead
// ahead, in mode, with the runner as more sets it (simEnv: the simulator's
// trigger input and host clock); chrony, when not nil, is the node's clock
// report.
func scheduledWorld(t *testing.T, mode string, lead time.Duration, chrony *clocktest.Chrony, more ...func(*exec.Options)) (*world, time.Time) {
	t.Helper()
	return scheduledWorldPolicy(t, mode, lead, chrony, nil, more...)
}

// scheduledWorldPolicy is scheduledWorld whose policy pol also edits
// before the task is approved.
func scheduledWorldPolicy(t *testing.T, mode string, lead time.Duration, chrony *clocktest.Chrony, pol func(*config.Policy), more ...func(*exec.Options)) (*world, time.Time) {
	t.Helper()
	start := time.Now().Add(lead).Truncate(time.Second).Add(time.Second).UTC()
	task := captureplan.Task{DurationS: 15, StartAt: start, SyncMode: mode}
	w := newWorld(t, "", publishtest.Options{Capture: task}, func(p *config.Policy) {
		p.Sync.MinLeadS = 2
		p.Sync.MaxHostClockBoundS = 0.5
		if pol != nil {
			pol(p)
		}
	}, append(more, func(o *exec.Options) {
		if chrony != nil {
			o.Tools[exec.Chronyc] = clocktest.Write(t, t.TempDir(), *chrony)
		}
	})...)
	w.schedule = task
	return w, start
}

// simEnv sets kv (NAME=value) in the environment the runner's tools get,
// in place of a value newWorld gave.
func simEnv(kv ...string) func(*exec.Options) {
	return func(o *exec.Options) {
		for _, v := range kv {
			name, _, _ := strings.Cut(v, "=")
			o.Environ = slices.DeleteFunc(o.Environ, func(e string) bool { return strings.HasPrefix(e, name+"=") })
		}
		o.Environ = append(o.Environ, kv...)
	}
}

// runForResults runs the world's capture and returns the READY and
// COMPLETE it published, oldest first.
func (w *world) runForResults(t *testing.T) []*result.Result {
	t.Helper()
	base := w.ResultTip(t)
	if _, err := w.run(t, t.Context(), opts()); err != nil {
		t.Fatalf("Run: %v", err)
	}
	rs := w.resultCommits(t, base)
	if len(rs) != 2 {
		t.Fatalf("%d results, want READY and COMPLETE", len(rs))
	}
	return rs
}

// transferArgs is the argv the capture's hackrf_transfer was started
// with, after the start-up rehearsal's: the same tool, its own file, a
// few blocks, never -H.
func (w *world) transferArgs(t *testing.T) []string {
	t.Helper()
	starts := w.auditStarts(t, exec.HackRFTransfer)
	if len(starts) != 2 {
		t.Fatalf("hackrf_transfer started %d times, want twice (the rehearsal, the capture)", len(starts))
	}
	r := starts[0].Argv
	if slices.Contains(r, "-H") || !slices.Contains(r, strconv.Itoa(rehearsalSamples)) || !strings.HasSuffix(r[slices.Index(r, "-r")+1], rehearsalSuffix) {
		t.Errorf("rehearsal %q: want -n %d to a %s file, no -H", r, rehearsalSamples, rehearsalSuffix)
	}
	return starts[1].Argv
}

func TestCaptureScheduledPPS(t *testing.T) {
	t.Parallel()
	// The host clock 250 ms behind true time, as the clock report says:
	// the node arms by the corrected clock and finds START_AT's edge. A
	// machine so loaded that the simulator's start-up strayed from the
	// rehearsed one by more than half a second is told apart by the
	// verdict (another edge, named, or too close to tell) and tried again.
	offset := -250 * time.Millisecond
	for attempt := 1; ; attempt++ {
		w, start := scheduledWorld(t, captureplan.SyncPPS, 20*time.Second,
			&clocktest.Chrony{RootDelay: 2 * time.Millisecond, RootDispersion: time.Millisecond},
			simEnv("HACKRF_SIM_TRIGGER=pps", "HACKRF_SIM_PPS_OFFSET_NS="+strconv.FormatInt(int64(offset), 10)))
		rs := w.runForResults(t)
		if args := w.transferArgs(t); !slices.Contains(args, "-H") {
			t.Errorf("hackrf_transfer %q: no -H for a PPS-scheduled capture", args)
		}
		// Or armed so close to the edge that the verdict cannot tell an
		// honoured trigger from an ignored one (the simulator honours it):
		// READY's or COMPLETE's, whose estimate of the first sample can
		// be a few ms earlier.
		if attempt < 3 && slices.ContainsFunc(rs, func(r *result.Result) bool { return armedAstray(r.Alignment, start) }) {
			t.Logf("attempt %d: armed outside the second before the edge on this loaded machine (READY %+v, COMPLETE %+v); again",
				attempt, rs[0].Alignment, rs[1].Alignment)
			continue
		}
		// One sample period and the policy's 1PPS error (sync.pps_error_s).
		period := time.Second/2_000_000 + time.Duration(config.Default().Sync.PPSErrorS*float64(time.Second))
		for _, r := range rs {
			a := r.Alignment
			if r.SchemaVersion != result.ScheduledSchemaVersion || a == nil {
				t.Fatalf("%s: schema_version %d, alignment %v: want a scheduled result", r.State, r.SchemaVersion, a)
			}
			if !a.Aligned || len(a.Reasons) != 0 || a.Trigger != result.TriggerHonoured || a.EdgeAt == nil || !a.EdgeAt.Equal(start) ||
				!a.FirstSampleAt.Equal(start) || !a.StartAt.Equal(start) || a.Bound != period {
				t.Errorf("%s alignment = %+v, want aligned on the START_AT edge %s with a bound of one sample period and the 1PPS error", r.State, a, start)
			}
		}
		return
	}
}

// armedAstray reports a PPS verdict that a loaded machine's start-up
// explains: another edge, or arming too close to START_AT's to tell.
func armedAstray(a *result.Alignment, start time.Time) bool {
	return a != nil && !a.Aligned && (a.EdgeAt != nil && !a.EdgeAt.Equal(start) ||
		a.Trigger == result.TriggerIgnored && len(a.Reasons) == 1 && strings.Contains(a.Reasons[0], " s after arming, within the "))
}

// TestCaptureScheduledPPSArmsAfterTheEdge: the node's host clock is 400 ms
// behind true time and its clock report has not caught up (offset 0,
// root dispersion 450 ms). Arming 0.1 s before START_AT by that clock is
// 0.3 s after the true edge: the board starts on the next one, which the
// verdict finds (the report's bound covers the error) and names; not
// aligned.
func TestCaptureScheduledPPSArmsAfterTheEdge(t *testing.T) {
	t.Parallel()
	for attempt := 1; ; attempt++ {
		w, start := scheduledWorldPolicy(t, captureplan.SyncPPS, 20*time.Second,
			&clocktest.Chrony{RootDelay: 2 * time.Millisecond, RootDispersion: 450 * time.Millisecond, Fixed: true},
			func(p *config.Policy) { p.Sync.PPSArmMarginS = 0.1 },
			simEnv("HACKRF_SIM_TRIGGER=pps", "HACKRF_SIM_PPS_OFFSET_NS=-400000000"))
		rs := w.runForResults(t)
		// A start-up 0.3 s quicker than rehearsed armed before the edge
		// after all, or so close to it that the tool's armed line was read
		// after the data (IGNORED, DESIGN's documented cost): load, not
		// the case under test.
		if a := rs[0].Alignment; attempt < 3 && a != nil && (a.Aligned || a.Trigger == result.TriggerIgnored) {
			t.Logf("attempt %d: armed before START_AT's edge on this loaded machine; again", attempt)
			continue
		}
		next := start.Add(time.Second)
		for _, r := range rs {
			a := r.Alignment
			if a == nil || a.Aligned || a.Trigger != result.TriggerHonoured || a.EdgeAt == nil || !a.EdgeAt.Equal(next) ||
				len(a.Reasons) != 1 || !strings.Contains(a.Reasons[0], "the first sample came on the edge at "+next.Format(time.RFC3339)+", not START_AT") {
				t.Errorf("%s alignment = %+v, want HONOURED on the edge after START_AT (%s), not aligned, naming it", r.State, a, next)
			}
		}
		return
	}
}

func TestCaptureScheduledTriggerIgnored(t *testing.T) {
	t.Parallel()
	w, start := scheduledWorld(t, captureplan.SyncPPS, 20*time.Second,
		&clocktest.Chrony{RootDelay: 2 * time.Millisecond, RootDispersion: time.Millisecond}, simEnv("HACKRF_SIM_TRIGGER=ignore"))
	rs := w.runForResults(t)
	for _, r := range rs {
		a := r.Alignment
		if a == nil || a.Aligned || a.Trigger != result.TriggerIgnored || a.EdgeAt != nil || len(a.Reasons) == 0 {
			t.Fatalf("%s alignment = %+v, want the trigger reported IGNORED and not aligned", r.State, a)
		}
		// Told by the data coming right after the tool's "Stop with
		// Ctrl-C" (the board armed), wherever they fall in the second.
		if !strings.Contains(a.Reasons[0], "after arming, within the") {
			t.Errorf("%s reason %q: want the data timed from the tool's arming", r.State, a.Reasons[0])
		}
		// Armed pps_arm_margin_s (0.5 s) before the edge after the
		// rehearsed start-up: data then, not on an edge.
		if miss := a.FirstSampleAt.Sub(start).Abs(); miss < 5*time.Millisecond || miss > 2*time.Second {
			t.Errorf("%s first sample %s, %s from START_AT: want it off the edge by the start-up's time", r.State, a.FirstSampleAt, miss)
		}
	}
}

func TestCaptureScheduledHostClock(t *testing.T) {
	t.Parallel()
	chrony := clocktest.Chrony{Offset: 30 * time.Millisecond, RootDelay: 4 * time.Millisecond, RootDispersion: 2 * time.Millisecond}
	w, start := scheduledWorld(t, captureplan.SyncHostClock, 20*time.Second, &chrony)
	rs := w.runForResults(t)
	if args := w.transferArgs(t); slices.Contains(args, "-H") {
		t.Errorf("hackrf_transfer %q: -H for a HOST_CLOCK capture", args)
	}
	if clocks := w.auditStarts(t, exec.Chronyc); len(clocks) != 1 {
		t.Errorf("chronyc asked %d times, want once, before arming", len(clocks))
	}
	// chrony's bound (30 + 2 + 2 ms) plus one USB block at 2 Msps (65.5 ms).
	wantBound := 34*time.Millisecond + 65536*time.Microsecond
	for _, r := range rs {
		a := r.Alignment
		if a == nil || a.Trigger != result.TriggerNotUsed || a.EdgeAt != nil || a.Bound != wantBound {
			t.Fatalf("%s alignment = %+v, want HOST_CLOCK with a bound of %s", r.State, a, wantBound)
		}
		// Started the rehearsed start-up early by the host clock (30 ms
		// ahead, as chrony says): the first sample lands near START_AT,
		// as far off as this start-up differs from the rehearsal's.
		if miss := a.FirstSampleAt.Sub(start); miss < -2*time.Second || miss > 10*time.Second {
			t.Errorf("%s first sample %s is %s from START_AT", r.State, a.FirstSampleAt, miss)
		}
		if a.Aligned != (a.FirstSampleAt.Sub(start).Abs()+a.Bound <= 500*time.Millisecond) {
			t.Errorf("%s aligned %v with a miss of %s and a bound of %s against the policy's 0.5 s", r.State, a.Aligned, a.FirstSampleAt.Sub(start), a.Bound)
		}
	}
}

func TestCaptureScheduledRefusedWithoutAClockBound(t *testing.T) {
	t.Parallel()
	w, _ := scheduledWorld(t, captureplan.SyncHostClock, 20*time.Second, &clocktest.Chrony{Unsynchronised: true})
	base := w.ResultTip(t)
	_, err := w.run(t, t.Context(), opts())
	if err == nil {
		t.Fatal("a HOST_CLOCK capture on a clock chrony calls unsynchronised ran")
	}
	if len(w.auditStarts(t, exec.HackRFTransfer)) != 0 {
		t.Error("hackrf_transfer started")
	}
	if rs := w.resultCommits(t, base); len(rs) != 0 {
		t.Errorf("%d results published", len(rs))
	}
	t.Logf("refused: %v", err)
}

// TestCaptureScheduledRefusesFirmwareThatIgnoresTheTrigger: a HackRF One
// before r9 on firmware 2023.01.1 (greatscottgadgets/hackrf#1292) would
// stream at once under -H: a PPS capture is refused before anything arms,
// naming the firmware and the issue, and nothing starts or is published.
func TestCaptureScheduledRefusesFirmwareThatIgnoresTheTrigger(t *testing.T) {
	t.Parallel()
	w, _ := scheduledWorld(t, captureplan.SyncPPS, 20*time.Second, nil, simEnv("HACKRF_SIM=fw2023", "HACKRF_SIM_TRIGGER=pps"))
	refs := w.Refs(t)
	_, err := w.run(t, t.Context(), opts())
	var re *refusedError
	if !errors.As(err, &re) {
		t.Fatalf("err = %v, want the board refused", err)
	}
	for _, want := range []string{"SYNC_MODE PPS", "firmware 2023.01.1", "hackrf#1292", "--sync HOST_CLOCK", "nothing was started"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("refusal lacks %q:\n%v", want, err)
		}
	}
	if n := len(w.auditStarts(t, exec.HackRFTransfer)); n != 0 {
		t.Errorf("hackrf_transfer started %d times", n)
	}
	if w.Refs(t) != refs {
		t.Error("something was published")
	}
}
