package config

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"rfhandoff/captureplan"
	"rfhandoff/errlist"
)

// CapturePlan is the one place capture parameters are computed
// (PROTOCOL#task-file, PROTOCOL#capture).
func (p Policy) CapturePlan() captureplan.Plan {
	c := p.Capture
	dir := p.CaptureDir()
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	return captureplan.Plan{
		FrequencyHz: c.FrequencyHz, SampleRateHz: c.SampleRateHz,
		LNAGainDB: c.LNAGainDB, VGAGainDB: c.VGAGainDB, Amp: c.Amp,
		AntennaPower:     false, // rfhandoff never passes hackrf_transfer -p
		PlannedDurationS: int64(p.Limits.PlannedDurationS),
		Dir:              dir, FreeMarginBytes: c.FreeMarginMB << 20,
	}
}

// CapturePlanFor takes the task's values where it sets them
// (PROTOCOL#task-file); one outside this node's range refuses the task.
func (p Policy) CapturePlanFor(t captureplan.Task) (captureplan.Plan, error) {
	plan := p.CapturePlan()
	if t.IsZero() {
		return plan, nil
	}
	c := p.Capture
	var errs []error
	outside := func(field string, v int64, key string, lo, hi int64) {
		errs = append(errs, fmt.Errorf("task field %s = %d is outside this node's %s (%d to %d): "+
			"the MAIN side writes a task within it (a new TASK_ID), or this node's operator widens %s",
			field, v, key, lo, hi, key))
	}
	if v := t.FrequencyHz; v != 0 {
		if r := c.FrequencyRangeHz; len(r) == 2 && (v < r[0] || v > r[1]) {
			outside(captureplan.FieldFrequencyHz, v, "capture.frequency_range_hz", r[0], r[1])
		}
		plan.FrequencyHz = v
	}
	if v := t.SampleRateHz; v != 0 {
		if v > c.MaxSampleRateHz {
			outside(captureplan.FieldSampleRateHz, v, "capture.max_sample_rate_hz", MinSampleRateHz, c.MaxSampleRateHz)
		}
		plan.SampleRateHz = v
	}
	if v := t.DurationS; v != 0 {
		if v > c.MaxDurationS {
			outside(captureplan.FieldDurationS, v, "capture.max_duration_s", minPlannedDurationS, c.MaxDurationS)
		}
		plan.PlannedDurationS = v
	}
	if t.SyncMode != "" {
		if !slices.Contains(p.Sync.AllowedModes, t.SyncMode) {
			errs = append(errs, fmt.Errorf("task field %s = %s is not in this node's sync.allowed_modes %s: "+
				"the MAIN side writes a task with an allowed mode (a new TASK_ID), or this node's operator adds %s to sync.allowed_modes",
				captureplan.FieldSyncMode, t.SyncMode, modeList(p.Sync.AllowedModes), t.SyncMode))
		}
		plan.Sync = &captureplan.Sync{StartAt: t.StartAt.UTC(), Mode: t.SyncMode}
		switch t.SyncMode {
		case captureplan.SyncHostClock:
			plan.Sync.MaxHostClockBoundS = p.Sync.MaxHostClockBoundS
		case captureplan.SyncPPS:
			plan.Sync.PPSArmMarginS = p.Sync.PPSArmMarginS
			plan.Sync.PPSErrorS = p.Sync.PPSErrorS
		}
	}
	if len(errs) > 0 {
		return captureplan.Plan{}, errlist.List(errs...)
	}
	plan.Task = &t
	return plan, nil
}

func modeList(m []string) string {
	if len(m) == 0 {
		return "[] (no scheduled task runs here)"
	}
	return "[" + strings.Join(m, ", ") + "]"
}

// CheckStartAt refuses a START_AT less than sync.min_lead_s ahead of now
// (PROTOCOL#task-file).
func (p Policy) CheckStartAt(t captureplan.Task, now time.Time) error {
	if t.StartAt.IsZero() {
		return nil
	}
	now = now.UTC()
	lead := t.StartAt.Sub(now)
	need := time.Duration(p.Sync.MinLeadS) * time.Second
	if lead >= need {
		return nil
	}
	at := t.StartAt.UTC().Format(captureplan.StartAtLayout)
	judged := now.Truncate(time.Millisecond).Format(time.RFC3339Nano)
	redo := fmt.Sprintf("a missed START_AT is never run: the MAIN side writes a new task with a new TASK_ID and a START_AT at least %d s ahead "+
		"(`rfhandoff task new NEW_TASK_ID ... --start-at YYYY-MM-DDTHH:MM:SSZ --sync %s`)", p.Sync.MinLeadS, t.SyncMode)
	if lead <= 0 {
		return fmt.Errorf("task field %s = %s is past: %s ago at %s by this node's clock; %s",
			captureplan.FieldStartAt, at, (-lead).Round(time.Millisecond), judged, redo)
	}
	return fmt.Errorf("task field %s = %s is only %s ahead at %s by this node's clock, under this node's sync.min_lead_s (%d s); %s, or this node's operator lowers sync.min_lead_s",
		captureplan.FieldStartAt, at, lead.Round(time.Millisecond), judged, p.Sync.MinLeadS, redo)
}
