package config

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"rfhandoff/captureplan"
	"rfhandoff/errlist"
	"rfhandoff/ident"
)

// Bounds of [sync]: a lead long enough for rx capture's checks, a bound no
// host clock can beat (1 µs) nor need exceed (1 s: the nodes would not share
// a second), an arming margin inside the second before the edge.
const (
	minSyncLeadS         = 2
	maxSyncLeadS         = 3600
	minHostClockBoundS   = 1e-6
	maxHostClockBoundS   = 1.0
	minPPSArmMarginS     = 0.1
	maxPPSArmMarginS     = 0.9
	maxPPSErrorS         = 0.001
	syncModesDescription = "HOST_CLOCK or PPS"
)

// Bounds of the policy values: hardware ranges, or sanity bounds that catch
// typos (a publication age of an hour is a mistake, not a policy).
const (
	minPlannedDurationS = captureplan.MinDurationS
	maxPlannedDurationS = captureplan.MaxDurationS
	maxMinRemainingS    = 3600
	maxPublicationAgeS  = maxPlannedDurationS // 0 is "the planned duration" (Limits.PublicationAge)
	maxClockSkewS       = 60
	maxPublishAttempts  = 10
	// A PPS bound is about one sample period (50 ns at 20 Msps) plus cable delay.
	minAlignmentBoundS   = 0.000001
	maxAlignmentBoundS   = 1.0
	maxPollDuration      = 24 * time.Hour
	MinFrequencyHz       = captureplan.MinFrequencyHz
	MaxFrequencyHz       = captureplan.MaxFrequencyHz
	MinSampleRateHz      = captureplan.MinSampleRateHz
	MaxSampleRateHz      = captureplan.MaxSampleRateHz
	maxLNAGainDB         = 40 // -l, steps of 8
	maxVGAGainDB         = 62 // -g, steps of 2
	MaxTXVGAGainDB       = 47 // -x, steps of 1
	maxDetectThresholdDB = 100
	maxFreeMarginMB      = 1 << 20 // 1 TiB
	// Averaged over the quick-look's 64 frames per row, noise alone rises up
	// to about 3 dB over its floor (quicklook.MaxFramesPerRow).
	minDetectThresholdDB   = 6
	MaxTXDurationS         = 3600
	TXActionFake           = "fake"
	TXActionHackRFTransfer = "hackrf_transfer"
)

// problems collects every invalid value so Validate reports all at once.
type problems []error

func (ps *problems) add(key string, v any, format string, args ...any) {
	*ps = append(*ps, fieldError(key, v, fmt.Sprintf(format, args...)))
}

func (ps *problems) check(key string, v any, err error) {
	if err != nil {
		ps.add(key, v, "%v", err)
	}
}

func (ps *problems) intRange(key string, v, lo, hi int64, why string) {
	if v < lo || v > hi {
		ps.add(key, v, "must be %d to %d%s", lo, hi, why)
	}
}

// seconds is intRange for float seconds; NaN is out of range.
func (ps *problems) seconds(key string, v, lo, hi float64, why string) {
	if !(v >= lo && v <= hi) {
		ps.add(key, v, "must be from %g to %g seconds%s", lo, hi, why)
	}
}

// Validate returns every invalid value at once (a *multierror.Error), or nil.
func (p Policy) Validate() error {
	var ps problems
	for _, validate := range []func(*problems){
		p.validateRepo, p.validatePoll, p.validateLimits, p.validatePaths, p.validateCapture,
		p.validateTX, p.validateTrust, p.validateNotify, p.validateNodes, p.validateSync,
	} {
		validate(&ps)
	}
	return errlist.List(ps...)
}

func (p Policy) validateRepo(ps *problems) {
	r := p.Repo
	if r.Path == "" {
		ps.add("repo.path", r.Path, "must not be empty (use \".\" for the current directory)")
	} else if err := checkText(r.Path); err != nil {
		ps.add("repo.path", r.Path, "%v", err)
	} else if !filepath.IsAbs(r.Path) && r.Path[0] == '-' {
		ps.add("repo.path", r.Path, "must not start with '-'")
	} else if err := checkDriveRelative(r.Path); err != nil {
		ps.add("repo.path", r.Path, "%v", err)
	}
	ps.check("repo.remote", r.Remote, checkRemote(r.Remote))
	if r.URL != "" {
		ps.check("repo.url", r.URL, checkRemoteURL(r.URL))
	}
	ps.check("repo.task_branch", r.TaskBranch, checkBranch(r.TaskBranch))
	ps.check("repo.result_branch", r.ResultBranch, checkBranch(r.ResultBranch))
	if r.TaskBranch != "" && r.TaskBranch == r.ResultBranch {
		ps.add("repo.result_branch", r.ResultBranch, "must differ from repo.task_branch (results are never pushed to the task branch)")
	}
	ps.check("repo.task_file", r.TaskFile, checkRepoPath(r.TaskFile))
	ps.check("repo.result_dir", r.ResultDir, checkRepoPath(r.ResultDir))
	ps.check("repo.state_dir", r.StateDir, checkLocalPath(r.StateDir))
}

func (p Policy) validatePoll(ps *problems) {
	for _, d := range []struct {
		key string
		v   Duration
	}{
		{"poll.rx_interval", p.Poll.RXInterval},
		{"poll.tx_interval", p.Poll.TXInterval},
		{"poll.git_timeout", p.Poll.GitTimeout},
		{"poll.max_backoff", p.Poll.MaxBackoff},
	} {
		if d.v.Duration <= 0 || d.v.Duration > maxPollDuration {
			ps.add(d.key, d.v, "must be positive and at most %s", maxPollDuration)
		}
	}
	mb := p.Poll.MaxBackoff.Duration
	if mb > 0 && (mb < p.Poll.RXInterval.Duration || mb < p.Poll.TXInterval.Duration) {
		ps.add("poll.max_backoff", p.Poll.MaxBackoff, "must be at least poll.rx_interval (%s) and poll.tx_interval (%s)",
			p.Poll.RXInterval.Duration, p.Poll.TXInterval.Duration)
	}
}

func (p Policy) validateLimits(ps *problems) {
	l := p.Limits
	ps.intRange("limits.max_task_bytes", l.MaxTaskBytes, 1, protocolMaxTaskBytes, " (64 KiB is the protocol's most)")
	ps.intRange("limits.max_result_bytes", l.MaxResultBytes, 1, protocolMaxResultBytes, " (64 KiB is the protocol's most)")
	ps.intRange("limits.planned_duration_s", int64(l.PlannedDurationS), minPlannedDurationS, maxPlannedDurationS, "")
	switch {
	case l.MinRemainingS < protocolMinRemainingS:
		ps.add("limits.min_remaining_s", l.MinRemainingS, "must be at least %d (the protocol minimum; a policy may only tighten it)", protocolMinRemainingS)
	case l.MinRemainingS > maxMinRemainingS:
		ps.add("limits.min_remaining_s", l.MinRemainingS, "must be at most %d", maxMinRemainingS)
	}
	ps.intRange("limits.max_publication_age_s", int64(l.MaxPublicationAgeS), 0, maxPublicationAgeS, " (0: planned_duration_s)")
	ps.intRange("limits.max_clock_skew_s", int64(l.MaxClockSkewS), 0, maxClockSkewS, "")
	ps.intRange("limits.publish_attempts", int64(l.PublishAttempts), 1, maxPublishAttempts, "")
	ps.seconds("limits.max_alignment_bound_s", l.MaxAlignmentBoundS, minAlignmentBoundS, maxAlignmentBoundS,
		" (the largest alignment bound_s of a node's READY tx watch offers, e.g. 0.1)")
}

func (p Policy) validatePaths(ps *problems) {
	ps.check("audit.path", p.Audit.Path, checkLocalPath(p.Audit.Path))
	for _, t := range []struct {
		key, v string
		cmd    bool // run by git's shell (PROTOCOL#subprocesses): one line of text
	}{
		{"tools.git", p.Tools.Git, false},
		{"tools.hackrf_info", p.Tools.HackRFInfo, false},
		{"tools.hackrf_transfer", p.Tools.HackRFTransfer, false},
		{"tools.hackrf_clock", p.Tools.HackRFClock, false},
		{"tools.ssh_keygen", p.Tools.SSHKeygen, false},
		{"tools.ssh_command", p.Tools.SSHCommand, true},
		{"tools.git_credential_helper", p.Tools.GitCredentialHelper, true},
	} {
		switch err := checkText(t.v); {
		case err != nil:
			ps.add(t.key, t.v, "%v", err)
		case t.cmd && t.v != strings.TrimSpace(t.v):
			ps.add(t.key, t.v, "must not start or end with a space")
		case !t.cmd && t.v != "" && (!filepath.IsAbs(t.v) || filepath.Clean(t.v) != t.v): // "": looked up on PATH
			ps.add(t.key, t.v, "must be empty (look up on PATH) or a clean absolute path")
		}
	}
}

func (p Policy) validateCapture(ps *problems) {
	c := p.Capture
	ps.intRange("capture.frequency_hz", c.FrequencyHz, MinFrequencyHz, MaxFrequencyHz, " (the HackRF One's range)")
	ps.intRange("capture.sample_rate_hz", c.SampleRateHz, MinSampleRateHz, MaxSampleRateHz, "")
	if c.LNAGainDB < 0 || c.LNAGainDB > maxLNAGainDB || c.LNAGainDB%8 != 0 {
		ps.add("capture.lna_gain_db", c.LNAGainDB, "must be 0 to %d in steps of 8", maxLNAGainDB)
	}
	if c.VGAGainDB < 0 || c.VGAGainDB > maxVGAGainDB || c.VGAGainDB%2 != 0 {
		ps.add("capture.vga_gain_db", c.VGAGainDB, "must be 0 to %d in steps of 2", maxVGAGainDB)
	}
	if c.Serial != "" && !ident.Serial.MatchString(c.Serial) {
		ps.add("capture.serial", c.Serial, "must be empty (any HackRF) or 1 to 32 lowercase hex digits as hackrf_info prints them")
	}
	ps.check("capture.dir", c.Dir, checkLocalPath(c.Dir))
	if !(c.DetectThresholdDB >= minDetectThresholdDB && c.DetectThresholdDB <= maxDetectThresholdDB) {
		ps.add("capture.detect_threshold_db", c.DetectThresholdDB, "must be from %d (below that, noise alone can read as a burst) to %d", minDetectThresholdDB, maxDetectThresholdDB)
	}
	ps.intRange("capture.free_margin_mb", c.FreeMarginMB, 0, maxFreeMarginMB, "")
	if r := c.FrequencyRangeHz; len(r) != 2 || r[0] < MinFrequencyHz || r[1] > MaxFrequencyHz || r[0] > r[1] {
		ps.add("capture.frequency_range_hz", r, "must be [lowest, highest] with %d <= lowest <= highest <= %d (the HackRF One's range)", int64(MinFrequencyHz), int64(MaxFrequencyHz))
	}
	ps.intRange("capture.max_sample_rate_hz", c.MaxSampleRateHz, MinSampleRateHz, MaxSampleRateHz, "")
	ps.intRange("capture.max_duration_s", c.MaxDurationS, minPlannedDurationS, maxPlannedDurationS, "")
	maxMin := float64(p.Limits.PlannedDurationS)
	if !(c.DetectMinS > 0 && c.DetectMinS <= math.Max(maxMin, 1)) {
		ps.add("capture.detect_min_s", c.DetectMinS, "must be above 0 and at most limits.planned_duration_s (%d)", p.Limits.PlannedDurationS)
	}
}

func (p Policy) validateSync(ps *problems) {
	s := p.Sync
	ps.intRange("sync.min_lead_s", int64(s.MinLeadS), minSyncLeadS, maxSyncLeadS,
		" (seconds START_AT must be ahead at approval and at rx capture; under 2 s rx capture's checks could not finish before it)")
	ps.seconds("sync.max_host_clock_bound_s", s.MaxHostClockBoundS, minHostClockBoundS, maxHostClockBoundS,
		" (the largest start error bound HOST_CLOCK accepts, e.g. 0.010; over 1 s the nodes would not share a second)")
	ps.seconds("sync.pps_arm_margin_s", s.PPSArmMarginS, minPPSArmMarginS, maxPPSArmMarginS, fmt.Sprintf(": PPS arms inside the one second before the START_AT edge "+
		"(from 1 s the edge before it would start the capture), leaving hackrf_transfer at least %g s to arm", minPPSArmMarginS))
	ps.seconds("sync.pps_error_s", s.PPSErrorS, 0, maxPPSErrorS,
		": the 1PPS edge's own error from true time (a locked GPSDO's is tens of nanoseconds, e.g. 0.0000001)")
	seen := map[string]bool{}
	for _, m := range s.AllowedModes {
		switch {
		case !slices.Contains(captureplan.SyncModes, m):
			ps.add("sync.allowed_modes", s.AllowedModes, "holds %q: each must be %s ([] refuses every task with START_AT)", m, syncModesDescription)
		case seen[m]:
			ps.add("sync.allowed_modes", s.AllowedModes, "names %q twice: name each mode once", m)
		}
		seen[m] = true
	}
}

func (p Policy) validateTX(ps *problems) {
	t := p.TX
	switch t.Action {
	case TXActionFake, TXActionHackRFTransfer:
	default:
		ps.add("tx.action", t.Action, "must be %q or %q", TXActionFake, TXActionHackRFTransfer)
	}
	if t.IQFile != "" {
		ps.check("tx.iq_file", t.IQFile, checkLocalPath(t.IQFile))
	} else if t.Enabled && t.Action == TXActionHackRFTransfer {
		ps.add("tx.iq_file", t.IQFile, "must name the IQ file to send when tx.enabled = true and tx.action = %q", TXActionHackRFTransfer)
	}
	ps.intRange("tx.frequency_hz", t.FrequencyHz, MinFrequencyHz, MaxFrequencyHz, " (the HackRF One's range)")
	ps.intRange("tx.sample_rate_hz", t.SampleRateHz, MinSampleRateHz, MaxSampleRateHz, "")
	ps.intRange("tx.max_tx_vga_gain_db", int64(t.MaxTXVGAGainDB), 0, MaxTXVGAGainDB, "")
	ps.intRange("tx.tx_vga_gain_db", int64(t.TXVGAGainDB), 0, MaxTXVGAGainDB, "")
	if t.TXVGAGainDB > t.MaxTXVGAGainDB {
		ps.add("tx.tx_vga_gain_db", t.TXVGAGainDB, "must not exceed tx.max_tx_vga_gain_db (%d)", t.MaxTXVGAGainDB)
	}
	ps.intRange("tx.duration_s", int64(t.DurationS), 1, MaxTXDurationS, "")
}

// ValidateMAIN checks that the MAIN-only keys fit in
// limits.planned_duration_s. Validate leaves it out so that such a mistake
// never stops an RX command; it assumes Validate passed, so one mistake is
// reported once.
func (p Policy) ValidateMAIN() error {
	var ps problems
	l, t := p.Limits, p.TX
	if l.MinRemainingS >= l.PlannedDurationS {
		ps.add("limits.min_remaining_s", l.MinRemainingS,
			"must be less than limits.planned_duration_s (%d), or no transmission could ever be authorized", l.PlannedDurationS)
	} else if t.DurationS+l.MinRemainingS > l.PlannedDurationS {
		ps.add("tx.duration_s", t.DurationS, "plus limits.min_remaining_s (%d) exceeds limits.planned_duration_s (%d): no transmission could ever run",
			l.MinRemainingS, l.PlannedDurationS)
	}
	return errlist.List(ps...)
}
