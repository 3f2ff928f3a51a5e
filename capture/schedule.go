package capture

import (
	"context"
	"fmt"
	"time"

	"rfhandoff/captureplan"
	"rfhandoff/hostclock"
	"rfhandoff/result"
)

// expectedLatency is hackrf_transfer's start-up until the rehearsal has
// measured it: the lead check before the file is reserved uses it.
const expectedLatency = 150 * time.Millisecond

const clockKey = "sync.max_host_clock_bound_s" // bounds a HOST_CLOCK node's error

// schedule is a scheduled capture's start, and what the OS said of the clock.
type schedule struct {
	sync    captureplan.Sync
	target  time.Time     // host clock: when the first sample (HOST_CLOCK) or the arming (PPS) is due
	latency time.Duration // the tool's start-up to the target
	startAt time.Time     // target less latency
	trigger bool
	clock   hostclock.ErrorBound
	known   bool // clock holds a report
}

// planSchedule asks the OS for its clock's error bound and says when to
// start. HOST_CLOCK refuses a clock bounded over sync.max_host_clock_bound_s
// or not at all. PPS arms sync.pps_arm_margin_s before the edge; without
// a report by the uncorrected host clock, which the margin must absorb.
func (s *session) planSchedule(ctx context.Context, sy captureplan.Sync) (*schedule, error) {
	sc := &schedule{sync: sy}
	switch sy.Mode {
	case captureplan.SyncHostClock:
		limit := time.Duration(sy.MaxHostClockBoundS * float64(time.Second))
		b, err := hostclock.RequireBound(ctx, s.d.Runner, limit, clockKey, "starting the scheduled capture")
		if err != nil {
			return nil, err
		}
		sc.clock, sc.known = b, true
		sc.target = sy.StartAt.Add(b.Offset)
	default:
		if b, err := hostclock.Bound(ctx, s.d.Runner); err == nil {
			sc.clock, sc.known = b, true
		}
		sc.trigger = true
		margin := time.Duration(sy.PPSArmMarginS * float64(time.Second))
		sc.target = sy.StartAt.Add(sc.clock.Offset - margin)
	}
	sc.latency = expectedLatency
	if err := sc.aim(); err != nil {
		return nil, err
	}
	return sc, nil
}

// aim sets when the tool starts, refusing a start already past.
func (sc *schedule) aim() error {
	sc.startAt = sc.target.Add(-sc.latency)
	sy := sc.sync
	if now := time.Now(); !now.Before(sc.startAt) {
		return fmt.Errorf("START_AT %s: the tool had to start at %s by this host's clock, and it is %s: too late "+
			"(hackrf_transfer's start-up here: %s; a missed START_AT needs a new TASK_ID: `rfhandoff task new NEW_TASK_ID ... --start-at ... --sync %s`)",
			sy.StartAt.UTC().Format(captureplan.StartAtLayout), sc.startAt.Format(time.RFC3339Nano), now.Format(time.RFC3339Nano), seconds(sc.latency), sy.Mode)
	}
	return nil
}

// waitUntil sleeps until at, or until a signal, which voids the capture.
func (sc *schedule) waitUntil(ctx context.Context, at time.Time) error {
	t := time.NewTimer(time.Until(at))
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("interrupted while waiting for START_AT %s: nothing was started", sc.sync.StartAt.UTC().Format(captureplan.StartAtLayout))
	}
}

// verdict is the result's alignment from what the capture saw so far.
func (sc *schedule) verdict(armedAt, firstSample time.Time, rateHz, overruns int64) *result.Alignment {
	f := alignFacts{
		Mode: sc.sync.Mode, StartAt: sc.sync.StartAt, ArmedAt: armedAt, FirstSample: firstSample,
		RateHz: rateHz, Overruns: overruns,
		MaxBound:  time.Duration(sc.sync.MaxHostClockBoundS * float64(time.Second)),
		ArmMargin: time.Duration(sc.sync.PPSArmMarginS * float64(time.Second)),
		PPSError:  time.Duration(sc.sync.PPSErrorS * float64(time.Second)),
	}
	if sc.known {
		f.Offset, f.ClockBound, f.ClockBasis = sc.clock.Offset, sc.clock.Bound, hostclock.BoundBasis+" = "+result.FormatSeconds(sc.clock.Bound)+" s"
	} else {
		// Taken to be within half the arming margin: arming would
		// otherwise risk the wrong second anyway.
		f.ClockBound = time.Duration(sc.sync.PPSArmMarginS * float64(time.Second) / 2)
		f.ClockBasis = "no clock report: half the arming margin " + result.FormatSeconds(f.ClockBound) + " s"
	}
	return judgeAlignment(f)
}

// alignment is the session's verdict so far, nil when not scheduled.
func (s *session) alignment(overruns int64) *result.Alignment {
	if s.sched == nil {
		return nil
	}
	armed := s.armed.seen()
	if armed.IsZero() {
		armed = s.rep.ProcessStarted
	}
	a := s.sched.verdict(armed, s.first.at(), s.params.SampleRateHz, overruns)
	s.d.Logger.Info("alignment", "task_id", s.rep.TaskID, "started", s.rep.ProcessStarted.Format(time.RFC3339Nano),
		"armed", armed.Format(time.RFC3339Nano), "start_up", s.sched.latency,
		"first_sample_host", s.first.at().Format(time.RFC3339Nano), "first_sample_at", a.FirstSampleAt.Format(time.RFC3339Nano),
		"trigger", a.Trigger, "bound", a.Bound, "aligned", a.Aligned)
	return a
}

// timeSource is rfhandoff:time_source.
func (sc *schedule) timeSource() string {
	switch {
	case sc.sync.Mode == captureplan.SyncPPS:
		return "PPS"
	case sc.known:
		return "chrony"
	}
	return "host clock"
}
