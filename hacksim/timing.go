package hacksim

import (
	"fmt"
	"strconv"
	"time"
)

// The environment of the simulator's time keeping (doc.go, "Time";
// PROTOCOL#simulator).
const (
	// TriggerEnv is what the trigger input of -H sees: pps, none or ignore.
	TriggerEnv = "HACKRF_SIM_TRIGGER"
	// PPSOffsetEnv is the host clock minus true time, in nanoseconds.
	PPSOffsetEnv = "HACKRF_SIM_PPS_OFFSET_NS"
	// DelayEnv is added to HACKRF_SIM_ONAIR's delay_ms, in nanoseconds;
	// set, the on-air burst heard is the chirp instead of the tone.
	DelayEnv = "HACKRF_SIM_DELAY_NS"
)

// maxPPSOffset and maxDelay bound the two durations to what a lab meets
// (a clock a day off is not synchronised at all).
const (
	maxPPSOffset = 24 * time.Hour
	maxDelay     = 60 * time.Second
)

// timing is the parsed TriggerEnv, PPSOffsetEnv and DelayEnv.
type timing struct {
	trigger   string         // pps ("" too), none or ignore
	ppsOffset time.Duration  // host clock − true time
	delayNS   *time.Duration // nil: unset, the on-air burst is the tone
}

// parseTiming reads the three variables, returning a problem for every bad one.
func (t *timing) parseTiming(env func(string) string) []string {
	var probs []string
	if v := env(TriggerEnv); v != "" {
		if v != "pps" && v != "none" && v != "ignore" {
			probs = append(probs, fmt.Sprintf("%s=%q: want pps, none or ignore", TriggerEnv, v))
		}
		t.trigger = v
	}
	if v := env(PPSOffsetEnv); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n > int64(maxPPSOffset) || n < -int64(maxPPSOffset) {
			probs = append(probs, fmt.Sprintf("%s=%q: want a signed whole number of nanoseconds within ±%d (24 h)", PPSOffsetEnv, v, int64(maxPPSOffset)))
		}
		t.ppsOffset = time.Duration(n)
	}
	if v := env(DelayEnv); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 || n > int64(maxDelay) {
			probs = append(probs, fmt.Sprintf("%s=%q: want a whole number of nanoseconds from 0 to %d (60 s)", DelayEnv, v, int64(maxDelay)))
		}
		d := time.Duration(n)
		t.delayNS = &d
	}
	return probs
}

// trueTime is the true time at which this node's host clock reads host.
func (t timing) trueTime(host time.Time) time.Time { return host.Add(-t.ppsOffset) }

// nextEdge is, by the host clock, the first PPS edge strictly after
// armed (a host-clock time): the next whole second of true time.
func (t timing) nextEdge(armed time.Time) time.Time {
	edge := t.trueTime(armed).Truncate(time.Second).Add(time.Second)
	return edge.Add(t.ppsOffset)
}
