package result

// The READY and COMPLETE columns of the PROTOCOL#result table, applied after every
// key has its type. A key that failed its type check is not checked again
// here, so each problem is reported once.

// flag is one of the live-capture booleans.
type liveFlag struct {
	key string
	get func(*Result) bool
}

// flags are the booleans READY requires true; COMPLETE requires the first
// three false and leaves common_clock_verified free.
var flags = []liveFlag{
	{"rx_ready_for_tx", func(r *Result) bool { return r.RXReadyForTX }},
	{"process_alive", func(r *Result) bool { return r.ProcessAlive }},
	{"file_growing", func(r *Result) bool { return r.FileGrowing }},
	{"common_clock_verified", func(r *Result) bool { return r.CommonClockVerified }},
}

// final is a capture outcome: null while READY, and for COMPLETE required
// unless the tool may not have reported it.
type final struct {
	key              string
	optionalComplete bool
	isNull           func(*Result) bool
}

var finals = []final{
	{"capture_ended_at", false, func(r *Result) bool { return r.CaptureEndedAt == nil }},
	{"capture_exit_code", false, func(r *Result) bool { return r.CaptureExitCode == nil }},
	{"capture_size_bytes", false, func(r *Result) bool { return r.CaptureSizeBytes == nil }},
	{"capture_duration_s", false, func(r *Result) bool { return r.CaptureDurationS == nil }},
	{"capture_sha256", false, func(r *Result) bool { return r.CaptureSHA256 == nil }},
	{"overruns", true, func(r *Result) bool { return r.Overruns == nil }},
	{"dropped_frames", true, func(r *Result) bool { return r.DroppedFrames == nil }},
	{"clkin_after", false, func(r *Result) bool { return r.ClkinAfter == nil }},
	{"rf_tx_observed", false, func(r *Result) bool { return r.RFTXObserved == nil }},
}

// checkState applies the rules of r.State to the keys in good (present once
// and well typed).
func checkState(r *Result, good map[string]bool, p *problems) {
	if !good["state"] {
		return
	}
	switch r.State {
	case StateReady:
		for _, f := range flags {
			if good[f.key] && !f.get(r) {
				p.add(f.key, ruleState, "must be true when state is %s", StateReady)
			}
		}
		for _, f := range finals {
			if good[f.key] && !f.isNull(r) {
				p.add(f.key, ruleState, "must be null when state is %s (the capture has not ended)", StateReady)
			}
		}
	case StateComplete:
		for _, f := range flags[:3] {
			if good[f.key] && f.get(r) {
				p.add(f.key, ruleState, "must be false when state is %s", StateComplete)
			}
		}
		for _, f := range finals {
			if good[f.key] && !f.optionalComplete && f.isNull(r) {
				p.add(f.key, ruleState, "must not be null when state is %s", StateComplete)
			}
		}
	}
}
