package config

import (
	"fmt"
	"math"
	"strings"
	"time"

	"rfhandoff/captureplan"
)

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

type Repo struct {
	Path   string `toml:"path"`
	Remote string `toml:"remote"`
	// URL, when set, is the remote's URL (and its transport the only one
	// git may use), and the checkout's remote config is never read; empty:
	// remote.<remote>.url, if git would use exactly it (PROTOCOL#subprocesses).
	URL          string `toml:"url"`
	TaskBranch   string `toml:"task_branch"`
	ResultBranch string `toml:"result_branch"`
	TaskFile     string `toml:"task_file"`
	ResultDir    string `toml:"result_dir"`
	StateDir     string `toml:"state_dir"`
}

type Poll struct {
	RXInterval Duration `toml:"rx_interval"`
	TXInterval Duration `toml:"tx_interval"`
	GitTimeout Duration `toml:"git_timeout"`
	MaxBackoff Duration `toml:"max_backoff"`
}

// Limits are the protocol's limits; a policy may only tighten them.
type Limits struct {
	MaxTaskBytes       int64 `toml:"max_task_bytes"`
	MaxResultBytes     int64 `toml:"max_result_bytes"`
	PlannedDurationS   int   `toml:"planned_duration_s"`
	MinRemainingS      int   `toml:"min_remaining_s"`
	MaxPublicationAgeS int   `toml:"max_publication_age_s"`
	MaxClockSkewS      int   `toml:"max_clock_skew_s"`
	PublishAttempts    int   `toml:"publish_attempts"`
	// MaxAlignmentBoundS (MAIN side): the default 0.1 passes what the RX
	// defaults accept, HOST_CLOCK's 0.010 plus one USB block at the task's
	// rate (up to 0.0655 s at 2 Msps); a PPS bound is microseconds.
	MaxAlignmentBoundS float64 `toml:"max_alignment_bound_s"`
	// TaskDurationS is the task's CAPTURE_DURATION_S on the MAIN side
	// (ForTask), never read from a file; 0: the task sets none.
	TaskDurationS int64 `toml:"-"`
}

// PlannedS is what the MAIN side checks a READY's planned duration against.
func (l Limits) PlannedS() int64 {
	if l.TaskDurationS > 0 {
		return l.TaskDurationS
	}
	return int64(l.PlannedDurationS)
}

func (l Limits) PlannedName() string {
	if l.TaskDurationS > 0 {
		return "the task's CAPTURE_DURATION_S"
	}
	return "the policy's planned_duration_s"
}

// ForTask is p for checking the READY of a task whose CAPTURE_DURATION_S
// is durationS (0: none), PROTOCOL#main-pc.
func (p Policy) ForTask(durationS int64) Policy {
	p.Limits.TaskDurationS = durationS
	return p
}

// AlignmentBound is max_alignment_bound_s in whole nanoseconds, as bound_s is written.
func (l Limits) AlignmentBound() time.Duration {
	return time.Duration(math.Round(l.MaxAlignmentBoundS * 1e9))
}

// PublicationAge is by default the planned duration (PROTOCOL#main-pc): a
// READY is fresh while its capture can run, the remaining-time check ends it.
func (l Limits) PublicationAge() time.Duration {
	if l.MaxPublicationAgeS > 0 {
		return time.Duration(l.MaxPublicationAgeS) * time.Second
	}
	return time.Duration(l.PlannedS()) * time.Second
}

func (l Limits) PublicationAgeName() string {
	if l.MaxPublicationAgeS > 0 {
		return fmt.Sprintf("max_publication_age_s (%d s)", l.MaxPublicationAgeS)
	}
	if l.TaskDurationS > 0 {
		return fmt.Sprintf("the task's CAPTURE_DURATION_S (%d s; max_publication_age_s is 0)", l.TaskDurationS)
	}
	return fmt.Sprintf("planned_duration_s (%d s; max_publication_age_s is 0)", l.PlannedDurationS)
}

type Audit struct {
	Path string `toml:"path"`
}

// Tools pins tool paths; empty means look up on PATH.
type Tools struct {
	Git            string `toml:"git"`
	HackRFInfo     string `toml:"hackrf_info"`
	HackRFTransfer string `toml:"hackrf_transfer"`
	HackRFClock    string `toml:"hackrf_clock"`
	// AllowSimulator: rx capture accepts the HackRF simulator and tx
	// accepts a simulated READY; false, the simulator never passes for
	// hardware (PROTOCOL#simulator).
	AllowSimulator bool `toml:"allow_simulator"`
	// SSHKeygen is given to git for [trust]; rfhandoff never runs it.
	SSHKeygen string `toml:"ssh_keygen"`
	// SSHCommand is core.sshCommand on every git call, so no config file
	// chooses it; "" means plain ssh.
	SSHCommand string `toml:"ssh_command"`
	// GitCredentialHelper is the only credential.helper; "" means none.
	GitCredentialHelper string `toml:"git_credential_helper"`
}

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
	FreeMarginMB      int64   `toml:"free_margin_mb"`
	// What a task may ask of this node (PROTOCOL#task-file).
	FrequencyRangeHz []int64 `toml:"frequency_range_hz"`
	MaxSampleRateHz  int64   `toml:"max_sample_rate_hz"`
	MaxDurationS     int64   `toml:"max_duration_s"`
}

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

// Clock: refuse while the OS says the clock is not synchronised; an OS that
// cannot tell never refuses (PROTOCOL#main-pc, PROTOCOL#capture).
type Clock struct {
	RequireSynchronized bool `toml:"require_synchronized"`
}

// Sync is what this RX node accepts of a task with START_AT and SYNC_MODE
// (PROTOCOL#task-file).
type Sync struct {
	MinLeadS           int     `toml:"min_lead_s"`
	MaxHostClockBoundS float64 `toml:"max_host_clock_bound_s"`
	// PPSArmMarginS: hackrf_transfer -H is armed this long before the
	// START_AT edge; the default, mid-second, leaves the most room either way.
	PPSArmMarginS float64 `toml:"pps_arm_margin_s"`
	// PPSErrorS: the 1PPS edge's own error (GPSDO and cable), added to one
	// sample period for a PPS-aligned capture's bound.
	PPSErrorS    float64  `toml:"pps_error_s"`
	AllowedModes []string `toml:"allowed_modes"`
}

// Duration is a Go duration written as a TOML string ("5s", "250ms").
type Duration struct{ time.Duration }

func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil {
		return fmt.Errorf("%q is not a duration: write a string such as \"5s\" or \"250ms\"", b)
	}
	d.Duration = v
	return nil
}

// MarshalText drops time.Duration.String's zero tails ("5m", not "5m0s").
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
