package txgate

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/go-multierror"

	"rfhandoff/config"
	"rfhandoff/result"
)

// TXRule names one of the MAIN side's checks (PROTOCOL#main-pc).
type TXRule string

const (
	TXRuleTaskID            TXRule = "task-id"            // task_id is the current task's
	TXRuleState             TXRule = "state"              // state is RX_READY_FOR_TX
	TXRuleLiveFlags         TXRule = "live-flags"         // rx_ready_for_tx, process_alive, file_growing
	TXRuleCommonClock       TXRule = "common-clock"       // common_clock_verified
	TXRulePublicationAge    TXRule = "publication-age"    // published_at not older than the limit
	TXRulePublicationFuture TXRule = "publication-future" // published_at not ahead beyond the skew
	TXRuleCaptureFuture     TXRule = "capture-future"     // capture_started_at not ahead beyond the skew
	TXRulePlannedDuration   TXRule = "planned-duration"   // planned_duration_s is the policy's
	TXRuleFrequency         TXRule = "frequency"          // frequency_hz is the policy's [tx] value
	TXRuleSampleRate        TXRule = "sample-rate"        // sample_rate_hz is the policy's [tx] value
	TXRuleRemainingTime     TXRule = "remaining-time"     // enough capture time left
	TXRuleSimulated         TXRule = "simulated"          // a simulated capture only where [tools] allow_simulator
	TXRuleAligned           TXRule = "alignment"          // alignment.aligned is true
	TXRuleEdge              TXRule = "trigger-edge"       // PPS: alignment.edge_at is START_AT, the edge every node shares
	TXRuleAlignmentBound    TXRule = "alignment-bound"    // alignment.bound_s within limits.max_alignment_bound_s
)

// CheckTXParams' rules.
const (
	TXRuleParamAction     TXRule = "tx-action"
	TXRuleParamGain       TXRule = "tx-gain"
	TXRuleParamMaxGain    TXRule = "tx-max-gain"
	TXRuleParamAmp        TXRule = "tx-amp"
	TXRuleParamFrequency  TXRule = "tx-frequency"
	TXRuleParamSampleRate TXRule = "tx-sample-rate"
	TXRuleParamDuration   TXRule = "tx-duration"
	TXRuleParamIQFile     TXRule = "tx-iq-file"
)

type tXCheckError struct {
	Rule   TXRule
	Reason string
}

func (e *tXCheckError) Error() string { return fmt.Sprintf("%s: %s", e.Rule, e.Reason) }

type txProblems struct{ errs *multierror.Error }

func (p *txProblems) add(rule TXRule, format string, args ...any) {
	p.errs = multierror.Append(p.errs, &tXCheckError{Rule: rule, Reason: fmt.Sprintf(format, args...)})
}

func (p *txProblems) err() error {
	if p.errs == nil {
		return nil
	}
	p.errs.ErrorFormat = listFormat
	return p.errs
}

func listFormat(errs []error) string {
	if len(errs) == 1 {
		return errs[0].Error()
	}
	s := fmt.Sprintf("%d checks failed:", len(errs))
	for _, e := range errs {
		s += "\n  - " + e.Error()
	}
	return s
}

func seconds(n int) time.Duration { return time.Duration(n) * time.Second }

// CaptureEnd is capture_started_at plus planned_duration_s.
func CaptureEnd(r *result.Result) time.Time {
	return r.CaptureStartedAt.Add(time.Duration(r.PlannedDurationS) * time.Second)
}

func Remaining(r *result.Result, now time.Time) time.Duration { return CaptureEnd(r).Sub(now) }

// ReadyUntil is the last moment CheckReadyFor(r, ..., extra) can still pass
// on time (remaining capture time, publication age). A prompt for r
// expires then, so an answer in time never meets a re-check that must fail.
func ReadyUntil(r *result.Result, pol config.Policy, extra time.Duration) time.Time {
	byRemaining := CaptureEnd(r).Add(-seconds(pol.Limits.MinRemainingS) - extra)
	byAge := r.PublishedAt.Add(pol.Limits.PublicationAge())
	if byAge.Before(byRemaining) {
		return byAge
	}
	return byRemaining
}

// CheckReadyFor runs every check PROTOCOL#main-pc makes of a result before
// TX, every failure at once. taskID is the current task's; pol is
// config.Policy.ForTask of it. The state and flag checks are repeated so
// that a COMPLETE result can never pass for READY. extra is capture time
// needed on top of min_remaining_s (the executor's duration_s).
func CheckReadyFor(r *result.Result, now time.Time, taskID string, pol config.Policy, extra time.Duration) error {
	var p txProblems
	if r == nil {
		p.add(TXRuleState, "no result")
		return p.err()
	}
	lim := pol.Limits
	if taskID == "" {
		p.add(TXRuleTaskID, "result is for task %q, but no current task is known", r.TaskID)
	} else if r.TaskID != taskID {
		p.add(TXRuleTaskID, "result is for task %q, but the task branch holds %q", r.TaskID, taskID)
	}
	if r.State != result.StateReady {
		p.add(TXRuleState, "state is %q, not %q", r.State, result.StateReady)
	}
	var down []string
	for _, f := range []struct {
		key string
		v   bool
	}{{"rx_ready_for_tx", r.RXReadyForTX}, {"process_alive", r.ProcessAlive}, {"file_growing", r.FileGrowing}} {
		if !f.v {
			down = append(down, f.key)
		}
	}
	if len(down) > 0 {
		p.add(TXRuleLiveFlags, "%v false: the receiver is not capturing", down)
	}
	if !r.CommonClockVerified {
		p.add(TXRuleCommonClock, "common_clock_verified is false: the receiver did not confirm the shared clock")
	}
	if r.Simulated && !pol.Tools.AllowSimulator {
		p.add(TXRuleSimulated, "simulated is true: rfhandoff's HackRF simulator captured, no radio receives, and this side's %s is false; "+
			"set it true in the MAIN PC's policy only where simulation is intended (a rehearsal)", config.SimulatorKey)
	}
	skew := seconds(lim.MaxClockSkewS)
	age := now.Sub(r.PublishedAt)
	switch {
	case age > lim.PublicationAge():
		p.add(TXRulePublicationAge, "published_at %s is %s old, more than %s",
			stamp(r.PublishedAt), age.Round(time.Second), lim.PublicationAgeName())
	case -age > skew:
		p.add(TXRulePublicationFuture, "published_at %s is %s in the future, more than max_clock_skew_s (%d s)",
			stamp(r.PublishedAt), (-age).Round(time.Second), lim.MaxClockSkewS)
	}
	if ahead := r.CaptureStartedAt.Sub(now); ahead > skew {
		p.add(TXRuleCaptureFuture, "capture_started_at %s is %s in the future, more than max_clock_skew_s (%d s)",
			stamp(r.CaptureStartedAt), ahead.Round(time.Second), lim.MaxClockSkewS)
	}
	if r.PlannedDurationS != lim.PlannedS() {
		p.add(TXRulePlannedDuration, "planned_duration_s is %d, %s is %d", r.PlannedDurationS, lim.PlannedName(), lim.PlannedS())
	}
	if r.FrequencyHz != pol.TX.FrequencyHz {
		p.add(TXRuleFrequency, "frequency_hz is %d, but [tx] frequency_hz is %d: the receiver does not listen where we would send",
			r.FrequencyHz, pol.TX.FrequencyHz)
	}
	if r.SampleRateHz != pol.TX.SampleRateHz {
		p.add(TXRuleSampleRate, "sample_rate_hz is %d, but [tx] sample_rate_hz is %d", r.SampleRateHz, pol.TX.SampleRateHz)
	}
	need := seconds(lim.MinRemainingS) + extra
	if left := Remaining(r, now); left < need {
		what := fmt.Sprintf("min_remaining_s (%d s)", lim.MinRemainingS)
		if extra > 0 {
			what = fmt.Sprintf("the transmission (%s) plus min_remaining_s (%d s)", extra, lim.MinRemainingS)
		}
		p.add(TXRuleRemainingTime, "%s of capture left (ends %s), less than %s",
			left.Truncate(100*time.Millisecond), stamp(CaptureEnd(r)), what)
	}
	return p.err()
}

// CheckAlignment is what a READY of a task with START_AT must also pass
// (PROTOCOL#several-nodes), every failure at once; nil without START_AT.
func CheckAlignment(r *result.Result, startAt time.Time, lim config.Limits) error {
	if startAt.IsZero() || r == nil {
		return nil
	}
	var p txProblems
	a := r.Alignment
	if a == nil {
		p.add(TXRuleAligned, "the result has no alignment, but the task has START_AT %s", startAt.UTC().Format(time.RFC3339))
		return p.err()
	}
	if !a.Aligned {
		p.add(TXRuleAligned, "not aligned: %s", strings.Join(a.Reasons, "; "))
	}
	if a.SyncMode == result.SyncPPS && (a.EdgeAt == nil || !a.EdgeAt.Equal(startAt)) {
		edge := "no edge identified"
		if a.EdgeAt != nil {
			edge = "edge " + a.EdgeAt.UTC().Format(time.RFC3339)
		}
		p.add(TXRuleEdge, "%s, not START_AT %s, the edge every node must start on", edge, startAt.UTC().Format(time.RFC3339))
	}
	if limit := lim.AlignmentBound(); a.Bound > limit {
		p.add(TXRuleAlignmentBound, "bound %s s over limits.max_alignment_bound_s %s", secondsText(a.Bound), secondsText(limit))
	}
	return p.err()
}

func secondsText(d time.Duration) string { return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) }

func stamp(t time.Time) string { return t.Format(time.RFC3339Nano) }

// ampGainDB is what the HackRF One's amplifier (`-a 1`) adds, nominally.
const ampGainDB = 11

// CheckTXParams checks the policy's [tx] parameters against the limits
// the executor enforces, every failure at once. max_tx_vga_gain_db is at
// most 47 because hackrf_transfer -x silently ignores more. No key allows
// the amplifier by itself, so max_tx_vga_gain_db is the ceiling of the
// whole chain: amp only when tx_vga_gain_db + ampGainDB fits under it.
func CheckTXParams(pol config.Policy) error {
	var p txProblems
	t := pol.TX
	switch t.Action {
	case config.TXActionFake, config.TXActionHackRFTransfer:
	default:
		p.add(TXRuleParamAction, "action %q is neither %q nor %q", t.Action, config.TXActionFake, config.TXActionHackRFTransfer)
	}
	if t.MaxTXVGAGainDB < 0 || t.MaxTXVGAGainDB > config.MaxTXVGAGainDB {
		p.add(TXRuleParamMaxGain, "max_tx_vga_gain_db %d is outside 0..%d", t.MaxTXVGAGainDB, config.MaxTXVGAGainDB)
	}
	switch {
	case t.TXVGAGainDB < 0:
		p.add(TXRuleParamGain, "tx_vga_gain_db %d is negative", t.TXVGAGainDB)
	case t.TXVGAGainDB > t.MaxTXVGAGainDB:
		p.add(TXRuleParamGain, "tx_vga_gain_db %d is over max_tx_vga_gain_db %d", t.TXVGAGainDB, t.MaxTXVGAGainDB)
	case t.TXVGAGainDB > config.MaxTXVGAGainDB:
		p.add(TXRuleParamGain, "tx_vga_gain_db %d is over the hardware's %d", t.TXVGAGainDB, config.MaxTXVGAGainDB)
	}
	if t.Amp && t.TXVGAGainDB+ampGainDB > t.MaxTXVGAGainDB {
		p.add(TXRuleParamAmp, "amp adds %d dB: tx_vga_gain_db %d + %d is over max_tx_vga_gain_db %d, so the amplifier is not allowed",
			ampGainDB, t.TXVGAGainDB, ampGainDB, t.MaxTXVGAGainDB)
	}
	if t.FrequencyHz < config.MinFrequencyHz || t.FrequencyHz > config.MaxFrequencyHz {
		p.add(TXRuleParamFrequency, "frequency_hz %d is outside %d..%d", t.FrequencyHz, int64(config.MinFrequencyHz), int64(config.MaxFrequencyHz))
	}
	if t.SampleRateHz < config.MinSampleRateHz || t.SampleRateHz > config.MaxSampleRateHz {
		p.add(TXRuleParamSampleRate, "sample_rate_hz %d is outside %d..%d", t.SampleRateHz, config.MinSampleRateHz, config.MaxSampleRateHz)
	}
	if t.DurationS < 1 || t.DurationS > config.MaxTXDurationS {
		p.add(TXRuleParamDuration, "duration_s %d is outside 1..%d", t.DurationS, config.MaxTXDurationS)
	}
	if t.Action == config.TXActionHackRFTransfer && t.IQFile == "" {
		p.add(TXRuleParamIQFile, "iq_file is required for action %q", config.TXActionHackRFTransfer)
	}
	return p.err()
}
