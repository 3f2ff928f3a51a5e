package result

import "rfhandoff/strictjson"

// The READY and COMPLETE columns of the PROTOCOL#result table. A key that
// failed its type check is not checked again, so each problem is reported once.

// liveFlags must be true in READY; the first three false in COMPLETE.
var liveFlags = []string{"rx_ready_for_tx", "process_alive", "file_growing", "common_clock_verified"}

// finals are null while READY, and for COMPLETE required unless mayBeNull
// (the tool may not have reported it).
var (
	finals = []string{"capture_ended_at", "capture_exit_code", "capture_size_bytes", "capture_duration_s",
		"capture_sha256", "overruns", "dropped_frames", "clkin_after", "rf_tx_observed"}
	mayBeNull = map[string]bool{"overruns": true, "dropped_frames": true}
)

func checkState(m members, r *Result, good map[string]bool, p *problems) {
	if !good["state"] {
		return
	}
	val := func(k string) value { return m.Values[k][0] }
	switch r.State {
	case StateReady:
		for _, k := range liveFlags {
			if good[k] && !val(k).Bool {
				p.add(k, ruleState, "must be true when state is %s", StateReady)
			}
		}
		for _, k := range finals {
			if good[k] && val(k).Kind != strictjson.Null {
				p.add(k, ruleState, "must be null when state is %s (the capture has not ended)", StateReady)
			}
		}
	case StateComplete:
		for _, k := range liveFlags[:3] {
			if good[k] && val(k).Bool {
				p.add(k, ruleState, "must be false when state is %s", StateComplete)
			}
		}
		for _, k := range finals {
			if good[k] && !mayBeNull[k] && val(k).Kind == strictjson.Null {
				p.add(k, ruleState, "must not be null when state is %s", StateComplete)
			}
		}
	}
}
