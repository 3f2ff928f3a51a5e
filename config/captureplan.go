package config

import (
	"path/filepath"

	"rfhandoff/captureplan"
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
