package config

import (
	"fmt"
	"math"
	"strings"
	"time"

	"rfhandoff/captureplan"
)

// Policy is the whole policy file.
type Policy struct {
	Repo    Repo    `toml:"repo"`
	Poll    Poll    `toml:"poll"`
	Limits  Limits  `toml:"limits"`
	Audit   Audit   `toml:"audit"`
	Tools   Tools   `toml:"tools"`
	Capture Capture `toml:"capture"`
	TX      TX      `toml:"tx"`
	Trust   Trust   `toml:"trust"`
	Notify  Notify  `toml:"notify"`
	Clock   Clock   `toml:"clock"`
	Sync    Sync    `toml:"sync"`
	// Node names this RX node on a multi-node task (PROTOCOL#several-nodes).
	Node Node `toml:"node,omitempty"`
	// Nodes lists every RX node, on the MAIN PC (PROTOCOL#several-nodes).
	Nodes []MainNode `toml:"nodes,omitempty"`
}

// Repo names the checkout, remote, branches and paths.
type Repo struct {
	Path   string `toml:"path"`
	Remote string `toml:"remote"`
	// URL, when set, is the remote's URL for every fetch, push and clone
	// (and its transport the only one git may use); the checkout's remote
	// config is then never read. Empty: the checkout's remote.<remote>.url,
	// used only when git would use exactly it (PROTOCOL#subprocesses).
	URL          string `toml:"url"`
	TaskBranch   string `toml:"task_branch"`
	ResultBranch string `toml:"result_branch"`
	TaskFile     string `toml:"task_file"`
	ResultDir    string `toml:"result_dir"`
	StateDir     string `toml:"state_dir"`
}

// Poll holds the watchers' timing.
type Poll struct {
	RXInterval Duration `toml:"rx_interval"`
	TXInterval Duration `toml:"tx_interval"`
	GitTimeout Duration `toml:"git_timeout"`
	MaxBackoff Duration `toml:"max_backoff"`
}

// Limits are the protocol's limits; a policy may only tighten them.
type Limits struct {
	MaxTaskBytes     int64 `toml:"max_task_bytes"`
	MaxResultBytes   int64 `toml:"max_result_bytes"`
	PlannedDurationS int   `toml:"planned_duration_s"`
	MinRemainingS    int   `toml:"min_remaining_s"`
	// MaxPublicationAgeS is how old a READY may be; 0 (the default) is
	// PublicationAge's: as old as its capture may run.
	MaxPublicationAgeS int `toml:"max_publication_age_s"`
	MaxClockSkewS      int `toml:"max_clock_skew_s"`
	PublishAttempts    int `toml:"publish_attempts"`
	// MaxAlignmentBoundS (MAIN side, a task with START_AT): the largest
	// alignment.bound_s of a node's READY that is offered, in seconds. The
	// default 0.1 passes what the RX defaults accept: HOST_CLOCK's
	// sync.max_host_clock_bound_s 0.010 plus one USB block at the task's
	// rate (up to 0.0655 s at 2 Msps); a PPS bound is microseconds.
	MaxAlignmentBoundS float64 `toml:"max_alignment_bound_s"`
	// TaskDurationS is the current task's CAPTURE_DURATION_S on the MAIN
	// side (Policy.ForTask), never read from a file: it stands for
	// planned_duration_s in the checks of a READY. 0: the task sets none.
	TaskDurationS int64 `toml:"-"`
}

// PlannedS is the planned duration the MAIN side checks a READY against:
// the task's CAPTURE_DURATION_S when it has one, else planned_duration_s.
func (l Limits) PlannedS() int64 {
	if l.TaskDurationS > 0 {
		return l.TaskDurationS
	}
	return int64(l.PlannedDurationS)
}

// PlannedName names where PlannedS comes from, for a message.
func (l Limits) PlannedName() string {
	if l.TaskDurationS > 0 {
		return "the task's CAPTURE_DURATION_S"
	}
	return "the policy's planned_duration_s"
}

// ForTask is p for checking the READY of a task whose CAPTURE_DURATION_S
// is durationS (0: the task sets none, p as it is), PROTOCOL#main-pc.
func (p Policy) ForTask(durationS int64) Policy {
	p.Limits.TaskDurationS = durationS
	return p
}

// AlignmentBound is max_alignment_bound_s as a duration (whole
// nanoseconds, as bound_s is written).
func (l Limits) AlignmentBound() time.Duration {
	return time.Duration(math.Round(l.MaxAlignmentBoundS * 1e9))
}

// PublicationAge is the oldest READY publication the MAIN side acts on
// (PROTOCOL#main-pc): max_publication_age_s when a policy sets it, otherwise
// planned_duration_s — a READY is then fresh while its capture can still
// run, and the remaining-time check is what ends the window.
func (l Limits) PublicationAge() time.Duration {
	if l.MaxPublicationAgeS > 0 {
		return time.Duration(l.MaxPublicationAgeS) * time.Second
	}
	return time.Duration(l.PlannedS()) * time.Second
}

// PublicationAgeName names the limit PublicationAge is, for a refusal.
func (l Limits) PublicationAgeName() string {
	if l.MaxPublicationAgeS > 0 {
		return fmt.Sprintf("max_publication_age_s (%d s)", l.MaxPublicationAgeS)
	}
	if l.TaskDurationS > 0 {
		return fmt.Sprintf("the task's CAPTURE_DURATION_S (%d s; max_publication_age_s is 0)", l.TaskDurationS)
	}
	return fmt.Sprintf("planned_duration_s (%d s; max_publication_age_s is 0)", l.PlannedDurationS)
}

// Audit locates the audit log.
type Audit struct {
	Path string `toml:"path"`
}

// Tools pins tool paths; empty means look up on PATH.
type Tools struct {
	Git            string `toml:"git"`
	HackRFInfo     string `toml:"hackrf_info"`
	HackRFTransfer string `toml:"hackrf_transfer"`
	HackRFClock    string `toml:"hackrf_clock"`
	// AllowSimulator says that simulation is intended: rx capture accepts
	// a capture by rfhandoff's HackRF simulator (which its results, SigMF
	// file and quick-look then call simulated), and tx watch and tx
	// execute accept a simulated READY. False (the default) refuses both:
	// the simulator never passes for hardware (PROTOCOL#simulator).
	AllowSimulator bool `toml:"allow_simulator"`
	// SSHKeygen is the ssh-keygen git is given to sign and verify
	// ([trust]); rfhandoff never runs it itself.
	SSHKeygen string `toml:"ssh_keygen"`
	// SSHCommand is the command git's ssh transport runs (core.sshCommand
	// on every git call; "" means plain ssh). No config file chooses it.
	SSHCommand string `toml:"ssh_command"`
	// GitCredentialHelper is the only credential helper git may run
	// (credential.helper); "" means none.
	GitCredentialHelper string `toml:"git_credential_helper"`
}

// Capture holds the RX capture parameters.
type Capture struct {
	FrequencyHz       int64   `toml:"frequency_hz"`
	SampleRateHz      int64   `toml:"sample_rate_hz"`
	LNAGainDB         int     `toml:"lna_gain_db"`
	VGAGainDB         int     `toml:"vga_gain_db"`
	Amp               bool    `toml:"amp"`
	Serial            string  `toml:"serial"`
	Dir               string  `toml:"dir"`
	DetectThresholdDB float64 `toml:"detect_threshold_db"`
	DetectMinS        float64 `toml:"detect_min_s"`
	// FreeMarginMB is what must stay free (MiB) on capture.dir's file
	// system beyond a capture's bytes, or rx capture refuses to start.
	FreeMarginMB int64 `toml:"free_margin_mb"`
	// What a task may ask of this node (its CAPTURE_* fields,
	// PROTOCOL#task-file): a value outside refuses the task.
	FrequencyRangeHz []int64 `toml:"frequency_range_hz"`
	MaxSampleRateHz  int64   `toml:"max_sample_rate_hz"`
	MaxDurationS     int64   `toml:"max_duration_s"`
}

// TX holds the transmit action and its limits.
type TX struct {
	Enabled        bool   `toml:"enabled"`
	Action         string `toml:"action"`
	IQFile         string `toml:"iq_file"`
	FrequencyHz    int64  `toml:"frequency_hz"`
	SampleRateHz   int64  `toml:"sample_rate_hz"`
	TXVGAGainDB    int    `toml:"tx_vga_gain_db"`
	MaxTXVGAGainDB int    `toml:"max_tx_vga_gain_db"`
	Amp            bool   `toml:"amp"`
	DurationS      int    `toml:"duration_s"`
}

// Clock says what a side does when the operating system says its clock
// is not synchronised (PROTOCOL#main-pc, PROTOCOL#capture; hostclock).
type Clock struct {
	// RequireSynchronized: rx capture and rx publish-result refuse to
	// publish, tx watch to offer and tx execute to run while the OS says
	// its clock is not synchronised. An OS that cannot tell never refuses.
	RequireSynchronized bool `toml:"require_synchronized"`
}

// Sync is what this RX node accepts of a scheduled capture (a task with
// START_AT and SYNC_MODE, PROTOCOL#task-file).
type Sync struct {
	// MinLeadS: START_AT must be at least this many seconds ahead when
	// the task is offered or approved and when rx capture starts.
	MinLeadS int `toml:"min_lead_s"`
	// MaxHostClockBoundS (HOST_CLOCK): the largest bound of the start's
	// error, in seconds, this node accepts; a larger one refuses to arm.
	MaxHostClockBoundS float64 `toml:"max_host_clock_bound_s"`
	// PPSArmMarginS (PPS): hackrf_transfer -H is armed this many seconds
	// before the START_AT edge, inside the second before it; the default,
	// the middle, leaves the most room either way for the start-up.
	PPSArmMarginS float64 `toml:"pps_arm_margin_s"`
	// PPSErrorS (PPS): how far this node's 1PPS edge may be from true
	// time (the GPSDO's accuracy and the cable's delay), in seconds; a
	// PPS-aligned capture's bound is one sample period plus it.
	PPSErrorS float64 `toml:"pps_error_s"`
	// AllowedModes are the SYNC_MODE values this node runs; a task with
	// another is refused, [] refuses every scheduled task.
	AllowedModes []string `toml:"allowed_modes"`
}

// Duration is a Go duration written as a TOML string ("5s", "250ms").
type Duration struct{ time.Duration }

// UnmarshalText parses a Go duration string.
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil {
		return fmt.Errorf("%q is not a duration: write a string such as \"5s\" or \"250ms\"", b)
	}
	d.Duration = v
	return nil
}

// MarshalText writes the duration in Go syntax, without the zero tails
// that time.Duration.String adds ("5m", not "5m0s").
func (d Duration) MarshalText() ([]byte, error) {
	s := d.Duration.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s") // "1m0s" -> "1m"
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m") // "1h0m" -> "1h"
	}
	return []byte(s), nil
}

// Protocol limits that no policy may loosen.
const (
	protocolMaxResultBytes = 65536
	protocolMaxTaskBytes   = 65536
	protocolMinRemainingS  = 10
)

// Default returns the built-in policy.
func Default() Policy {
	return Policy{
		Repo: Repo{
			Path: ".", Remote: "origin",
			TaskBranch: "video-development", ResultBranch: "rx-node",
			TaskFile:  "docs/handoff/NEXT_RX_TASK.md",
			ResultDir: "docs/handoff/results",
			StateDir:  ".local",
		},
		Poll: Poll{
			RXInterval: Duration{10 * time.Second},
			TXInterval: Duration{5 * time.Second},
			GitTimeout: Duration{60 * time.Second},
			MaxBackoff: Duration{5 * time.Minute},
		},
		Limits: Limits{
			MaxTaskBytes: 65536, MaxResultBytes: 65536,
			PlannedDurationS: 120, MinRemainingS: 10,
			MaxPublicationAgeS: 0, MaxClockSkewS: 5, PublishAttempts: 3,
			MaxAlignmentBoundS: 0.1,
		},
		Audit: Audit{Path: ".local/audit.jsonl"},
		Capture: Capture{
			FrequencyHz: 433920000, SampleRateHz: 2000000,
			LNAGainDB: 16, VGAGainDB: 20, Dir: ".local/captures",
			DetectThresholdDB: 10, DetectMinS: 0.5, FreeMarginMB: 1024,
			FrequencyRangeHz: []int64{MinFrequencyHz, MaxFrequencyHz},
			MaxSampleRateHz:  MaxSampleRateHz, MaxDurationS: maxPlannedDurationS,
		},
		TX: TX{
			Action: "fake", FrequencyHz: 433920000, SampleRateHz: 2000000,
			DurationS: 10,
		},
		Notify: Notify{
			Command: []string{}, AllowHTTPHosts: []string{},
			Events:  append([]string(nil), NotifyEvents...),
			Timeout: Duration{defaultNotifyTimeout},
		},
		Clock: Clock{RequireSynchronized: true},
		Sync: Sync{MinLeadS: 30, MaxHostClockBoundS: 0.1, PPSArmMarginS: 0.5, PPSErrorS: 1e-7,
			AllowedModes: append([]string(nil), captureplan.SyncModes...)},
	}
}
