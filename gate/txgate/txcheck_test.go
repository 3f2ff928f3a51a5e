package txgate

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/go-multierror"

	"rfhandoff/config"
	"rfhandoff/result"
)

var txNow = time.Date(2026, 3, 14, 10, 16, 0, 0, time.UTC)

// readyResult is a READY result that passes every check at txNow under the
// default policy: published 5 s ago, capture started 60 s ago (60 s left).
func readyResult() *result.Result {
	return &result.Result{
		SchemaVersion: 1, TaskID: "RX_OTA_0001", State: result.StateReady,
		SourceHead:       strings.Repeat("3f", 20),
		PublishedAt:      txNow.Add(-5 * time.Second),
		CaptureStartedAt: txNow.Add(-60 * time.Second),
		PlannedDurationS: 120, FrequencyHz: 433920000, SampleRateHz: 2000000,
		RXReadyForTX: true, ProcessAlive: true, FileGrowing: true, CommonClockVerified: true,
		CapturePID: 4242,
	}
}

func TestCheckReadyPasses(t *testing.T) {
	if err := CheckReadyFor(readyResult(), txNow, "RX_OTA_0001", config.Default(), 0); err != nil {
		t.Fatalf("CheckReady: %v", err)
	}
	// Exactly at the limits still passes.
	r := readyResult()
	r.PublishedAt = txNow.Add(-30 * time.Second)
	r.CaptureStartedAt = txNow.Add(-110 * time.Second) // 10 s left
	if err := CheckReadyFor(r, txNow, "RX_OTA_0001", config.Default(), 0); err != nil {
		t.Fatalf("CheckReady at the limits: %v", err)
	}
	r = readyResult()
	r.PublishedAt = txNow.Add(5 * time.Second) // exactly max_clock_skew_s ahead
	if err := CheckReadyFor(r, txNow, "RX_OTA_0001", config.Default(), 0); err != nil {
		t.Fatalf("CheckReady at the skew limit: %v", err)
	}
}

func TestCheckReadyEachRule(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(r *result.Result, p *config.Policy)
		taskID string
		extra  time.Duration
		want   []TXRule
	}{
		{"wrong task", nil, "RX_OTA_0002", 0, []TXRule{TXRuleTaskID}},
		{"no current task", nil, "", 0, []TXRule{TXRuleTaskID}},
		{"complete, not ready", func(r *result.Result, _ *config.Policy) {
			r.State = result.StateComplete
			r.RXReadyForTX, r.ProcessAlive, r.FileGrowing = false, false, false
		}, "", 0, []TXRule{TXRuleState, TXRuleLiveFlags}},
		{"file not growing", func(r *result.Result, _ *config.Policy) { r.FileGrowing = false }, "", 0, []TXRule{TXRuleLiveFlags}},
		{"process dead", func(r *result.Result, _ *config.Policy) { r.ProcessAlive = false }, "", 0, []TXRule{TXRuleLiveFlags}},
		{"not ready flag", func(r *result.Result, _ *config.Policy) { r.RXReadyForTX = false }, "", 0, []TXRule{TXRuleLiveFlags}},
		{"clock not verified", func(r *result.Result, _ *config.Policy) { r.CommonClockVerified = false }, "", 0, []TXRule{TXRuleCommonClock}},
		{"stale", func(r *result.Result, _ *config.Policy) { r.PublishedAt = txNow.Add(-121 * time.Second) }, "", 0, []TXRule{TXRulePublicationAge}},
		{"stale under a set age", func(r *result.Result, p *config.Policy) {
			p.Limits.MaxPublicationAgeS = 30
			r.PublishedAt = txNow.Add(-31 * time.Second)
		}, "", 0, []TXRule{TXRulePublicationAge}},
		{"stale under a tighter policy", func(r *result.Result, p *config.Policy) { p.Limits.MaxPublicationAgeS = 4 }, "", 0, []TXRule{TXRulePublicationAge}},
		{"future beyond skew", func(r *result.Result, _ *config.Policy) { r.PublishedAt = txNow.Add(6 * time.Second) }, "", 0, []TXRule{TXRulePublicationFuture}},
		{"capture start in the future", func(r *result.Result, _ *config.Policy) {
			r.CaptureStartedAt = txNow.Add(20 * time.Second)
		}, "", 0, []TXRule{TXRuleCaptureFuture}},
		{"planned duration differs", func(r *result.Result, _ *config.Policy) { r.PlannedDurationS = 300 }, "", 0, []TXRule{TXRulePlannedDuration}},
		// PROTOCOL#main-pc: the task's CAPTURE_DURATION_S stands for the policy's.
		{"the task's duration, the policy's differs", func(r *result.Result, p *config.Policy) {
			r.PlannedDurationS, p.Limits.PlannedDurationS = 120, 300
			*p = p.ForTask(120)
		}, "", 0, nil},
		{"the task's duration differs", func(r *result.Result, p *config.Policy) { *p = p.ForTask(300) }, "", 0, []TXRule{TXRulePlannedDuration}},
		{"frequency differs", func(r *result.Result, p *config.Policy) { p.TX.FrequencyHz = 915000000 }, "", 0, []TXRule{TXRuleFrequency}},
		{"sample rate differs", func(r *result.Result, _ *config.Policy) { r.SampleRateHz = 10000000 }, "", 0, []TXRule{TXRuleSampleRate}},
		{"too little time", func(r *result.Result, _ *config.Policy) {
			r.CaptureStartedAt = txNow.Add(-111 * time.Second) // 9 s left
		}, "", 0, []TXRule{TXRuleRemainingTime}},
		{"capture over", func(r *result.Result, _ *config.Policy) {
			r.CaptureStartedAt = txNow.Add(-200 * time.Second)
		}, "", 0, []TXRule{TXRuleRemainingTime}},
		{"not enough for the transmission", nil, "", 51 * time.Second, []TXRule{TXRuleRemainingTime}},
		{"simulated, not allowed", func(r *result.Result, _ *config.Policy) { r.Simulated = true }, "", 0, []TXRule{TXRuleSimulated}},
		{"simulated, allowed", func(r *result.Result, p *config.Policy) { r.Simulated, p.Tools.AllowSimulator = true, true }, "", 0, nil},
		{"allowed, not simulated", func(_ *result.Result, p *config.Policy) { p.Tools.AllowSimulator = true }, "", 0, nil},
		{"everything at once", func(r *result.Result, p *config.Policy) {
			r.CommonClockVerified = false
			r.PublishedAt = txNow.Add(-time.Hour)
			r.CaptureStartedAt = txNow.Add(-time.Hour)
			r.FrequencyHz = 1
			r.SampleRateHz = 1
			r.PlannedDurationS = 15
		}, "OTHER_TASK", 0, []TXRule{TXRuleTaskID, TXRuleCommonClock, TXRulePublicationAge, TXRulePlannedDuration,
			TXRuleFrequency, TXRuleSampleRate, TXRuleRemainingTime}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, p := readyResult(), config.Default()
			if tt.mutate != nil {
				tt.mutate(r, &p)
			}
			id := tt.taskID
			if id == "" && tt.name != "no current task" {
				id = "RX_OTA_0001"
			}
			err := CheckReadyFor(r, txNow, id, p, tt.extra)
			if got := failedTXRules(err); !slices.Equal(got, tt.want) {
				t.Fatalf("rules = %v, want %v (err: %v)", got, tt.want, err)
			}
			for _, rule := range tt.want {
				if !strings.Contains(err.Error(), string(rule)+": ") {
					t.Errorf("message does not name %s:\n%v", rule, err)
				}
			}
			if p.Limits.TaskDurationS > 0 && err != nil && !strings.Contains(err.Error(), "the task's CAPTURE_DURATION_S is 300") {
				t.Errorf("message does not name the task's field: %v", err)
			}
		})
	}
}

// The extra time is what the executor needs: exactly duration_s +
// min_remaining_s left passes, a moment less fails.
func TestCheckReadyForExtraBoundary(t *testing.T) {
	r := readyResult() // 60 s left
	if err := CheckReadyFor(r, txNow, "RX_OTA_0001", config.Default(), 50*time.Second); err != nil {
		t.Fatalf("60 s left for 50 s + 10 s: %v", err)
	}
	err := CheckReadyFor(r, txNow.Add(time.Millisecond), "RX_OTA_0001", config.Default(), 50*time.Second)
	if !slices.Equal(failedTXRules(err), []TXRule{TXRuleRemainingTime}) || !strings.Contains(err.Error(), "the transmission (50s)") {
		t.Fatalf("a millisecond later: %v", err)
	}
}

func TestReadyUntil(t *testing.T) {
	p := config.Default()
	p.Limits.MaxPublicationAgeS = 30
	r := readyResult() // published txNow-5s (ages out at +25s), 60 s left (falls under 10 s at +50s)
	if got, want := ReadyUntil(r, p, 0), txNow.Add(25*time.Second); !got.Equal(want) {
		t.Errorf("ReadyUntil = %v, want the publication age limit %v", got, want)
	}
	r.PublishedAt = txNow
	if got, want := ReadyUntil(r, p, 0), txNow.Add(30*time.Second); !got.Equal(want) {
		t.Errorf("ReadyUntil = %v, want %v", got, want)
	}
	p.Limits.MaxPublicationAgeS = 300
	if got, want := ReadyUntil(r, p, 0), txNow.Add(50*time.Second); !got.Equal(want) {
		t.Errorf("ReadyUntil = %v, want the remaining-time limit %v", got, want)
	}
	if got, want := ReadyUntil(r, p, 10*time.Second), txNow.Add(40*time.Second); !got.Equal(want) {
		t.Errorf("ReadyUntil with 10 s extra = %v, want %v", got, want)
	}
	// Just before ReadyUntil the time checks pass; just after, one fails.
	until := ReadyUntil(r, p, 0)
	if err := CheckReadyFor(r, until, "RX_OTA_0001", p, 0); err != nil {
		t.Errorf("at ReadyUntil: %v", err)
	}
	if err := CheckReadyFor(r, until.Add(time.Millisecond), "RX_OTA_0001", p, 0); err == nil {
		t.Errorf("after ReadyUntil: passed")
	}
}

func TestCheckTXParams(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(tx *config.TX)
		want   []TXRule
	}{
		{"defaults", nil, nil},
		{"gain within the ceiling", func(tx *config.TX) { tx.MaxTXVGAGainDB, tx.TXVGAGainDB = 30, 30 }, nil},
		{"gain over the ceiling", func(tx *config.TX) { tx.MaxTXVGAGainDB, tx.TXVGAGainDB = 10, 11 }, []TXRule{TXRuleParamGain}},
		{"gain over the default ceiling of 0", func(tx *config.TX) { tx.TXVGAGainDB = 1 }, []TXRule{TXRuleParamGain}},
		{"negative gain", func(tx *config.TX) { tx.TXVGAGainDB = -1 }, []TXRule{TXRuleParamGain}},
		{"ceiling over 47", func(tx *config.TX) { tx.MaxTXVGAGainDB, tx.TXVGAGainDB = 48, 48 }, []TXRule{TXRuleParamMaxGain, TXRuleParamGain}},
		{"negative ceiling", func(tx *config.TX) { tx.MaxTXVGAGainDB = -1 }, []TXRule{TXRuleParamMaxGain, TXRuleParamGain}},
		{"amp with the default ceiling", func(tx *config.TX) { tx.Amp = true }, []TXRule{TXRuleParamAmp}},
		{"amp that just fits", func(tx *config.TX) { tx.Amp, tx.MaxTXVGAGainDB, tx.TXVGAGainDB = true, 20, 9 }, nil},
		{"amp one dB over", func(tx *config.TX) { tx.Amp, tx.MaxTXVGAGainDB, tx.TXVGAGainDB = true, 20, 10 }, []TXRule{TXRuleParamAmp}},
		{"frequency too low", func(tx *config.TX) { tx.FrequencyHz = 999_999 }, []TXRule{TXRuleParamFrequency}},
		{"frequency too high", func(tx *config.TX) { tx.FrequencyHz = 6_000_000_001 }, []TXRule{TXRuleParamFrequency}},
		{"sample rate too low", func(tx *config.TX) { tx.SampleRateHz = 1_999_999 }, []TXRule{TXRuleParamSampleRate}},
		{"sample rate too high", func(tx *config.TX) { tx.SampleRateHz = 20_000_001 }, []TXRule{TXRuleParamSampleRate}},
		{"zero duration", func(tx *config.TX) { tx.DurationS = 0 }, []TXRule{TXRuleParamDuration}},
		{"duration too long", func(tx *config.TX) { tx.DurationS = config.MaxTXDurationS + 1 }, []TXRule{TXRuleParamDuration}},
		{"unknown action", func(tx *config.TX) { tx.Action = "shell" }, []TXRule{TXRuleParamAction}},
		{"hackrf_transfer without iq_file", func(tx *config.TX) { tx.Action = config.TXActionHackRFTransfer }, []TXRule{TXRuleParamIQFile}},
		{"hackrf_transfer with iq_file", func(tx *config.TX) {
			tx.Action, tx.IQFile = config.TXActionHackRFTransfer, "tx/burst.ci8"
		}, nil},
		{"every problem at once", func(tx *config.TX) {
			tx.Action, tx.TXVGAGainDB, tx.Amp, tx.FrequencyHz, tx.SampleRateHz, tx.DurationS = config.TXActionHackRFTransfer, 5, true, 0, 0, 0
		}, []TXRule{TXRuleParamGain, TXRuleParamAmp, TXRuleParamFrequency, TXRuleParamSampleRate, TXRuleParamDuration, TXRuleParamIQFile}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := config.Default()
			if tt.mutate != nil {
				tt.mutate(&p.TX)
			}
			err := CheckTXParams(p)
			if got := failedTXRules(err); !slices.Equal(got, tt.want) {
				t.Fatalf("rules = %v, want %v (err: %v)", got, tt.want, err)
			}
			if (err == nil) != (len(tt.want) == 0) {
				t.Fatalf("err = %v", err)
			}
		})
	}
}

func TestFailedTXRulesOfOne(t *testing.T) {
	if got := failedTXRules(&tXCheckError{Rule: TXRuleFrequency}); !slices.Equal(got, []TXRule{TXRuleFrequency}) {
		t.Fatalf("got %v", got)
	}
	if got := failedTXRules(nil); got != nil {
		t.Fatalf("got %v", got)
	}
}

// With max_publication_age_s at its default 0 the age limit is the planned
// duration: the remaining-time check alone ends the window.
func TestReadyUntilDefaultAge(t *testing.T) {
	p := config.Default()
	r := readyResult()
	r.PublishedAt = r.CaptureStartedAt.Add(2 * time.Second)
	if got, want := ReadyUntil(r, p, 10*time.Second), CaptureEnd(r).Add(-20*time.Second); !got.Equal(want) {
		t.Errorf("ReadyUntil = %v, want the capture's end less 10 s + 10 s, %v", got, want)
	}
	// A READY published before its capture started is no older than the
	// planned duration either.
	r.PublishedAt = txNow.Add(-121 * time.Second)
	err := CheckReadyFor(r, txNow, "RX_OTA_0001", p, 0)
	if !slices.Equal(failedTXRules(err), []TXRule{TXRulePublicationAge}) || !strings.Contains(err.Error(), "planned_duration_s (120 s") {
		t.Errorf("a READY 121 s old under the default: %v", err)
	}
}

// failedTXRules lists the rule of every *tXCheckError in err, in order.
func failedTXRules(err error) []TXRule {
	var out []TXRule
	var merr *multierror.Error
	if errors.As(err, &merr) {
		for _, e := range merr.Errors {
			var ce *tXCheckError
			if errors.As(e, &ce) {
				out = append(out, ce.Rule)
			}
		}
		return out
	}
	var ce *tXCheckError
	if errors.As(err, &ce) {
		out = append(out, ce.Rule)
	}
	return out
}
