package hacksim

import (
	"fmt"
	"strconv"
	"time"
)

// The environment of the simulator's time keeping (PROTOCOL#simulator):
// what the trigger input of hackrf_transfer -H sees, how far this node's
// host clock is off true time, and how much later than the emission this
// node hears the on-air burst, at nanosecond resolution.
const (
	// TriggerEnv: "pps" (the default: a rising edge at every whole second
	// of true time), "none" (nothing connected: no edge ever) or "ignore"
	// (firmware that ignores -H: data at once, greatscottgadgets/hackrf
	// #1292).
	TriggerEnv = "HACKRF_SIM_TRIGGER"
	// PPSOffsetEnv: a signed decimal number of nanoseconds, the host clock
	// minus true time; this node's PPS edges fall at its host clock's whole
	// seconds plus it.
	PPSOffsetEnv = "HACKRF_SIM_PPS_OFFSET_NS"
	// DelayEnv: a decimal number of nanoseconds from 0 to 60 s, added to
	// HACKRF_SIM_ONAIR's delay_ms; set, the on-air burst this node hears is
	// the chirp (chirp.go) instead of the tone.
	DelayEnv = "HACKRF_SIM_DELAY_NS"
)

// trigger is what the board's trigger input sees under -H.
type trigger int

const (
	triggerPPS trigger = iota
	triggerNone
	triggerIgnore
)

var triggerNames = map[string]trigger{"pps": triggerPPS, "none": triggerNone, "ignore": triggerIgnore}

// maxPPSOffset and maxDelay bound the two durations to what a lab meets
// (a clock a day off is not synchronised at all).
const (
	maxPPSOffset = 24 * time.Hour
	maxDelay     = 60 * time.Second
)

// timing is the parsed TriggerEnv, PPSOffsetEnv and DelayEnv.
type timing struct {
	trigger   trigger
	ppsOffset time.Duration  // host clock − true time
	delayNS   *time.Duration // nil: unset, the on-air burst is the tone
}

// parseTiming reads the three variables, returning a problem for every bad one.
func (t *timing) parseTiming(env func(string) string) []string {
	var probs []string
	if v := env(TriggerEnv); v != "" {
		tr, ok := triggerNames[v]
		if !ok {
			probs = append(probs, fmt.Sprintf("%s=%q: want pps, none or ignore", TriggerEnv, v))
		}
		t.trigger = tr
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
