package capture

import (
	"fmt"
	"math"
	"time"

	"rfhandoff/captureplan"
	"rfhandoff/result"
)

// usbBlockBytes is what hackrf_transfer writes at once: the first-sample
// estimate (firstsample.go) can be late by up to one block's duration.
const usbBlockBytes = 262144

// ignoredSlack is how long after arming, beyond the estimate's
// resolution, data still mean a board that did not wait for an edge: one
// that ignores -H streams within milliseconds of hackrf_start_rx.
const ignoredSlack = 20 * time.Millisecond

// alignFacts is what a scheduled capture knows, by the host clock.
type alignFacts struct {
	Mode        string
	StartAt     time.Time // the task's START_AT, a whole second of true time
	ArmedAt     time.Time // the tool's "Stop with Ctrl-C", else its start
	FirstSample time.Time // firstSample's estimate
	RateHz      int64
	Offset      time.Duration // the OS's offset estimate, host − true
	ClockBound  time.Duration // the OS's bound on the error left after Offset
	ClockBasis  string        // what ClockBound adds up, as the OS said it
	PPSError    time.Duration // PPS: the policy's bound on the PPS edge's own error
	ArmMargin   time.Duration // PPS: how long before START_AT the tool was armed
	MaxBound    time.Duration // the policy's largest acceptable bound (0: none)
	Overruns    int64
}

// judgeAlignment says where the first sample landed and whether that is
// START_AT within the policy's bound, with every reason it is not.
//
// The estimate is never early and late by at most one USB block (the
// resolution). HOST_CLOCK: the true time is the estimate less the OS's
// offset, bounded by the clock's bound plus the resolution. PPS: the edge
// is the true second nearest that; an estimate before it by more than the
// clock's bound, after it by more than that plus the resolution, or data
// within the resolution plus ignoredSlack of arming (at most half the
// arming margin) mean firmware that ignores -H. A PPS sample is taken on
// the edge: its time is the edge's, within one sample period plus the
// PPS's own error.
func judgeAlignment(f alignFacts) *result.Alignment {
	period := time.Duration(float64(time.Second) / float64(f.RateHz))
	resolution := time.Duration(float64(usbBlockBytes) / 2 / float64(f.RateHz) * float64(time.Second))
	est := f.FirstSample.Add(-f.Offset)
	v := &result.Alignment{SyncMode: result.SyncMode(f.Mode), StartAt: f.StartAt, Overruns: f.Overruns,
		FirstSampleAt: est, Bound: f.ClockBound + resolution}
	switch f.Mode {
	case captureplan.SyncPPS:
		edge := est.Round(time.Second)
		d := est.Sub(edge)
		miss := d.Abs()
		tol := f.ClockBound + resolution
		early := -d > f.ClockBound+time.Millisecond
		soonLimit := min(resolution+ignoredSlack, f.ArmMargin/2)
		soon := f.FirstSample.Sub(f.ArmedAt) < soonLimit
		if d > tol || early || soon {
			v.Trigger = result.TriggerIgnored
			v.BoundBasis = fmt.Sprintf("no PPS edge: %s; first-sample resolution %s", f.ClockBasis, seconds(resolution))
			why := fmt.Sprintf("the first sample came %s after the nearest whole second, more than the %s the clock and the file's growth allow", seconds(miss), seconds(tol))
			if early {
				why = fmt.Sprintf("the first sample came %s before the nearest whole second, more than the clock's bound %s allows", seconds(miss), seconds(f.ClockBound))
			}
			if soon {
				why = fmt.Sprintf("the first sample came %s after arming, within the %s an edge-less start allows", signedSeconds(f.FirstSample.Sub(f.ArmedAt)), seconds(soonLimit))
			}
			v.Reasons = append(v.Reasons, why+": the board did not wait for the trigger (firmware that ignores -H)")
			break
		}
		v.Trigger = result.TriggerHonoured
		v.EdgeAt = &edge
		v.FirstSampleAt = edge
		v.Bound = period + f.PPSError
		v.BoundBasis = fmt.Sprintf("PPS edge: one sample period %s + PPS error %s", seconds(period), seconds(f.PPSError))
		if !edge.Equal(f.StartAt) {
			v.Reasons = append(v.Reasons, fmt.Sprintf("the first sample came on the edge at %s, not START_AT %s (armed at %s by the host clock)",
				edge.UTC().Format(time.RFC3339), f.StartAt.UTC().Format(time.RFC3339), f.ArmedAt.UTC().Format(time.RFC3339Nano)))
		}
		if f.MaxBound > 0 && v.Bound > f.MaxBound {
			v.Reasons = append(v.Reasons, fmt.Sprintf("the bound %s is more than the policy's %s", seconds(v.Bound), seconds(f.MaxBound)))
		}
	default:
		v.Trigger = result.TriggerNotUsed
		v.BoundBasis = fmt.Sprintf("%s; first-sample resolution %s", f.ClockBasis, seconds(resolution))
		if miss := est.Sub(f.StartAt).Abs(); miss+v.Bound > f.MaxBound {
			v.Reasons = append(v.Reasons, fmt.Sprintf("the first sample came %s from START_AT with a bound of %s: more than the policy's %s",
				seconds(miss), seconds(v.Bound), seconds(f.MaxBound)))
		}
	}
	if f.Overruns > 0 {
		v.Reasons = append(v.Reasons, fmt.Sprintf("%d overruns: samples were lost, so sample k is no longer at START_AT + k/rate", f.Overruns))
	}
	v.Aligned = len(v.Reasons) == 0
	return v
}

// signedSeconds is seconds with a minus sign for a negative d.
func signedSeconds(d time.Duration) string {
	if d < 0 {
		return "-" + seconds(d)
	}
	return seconds(d)
}

// seconds writes |d| in seconds with nanosecond digits, trailing zeros cut.
func seconds(d time.Duration) string {
	s := fmt.Sprintf("%.9f", math.Abs(d.Seconds()))
	for len(s) > 1 && s[len(s)-1] == '0' && s[len(s)-2] != '.' {
		s = s[:len(s)-1]
	}
	return s + " s"
}
