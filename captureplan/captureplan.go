package captureplan

import (
	"fmt"
	"path/filepath"
	"strconv"
	"time"
)

// The HackRF One's ranges and the protocol's bounds of a planned duration
// (PROTOCOL#task-file).
const (
	MinFrequencyHz  = 1_000_000     // HackRF One: 1 MHz ...
	MaxFrequencyHz  = 6_000_000_000 // ... to 6 GHz (its specified range)
	MinSampleRateHz = 2_000_000     // hackrf_transfer: 2 Msps ...
	MaxSampleRateHz = 20_000_000    // ... to 20 Msps
	MinDurationS    = 15
	MaxDurationS    = 3600
)

// The task header fields that carry the capture (PROTOCOL#task-file).
const (
	FieldFrequencyHz  = "CAPTURE_FREQUENCY_HZ"
	FieldSampleRateHz = "CAPTURE_SAMPLE_RATE_HZ"
	FieldDurationS    = "CAPTURE_DURATION_S"
	// FieldStartAt and FieldSyncMode: both or neither, only with
	// CAPTURE_DURATION_S (PROTOCOL#task-file).
	FieldStartAt  = "START_AT"
	FieldSyncMode = "SYNC_MODE"
)

// StartAtLayout is START_AT's one form: a whole UTC second.
const StartAtLayout = "2006-01-02T15:04:05Z"

// WholeSecond reads s in StartAtLayout, exactly (the one rule for
// START_AT and for the whole seconds a result names).
func WholeSecond(s string) (time.Time, bool) {
	t, err := time.Parse(StartAtLayout, s)
	return t, err == nil && t.Format(StartAtLayout) == s
}

// SYNC_MODE values: how the nodes start on START_AT.
const (
	SyncHostClock = "HOST_CLOCK" // by the host clock, its error bound from the OS
	SyncPPS       = "PPS"        // hackrf_transfer -H armed before the GPSDO's 1PPS edge
)

// SyncModes lists the SYNC_MODE values in the order the protocol names them.
var SyncModes = []string{SyncHostClock, SyncPPS}

// Task is what a task's header asks of the capture: its CAPTURE_* fields,
// 0 for a field it does not set (the policy's value then).
type Task struct {
	FrequencyHz  int64 `json:"frequency_hz,omitempty"`
	SampleRateHz int64 `json:"sample_rate_hz,omitempty"`
	DurationS    int64 `json:"duration_s,omitempty"`
	// StartAt and SyncMode are both zero or both set.
	StartAt  time.Time `json:"start_at,omitzero"`
	SyncMode string    `json:"sync_mode,omitempty"`
}

func (t Task) IsZero() bool { return t == Task{} }

// Plan is the effective capture a task will run on this RX node, computed
// in config.Policy.CapturePlanFor only. Every field is named by the policy
// key or task field it comes from, so a change between approval and
// capture is refused naming that key (PROTOCOL#task-file, PROTOCOL#capture).
type Plan struct {
	FrequencyHz  int64 `json:"frequency_hz"`
	SampleRateHz int64 `json:"sample_rate_hz"`
	LNAGainDB    int   `json:"lna_gain_db"`
	VGAGainDB    int   `json:"vga_gain_db"`
	Amp          bool  `json:"amp"`
	// AntennaPower is the bias tee: always false, rfhandoff never enables
	// it; recorded so that what feeds the antenna is never a guess.
	AntennaPower     bool   `json:"antenna_power"`
	PlannedDurationS int64  `json:"planned_duration_s"`
	Dir              string `json:"dir"`               // capture.dir, absolute
	FreeMarginBytes  int64  `json:"free_margin_bytes"` // must stay free beyond the capture
	// Task is what the task's header set; nil when it sets nothing, so the
	// plan's JSON is as before.
	Task *Task `json:"task,omitempty"`
	Sync *Sync `json:"sync,omitempty"` // nil for a task without START_AT
}

// Sync is when and how a scheduled capture starts on this node
// (PROTOCOL#task-file), with this node's limits for the mode (the other
// mode's are 0).
type Sync struct {
	StartAt            time.Time `json:"start_at"` // the task's START_AT, UTC
	Mode               string    `json:"mode"`     // SyncHostClock or SyncPPS
	MaxHostClockBoundS float64   `json:"max_host_clock_bound_s,omitempty"`
	PPSArmMarginS      float64   `json:"pps_arm_margin_s,omitempty"`
	PPSErrorS          float64   `json:"pps_error_s,omitempty"`
}

// StartText writes a start time in UTC and the host's local time.
func StartText(t time.Time) string {
	return fmt.Sprintf("%s (local %s)", t.UTC().Format(StartAtLayout), t.Local().Format("2006-01-02 15:04:05 MST"))
}

func (s *Sync) keys() []planKey {
	if s == nil {
		return []planKey{{"task " + FieldStartAt, "none"}, {"task " + FieldSyncMode, "none"},
			{"sync.max_host_clock_bound_s", "none"}, {"sync.pps_arm_margin_s", "none"}, {"sync.pps_error_s", "none"}}
	}
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	return []planKey{{"task " + FieldStartAt, s.StartAt.UTC().Format(StartAtLayout)}, {"task " + FieldSyncMode, s.Mode},
		{"sync.max_host_clock_bound_s", f(s.MaxHostClockBoundS)}, {"sync.pps_arm_margin_s", f(s.PPSArmMarginS)},
		{"sync.pps_error_s", f(s.PPSErrorS)}}
}

func (s *Sync) describe() []string {
	if s == nil {
		return nil
	}
	how := fmt.Sprintf("a clock error bound over %g s is refused (sync.max_host_clock_bound_s)", s.MaxHostClockBoundS)
	if s.Mode == SyncPPS {
		how = fmt.Sprintf("arms hackrf_transfer -H %g s before that 1PPS edge (sync.pps_arm_margin_s), "+
			"the edge within %g s of true time (sync.pps_error_s)", s.PPSArmMarginS, s.PPSErrorS)
	}
	return []string{
		"Starts at:     " + StartText(s.StartAt) + " (task " + FieldStartAt + ")",
		fmt.Sprintf("Sync mode:     %s: %s (task %s)", s.Mode, how, FieldSyncMode),
	}
}

// source is the policy key a value comes from, or the task field that
// set it.
func source(set int64, field, key string) string {
	if set != 0 {
		return "task " + field
	}
	return key
}

func (c Plan) task() Task {
	if c.Task == nil {
		return Task{}
	}
	return *c.Task
}

func (c Plan) Samples() int64 { return c.SampleRateHz * c.PlannedDurationS }

// Bytes is the size the capture file will have (ci8).
func (c Plan) Bytes() int64 { return 2 * c.Samples() }

type planKey struct{ key, value string }

func (c Plan) keys() []planKey {
	t := c.task()
	return append([]planKey{
		{source(t.FrequencyHz, FieldFrequencyHz, "capture.frequency_hz"), strconv.FormatInt(c.FrequencyHz, 10)},
		{source(t.SampleRateHz, FieldSampleRateHz, "capture.sample_rate_hz"), strconv.FormatInt(c.SampleRateHz, 10)},
		{"capture.lna_gain_db", strconv.Itoa(c.LNAGainDB)},
		{"capture.vga_gain_db", strconv.Itoa(c.VGAGainDB)},
		{"capture.amp", strconv.FormatBool(c.Amp)},
		{"antenna power", strconv.FormatBool(c.AntennaPower)},
		{source(t.DurationS, FieldDurationS, "limits.planned_duration_s"), strconv.FormatInt(c.PlannedDurationS, 10)},
		{"capture.dir", strconv.Quote(c.Dir)},
		{"capture.free_margin_mb", strconv.FormatInt(c.FreeMarginBytes>>20, 10)},
	}, c.Sync.keys()...)
}

// Changes lists, by policy key (or task field), how now differs from the
// approved plan c.
func (c Plan) Changes(now Plan) []string {
	var out []string
	was, is := c.keys(), now.keys()
	for i := range was {
		if was[i].value != is[i].value {
			out = append(out, fmt.Sprintf("%s: approved %s, now %s", is[i].key, was[i].value, is[i].value))
		}
	}
	return out
}

// Validate appends every problem of c to errs, keys prefixed with prefix.
func (c Plan) Validate(prefix string, errs []error) []error {
	for _, f := range []struct {
		key string
		v   int64
	}{{"frequency_hz", c.FrequencyHz}, {"sample_rate_hz", c.SampleRateHz}, {"planned_duration_s", c.PlannedDurationS}} {
		if f.v <= 0 {
			errs = append(errs, fmt.Errorf("%s.%s %d is not positive", prefix, f.key, f.v))
		}
	}
	if c.LNAGainDB < 0 || c.VGAGainDB < 0 || c.FreeMarginBytes < 0 {
		errs = append(errs, fmt.Errorf("%s: lna_gain_db %d, vga_gain_db %d and free_margin_bytes %d must not be negative",
			prefix, c.LNAGainDB, c.VGAGainDB, c.FreeMarginBytes))
	}
	if c.Dir == "" || !filepath.IsAbs(c.Dir) || filepath.Clean(c.Dir) != c.Dir {
		errs = append(errs, fmt.Errorf("%s.dir %q is not a clean absolute path", prefix, c.Dir))
	}
	if s := c.Sync; s != nil && (s.StartAt.IsZero() || !s.StartAt.Equal(s.StartAt.Truncate(time.Second)) || (s.Mode != SyncHostClock && s.Mode != SyncPPS)) {
		errs = append(errs, fmt.Errorf("%s.sync: start_at %s must be a whole second, and mode %q must be %s or %s", prefix, s.StartAt.Format(time.RFC3339Nano), s.Mode, SyncHostClock, SyncPPS))
	}
	return errs
}

// Describe is the plan as the approval prompt shows it, with the free
// space on Dir's file system (free < 0: unknown).
func (c Plan) Describe(free int64, freeErr error) []string {
	amp := "off"
	if c.Amp {
		amp = "ON (+11 dB)"
	}
	ant := "off (rfhandoff never powers the antenna port)"
	if c.AntennaPower {
		ant = "ON"
	}
	t := c.task()
	lines := []string{
		fmt.Sprintf("Frequency:     %s (%s = %d)", MHz(c.FrequencyHz), source(t.FrequencyHz, FieldFrequencyHz, "capture.frequency_hz"), c.FrequencyHz),
		fmt.Sprintf("Sample rate:   %s (%s = %d)", MHz(c.SampleRateHz), source(t.SampleRateHz, FieldSampleRateHz, "capture.sample_rate_hz"), c.SampleRateHz),
		fmt.Sprintf("LNA/VGA gain:  %d dB / %d dB (capture.lna_gain_db, capture.vga_gain_db)", c.LNAGainDB, c.VGAGainDB),
		"RF amp:        " + amp + " (capture.amp)",
		"Antenna power: " + ant,
		fmt.Sprintf("Duration:      %d s planned (%s)", c.PlannedDurationS, source(t.DurationS, FieldDurationS, "limits.planned_duration_s")),
	}
	lines = append(lines, c.Sync.describe()...)
	lines = append(lines, fmt.Sprintf("Writes:        %s (%d bytes, ci8) into %s", SizeText(c.Bytes()), c.Bytes(), c.Dir))
	switch {
	case freeErr != nil || free < 0:
		lines = append(lines, fmt.Sprintf("Free there:    unknown (%v); rx capture checks again before it starts", freeErr))
	case free < c.Bytes()+c.FreeMarginBytes:
		lines = append(lines, fmt.Sprintf("Free there:    %s: NOT ENOUGH for %s plus the %s margin (capture.free_margin_mb); rx capture will refuse it",
			SizeText(free), SizeText(c.Bytes()), SizeText(c.FreeMarginBytes)))
	default:
		lines = append(lines, fmt.Sprintf("Free there:    %s (%s stay free after it, margin %s)",
			SizeText(free), SizeText(free-c.Bytes()), SizeText(c.FreeMarginBytes)))
	}
	return lines
}

// spaceError is a capture refused because its file would not fit.
type spaceError struct {
	Dir                string
	Need, Margin, Free int64
	PlannedS, RateHz   int64
	Lower              string // what lowers the bytes: policy keys or a new task
}

func (e *spaceError) Error() string {
	return fmt.Sprintf("the capture would write %s (%d s at %d samples/s, 2 bytes each) into %s, which has %s free; with the %s margin of capture.free_margin_mb it needs %s: "+
		"refused, nothing started; free space there, or %s",
		SizeText(e.Need), e.PlannedS, e.RateHz, e.Dir, SizeText(e.Free), SizeText(e.Margin), SizeText(e.Need+e.Margin), e.Lower)
}

func (c Plan) CheckSpace(free int64) error {
	if free >= c.Bytes()+c.FreeMarginBytes {
		return nil
	}
	t := c.task()
	lower := "lower limits.planned_duration_s or capture.sample_rate_hz (and approve again)"
	if t.DurationS != 0 || t.SampleRateHz != 0 {
		lower = fmt.Sprintf("ask the MAIN side for a task (a new TASK_ID) with a lower %s or %s", FieldDurationS, FieldSampleRateHz)
	}
	return &spaceError{Dir: c.Dir, Need: c.Bytes(), Margin: c.FreeMarginBytes, Free: free, PlannedS: c.PlannedDurationS, RateHz: c.SampleRateHz, Lower: lower}
}

func MHz(hz int64) string {
	return strconv.FormatFloat(float64(hz)/1e6, 'f', -1, 64) + " MHz"
}

func SizeText(n int64) string {
	switch {
	case n >= 1e9:
		return strconv.FormatFloat(float64(n)/1e9, 'f', 1, 64) + " GB"
	case n >= 1e6:
		return strconv.FormatFloat(float64(n)/1e6, 'f', 0, 64) + " MB"
	case n >= 1e3:
		return strconv.FormatFloat(float64(n)/1e3, 'f', 0, 64) + " kB"
	}
	return strconv.FormatInt(n, 10) + " B"
}
