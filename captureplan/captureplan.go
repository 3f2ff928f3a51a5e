package captureplan

import (
	"fmt"
	"path/filepath"
	"strconv"
)

// The HackRF One's ranges and the protocol's bounds of a planned
// duration: the policy's [capture] and [limits] keys and a task's CAPTURE_*
// fields (PROTOCOL#task-file) are held to them.
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
)

// Task is what a task's header asks of the capture: its CAPTURE_* fields,
// 0 for a field it does not set (the policy's value then).
type Task struct {
	FrequencyHz  int64 `json:"frequency_hz,omitempty"`
	SampleRateHz int64 `json:"sample_rate_hz,omitempty"`
	DurationS    int64 `json:"duration_s,omitempty"`
}

// IsZero reports a task that sets none of the fields.
func (t Task) IsZero() bool { return t == Task{} }

// Plan is the effective capture a task will run on this RX node:
// what `rx approve` and `rx watch` show before [A], what the approval
// binds (approval.capture) and what `rx capture` runs. It is computed in
// one place only, config.Policy.CapturePlanFor; every field is named by the
// policy key or task field it comes from, so a change between approval and capture is
// refused naming that key (PROTOCOL#task-file, PROTOCOL#capture).
type Plan struct {
	FrequencyHz  int64 `json:"frequency_hz"`
	SampleRateHz int64 `json:"sample_rate_hz"`
	LNAGainDB    int   `json:"lna_gain_db"`
	VGAGainDB    int   `json:"vga_gain_db"`
	Amp          bool  `json:"amp"`
	// AntennaPower is the antenna port's bias tee (hackrf_transfer -p):
	// always false, rfhandoff never enables it; shown and recorded so that
	// what feeds the antenna is never a guess.
	AntennaPower     bool   `json:"antenna_power"`
	PlannedDurationS int64  `json:"planned_duration_s"`
	Dir              string `json:"dir"` // capture.dir, absolute
	// FreeMarginBytes is what must stay free on Dir's file system beyond
	// the capture's bytes (capture.free_margin_mb).
	FreeMarginBytes int64 `json:"free_margin_bytes"`
	// Task is what the task's header set, which FrequencyHz, SampleRateHz
	// and PlannedDurationS then are; nil when it sets nothing (every
	// value is the policy's, and the plan's JSON is as before).
	Task *Task `json:"task,omitempty"`
}

// source is the policy key a value comes from, or the task field that
// set it (set is its value in the task, 0 when unset).
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

// Samples is the number of complex samples the capture asks for.
func (c Plan) Samples() int64 { return c.SampleRateHz * c.PlannedDurationS }

// Bytes is the size the capture file will have: ci8, two bytes a sample.
func (c Plan) Bytes() int64 { return 2 * c.Samples() }

// planKey is one field of a plan under its policy key, as text.
type planKey struct{ key, value string }

func (c Plan) keys() []planKey {
	t := c.task()
	return []planKey{
		{source(t.FrequencyHz, FieldFrequencyHz, "capture.frequency_hz"), strconv.FormatInt(c.FrequencyHz, 10)},
		{source(t.SampleRateHz, FieldSampleRateHz, "capture.sample_rate_hz"), strconv.FormatInt(c.SampleRateHz, 10)},
		{"capture.lna_gain_db", strconv.Itoa(c.LNAGainDB)},
		{"capture.vga_gain_db", strconv.Itoa(c.VGAGainDB)},
		{"capture.amp", strconv.FormatBool(c.Amp)},
		{"antenna power", strconv.FormatBool(c.AntennaPower)},
		{source(t.DurationS, FieldDurationS, "limits.planned_duration_s"), strconv.FormatInt(c.PlannedDurationS, 10)},
		{"capture.dir", strconv.Quote(c.Dir)},
		{"capture.free_margin_mb", strconv.FormatInt(c.FreeMarginBytes>>20, 10)},
	}
}

// Changes lists, by policy key (or task field), how now differs from c
// (the approved plan): "capture.lna_gain_db: approved 16, now 24". Empty
// when equal.
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
	return errs
}

// Describe is the plan as the approval prompt shows it, one line per
// fact, with the free space on Dir's file system (free < 0: unknown,
// freeErr says why).
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
		fmt.Sprintf("Writes:        %s (%d bytes, ci8) into %s", SizeText(c.Bytes()), c.Bytes(), c.Dir),
	}
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

// spaceError is a capture refused because its file would not fit: its
// bytes plus the policy's margin exceed the free space where it goes.
type spaceError struct {
	Dir                string
	Need, Margin, Free int64
	PlannedS, RateHz   int64
	// Lower is what lowers the bytes: the policy keys, or the task's
	// fields where the task set them (a new task, then).
	Lower string
}

func (e *spaceError) Error() string {
	return fmt.Sprintf("the capture would write %s (%d s at %d samples/s, 2 bytes each) into %s, which has %s free; with the %s margin of capture.free_margin_mb it needs %s: "+
		"refused, nothing started; free space there, or %s",
		SizeText(e.Need), e.PlannedS, e.RateHz, e.Dir, SizeText(e.Free), SizeText(e.Margin), SizeText(e.Need+e.Margin), e.Lower)
}

// CheckSpace returns a *spaceError when the capture's bytes plus the
// margin exceed free.
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

// MHz writes a frequency or a rate in MHz without trailing zeros.
func MHz(hz int64) string {
	return strconv.FormatFloat(float64(hz)/1e6, 'f', -1, 64) + " MHz"
}

// SizeText writes a byte count for a person: "480 MB", "4.8 GB".
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
