package demo

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"rfhandoff/captureplan"
	"rfhandoff/hacksim"
	"rfhandoff/internal/chronystandin"
)

// A scheduled demo (--sync pps|host): every node's simulator keeps time
// like a node with a GPSDO whose host clock is off true time by its own
// offset, reported by a chronyc stand-in on its PATH, and sits its own
// distance from the transmitter. After COMPLETE the demo proves the
// alignment by the signal (proof.go).

// ParseSync reads --sync: "pps" or "host" (any case), or the SYNC_MODE
// itself; it returns the SYNC_MODE.
func ParseSync(s string) (string, error) {
	switch strings.ToLower(s) {
	case "pps":
		return captureplan.SyncPPS, nil
	case "host", "host_clock":
		return captureplan.SyncHostClock, nil
	}
	return "", fmt.Errorf("--sync %q: the demo runs a scheduled capture with --sync pps (every node arms hackrf_transfer -H for the 1PPS edge at START_AT) "+
		"or --sync host (every node starts by its chrony-corrected host clock); leave --sync out for today's unscheduled demo", s)
}

// syncMinLeadS is the nodes' sync.min_lead_s: small, so that the captures
// need not wait long after the last approval.
const syncMinLeadS = 5

// approvalAllowance is how long the demo gives each node for rx check and
// rx approve: START_AT is written with the task because the approval
// binds the task's bytes. A loaded two-core machine starts each child
// slowly; a person reads the task and types A.
func approvalAllowance(auto bool) time.Duration {
	if auto {
		return 10 * time.Second
	}
	return 2 * time.Minute
}

// startIn is task new's --start-in: every node's check and approval, then
// min_lead_s before START_AT (the "START_AT too close" rule applies at rx
// capture too).
func startIn(auto bool, nodes int) time.Duration {
	return time.Duration(nodes)*approvalAllowance(auto) + (syncMinLeadS+5)*time.Second
}

// Per-node clocks and distances: node i's host clock is syncOffsets[i]
// ahead of true time and it hears the transmitter syncDelaysNS[i] after
// it is sent (137 ns is 41 m, a quarter of a sample at 2 Msps). PPS needs
// a host clock good only to a fraction of a second: large offsets. A
// HOST_CLOCK node's clock is its start's error, and chrony counts the
// offset into the bound: a tenth, a host on a LAN NTP server.
var (
	syncOffsets = []time.Duration{0, 120 * time.Millisecond, -250 * time.Millisecond, 40 * time.Millisecond,
		-75 * time.Millisecond, 10 * time.Millisecond, -180 * time.Millisecond, 200 * time.Millisecond}
	syncDelaysNS = []int64{0, 137, 512, 250, 733, 61, 900, 1021}
)

const hostClockScale = 10

// syncMaxHostClockBoundS is the nodes' sync.max_host_clock_bound_s, the
// largest the policy allows: the bound is chrony's plus one USB block, and
// aligned needs the start's miss from START_AT within it too. The capture
// aims with a real hackrf_transfer's start-up (150 ms); the simulator,
// started by three nodes at once on a loaded two-core machine, took 0.5 to
// 0.6 s more. The proof holds the measured lags to the reported bounds.
const syncMaxHostClockBoundS = 1.0

// The stand-in's root delay and dispersion: a good NTP server on the LAN.
const (
	chronyDelay      = 2 * time.Millisecond
	chronyDispersion = 500 * time.Microsecond
)

// makeClocks gives every node its clock and distance and writes the
// chronyc stand-in (one for all: it reports HACKRF_SIM_PPS_OFFSET_NS).
func (sb *Sandbox) makeClocks() error {
	for i, n := range sb.nodes {
		n.PPSOffset, n.DelayNS = syncOffsets[i], syncDelaysNS[i]
		if sb.Sync == captureplan.SyncHostClock {
			n.PPSOffset /= hostClockScale
		}
		n.DelayMS = 0 // the distance is DelayNS; the clocks' offsets do the rest
	}
	sb.Clock = filepath.Join(sb.Root, "clock")
	if err := os.Mkdir(sb.Clock, 0o755); err != nil {
		return err
	}
	_, err := chronystandin.Write(sb.Clock, chronystandin.Chrony{RootDelay: chronyDelay, RootDispersion: chronyDispersion})
	return err
}

// syncEnv adds node n's 1PPS, clock offset and distance to env, and the
// chronyc stand-in first on PATH.
func (sb *Sandbox) syncEnv(env []string, n *rxNode) []string {
	var out []string
	path := sb.Clock
	for _, kv := range env {
		if k, v, _ := strings.Cut(kv, "="); k == "PATH" {
			if v != "" {
				path += string(os.PathListSeparator) + v
			}
			continue
		}
		out = append(out, kv)
	}
	return append(out, "PATH="+path,
		hacksim.TriggerEnv+"=pps",
		hacksim.PPSOffsetEnv+"="+strconv.FormatInt(n.PPSOffset.Nanoseconds(), 10),
		hacksim.DelayEnv+"="+strconv.FormatInt(n.DelayNS, 10))
}

// maxBehind is how far the most-behind node's host clock lags true time:
// the on-air start must lie that much further ahead, or that node's
// simulator has streamed past it before reading the file.
func (sb *Sandbox) maxBehind() time.Duration {
	var m time.Duration
	for _, n := range sb.nodes {
		m = max(m, -n.PPSOffset)
	}
	return m
}

func (d *runner) describeSync() {
	d.say("Scheduled capture (--sync %s): the task carries CAPTURE_DURATION_S = %d, START_AT about %s",
		strings.ToLower(strings.TrimSuffix(d.o.Sync, "_CLOCK")), d.o.Timing.PlannedS, startIn(d.o.Auto, len(d.sb.nodes)))
	d.say("after the task is written (time for every node's check and approval, then their sync.min_lead_s = %d s),", syncMinLeadS)
	d.say("and SYNC_MODE = %s. Each node's simulator has a GPSDO's 1PPS on its trigger input", d.o.Sync)
	d.say("(HACKRF_SIM_TRIGGER=pps), a host clock off true time (HACKRF_SIM_PPS_OFFSET_NS, reported by")
	d.say("a chronyc stand-in in %s), and its own distance from the transmitter (HACKRF_SIM_DELAY_NS):", d.sb.Clock)
	for _, n := range d.sb.nodes {
		d.say("  %s: host clock %+d ms off true time, %d ns from the transmitter", n.Side, n.PPSOffset.Milliseconds(), n.DelayNS)
	}
}
