package config

import (
	"fmt"
	"path/filepath"

	"rfhandoff/captureplan"
	"rfhandoff/errlist"
)

// CapturePlan is the effective capture of this policy: the one place
// where capture parameters are computed (PROTOCOL#task-file, PROTOCOL#capture). The approval
// prompt shows it, the approval binds it and rx capture runs it.
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

// CapturePlanFor is the effective capture of a task asking t of this
// node (PROTOCOL#task-file): the task's CAPTURE_* values where it sets
// them, this policy's everywhere else. A task value outside this node's
// allowed range refuses the task: the error names every such field, its
// value, the policy key and its range.
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
	if len(errs) > 0 {
		return captureplan.Plan{}, errlist.List(errs...)
	}
	plan.Task = &t
	return plan, nil
}
