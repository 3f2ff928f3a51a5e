package result

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"rfhandoff/ident"
	"rfhandoff/strictjson"
)

// field is one key of the table: its name and how to check and store a
// value. set returns "" or the reason the value is unacceptable.
type field struct {
	key string
	set func(r *Result, v value) string
}

// keySimulated is the one optional key (PROTOCOL#result, PROTOCOL#simulator).
const keySimulated = "simulated"

// optional reports whether a result may leave the key out (it then keeps
// its zero value); every other key must be present.
func (f field) optional() bool { return f.key == keySimulated }

// fields is the PROTOCOL#result table, in its order.
var fields = []field{
	{"schema_version", func(r *Result, v value) string {
		n, why := integer(v)
		if why != "" {
			return why
		}
		if n != SchemaVersion && n != NodeSchemaVersion {
			return fmt.Sprintf("must be %d, got %d", SchemaVersion, n)
		}
		r.SchemaVersion = int(n)
		return ""
	}},
	{"task_id", func(r *Result, v value) string {
		return matching(v, ident.TaskID, "a task ID matching "+ident.TaskID.String(), &r.TaskID)
	}},
	{"state", func(r *Result, v value) string {
		s, why := str(v, "a string")
		if why != "" {
			return why
		}
		switch State(s) {
		case StateReady, StateComplete:
			r.State = State(s)
			return ""
		}
		return fmt.Sprintf("must be %q or %q, got %s", StateReady, StateComplete, v.Describe())
	}},
	{"source_head", func(r *Result, v value) string {
		return matching(v, ident.Commit, "40 lowercase hex digits (a commit ID)", &r.SourceHead)
	}},
	{"published_at", func(r *Result, v value) string { return timestamp(v, &r.PublishedAt) }},
	{"capture_started_at", func(r *Result, v value) string { return timestamp(v, &r.CaptureStartedAt) }},
	{"planned_duration_s", func(r *Result, v value) string { return positive(v, &r.PlannedDurationS) }},
	{"frequency_hz", func(r *Result, v value) string { return positive(v, &r.FrequencyHz) }},
	{"sample_rate_hz", func(r *Result, v value) string { return positive(v, &r.SampleRateHz) }},
	{"rx_ready_for_tx", func(r *Result, v value) string { return boolean(v, &r.RXReadyForTX) }},
	{"process_alive", func(r *Result, v value) string { return boolean(v, &r.ProcessAlive) }},
	{"file_growing", func(r *Result, v value) string { return boolean(v, &r.FileGrowing) }},
	{"common_clock_verified", func(r *Result, v value) string { return boolean(v, &r.CommonClockVerified) }},
	{"capture_pid", func(r *Result, v value) string { return positive(v, &r.CapturePID) }},
	{"capture_ended_at", func(r *Result, v value) string {
		return nullable(v, &r.CaptureEndedAt, timestamp)
	}},
	{"capture_exit_code", func(r *Result, v value) string {
		return nullable(v, &r.CaptureExitCode, anyInteger)
	}},
	{"capture_size_bytes", func(r *Result, v value) string {
		return nullable(v, &r.CaptureSizeBytes, nonNegative)
	}},
	{"capture_duration_s", func(r *Result, v value) string {
		return nullable(v, &r.CaptureDurationS, nonNegativeNumber)
	}},
	{"capture_sha256", func(r *Result, v value) string {
		return nullable(v, &r.CaptureSHA256, func(v value, dst *string) string {
			return matching(v, ident.SHA256, "64 lowercase hex digits (a SHA-256)", dst)
		})
	}},
	{"overruns", func(r *Result, v value) string { return nullable(v, &r.Overruns, nonNegative) }},
	{"dropped_frames", func(r *Result, v value) string { return nullable(v, &r.DroppedFrames, nonNegative) }},
	{"clkin_after", func(r *Result, v value) string {
		return nullable(v, &r.ClkinAfter, enum(ClkinDetected, ClkinNotDetected))
	}},
	{"rf_tx_observed", func(r *Result, v value) string {
		return nullable(v, &r.RFTXObserved, enum(RFTXExpectedExternal, RFTXUnknown))
	}},
	{"rf_tx", func(r *Result, v value) string {
		n, why := integer(v)
		if why != "" {
			return why
		}
		if n != 0 {
			return fmt.Sprintf("must be 0 (the receiver never transmits), got %d", n)
		}
		r.RFTX = 0
		return ""
	}},
	{keySimulated, func(r *Result, v value) string {
		if v.Kind != strictjson.Bool || !v.Bool {
			return "must be true when present (only a capture by rfhandoff's simulator has the key; a HackRF's result leaves it out), got " + v.Describe()
		}
		r.Simulated = true
		return ""
	}},
}

// fieldIndex maps each allowed key to its place in fields.
var fieldIndex = func() map[string]int {
	m := make(map[string]int, len(fields))
	for i, f := range fields {
		m[f.key] = i
	}
	return m
}()

// integer accepts a JSON integer literal only: 1.0, 1e0 and "1" are not.
func integer(v value) (int64, string) {
	if v.Kind != strictjson.Number {
		return 0, "must be an integer, got " + v.Describe()
	}
	if strings.ContainsAny(v.Text, ".eE") {
		return 0, "must be an integer written without a fraction or exponent, got " + v.Describe()
	}
	n, err := strconv.ParseInt(v.Text, 10, 64)
	if err != nil || n > strictjson.MaxSafeInt || n < -strictjson.MaxSafeInt {
		return 0, fmt.Sprintf("must be an integer within ±%d, got %s", int64(strictjson.MaxSafeInt), v.Describe())
	}
	return n, ""
}

func anyInteger(v value, dst *int64) string {
	n, why := integer(v)
	if why == "" {
		*dst = n
	}
	return why
}

func positive(v value, dst *int64) string {
	n, why := integer(v)
	if why != "" {
		return why
	}
	if n <= 0 {
		return fmt.Sprintf("must be a positive integer, got %d", n)
	}
	*dst = n
	return ""
}

func nonNegative(v value, dst *int64) string {
	n, why := integer(v)
	if why != "" {
		return why
	}
	if n < 0 {
		return fmt.Sprintf("must be an integer ≥ 0, got %d", n)
	}
	*dst = n
	return ""
}

func nonNegativeNumber(v value, dst *float64) string {
	if v.Kind != strictjson.Number {
		return "must be a number, got " + v.Describe()
	}
	f, err := strconv.ParseFloat(v.Text, 64)
	if err != nil {
		return "must be a number within the range of a 64-bit float, got " + v.Describe()
	}
	if f < 0 {
		return "must be a number ≥ 0, got " + v.Describe()
	}
	*dst = f
	return ""
}

func boolean(v value, dst *bool) string {
	if v.Kind != strictjson.Bool {
		return "must be true or false, got " + v.Describe()
	}
	*dst = v.Bool
	return ""
}

func str(v value, what string) (string, string) {
	if v.Kind != strictjson.String {
		return "", "must be " + what + ", got " + v.Describe()
	}
	return v.Text, ""
}

func matching(v value, re ident.Rule, what string, dst *string) string {
	s, why := str(v, what)
	if why != "" {
		return why
	}
	if !re.MatchString(s) {
		return "must be " + what + ", got " + v.Describe()
	}
	*dst = s
	return ""
}

// timestamp accepts RFC 3339 with an explicit offset (Z or ±hh:mm) only;
// the regexp fixes the shape, time.Parse the ranges.
func timestamp(v value, dst *time.Time) string {
	const what = "an RFC 3339 timestamp with an explicit offset (e.g. 2026-01-02T15:04:05Z or 2026-01-02T16:04:05+01:00)"
	s, why := str(v, what)
	if why != "" {
		return why
	}
	if !ident.Timestamp.MatchString(s) {
		return "must be " + what + ", got " + v.Describe()
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil || !offsetInRange(s) {
		return "must be " + what + ", got " + v.Describe() + " (out of range)"
	}
	*dst = t
	return ""
}

func enum[T ~string](allowed ...T) func(v value, dst *T) string {
	return func(v value, dst *T) string {
		quoted := make([]string, len(allowed))
		for i, a := range allowed {
			quoted[i] = strconv.Quote(string(a))
		}
		what := strings.Join(quoted, " or ")
		s, why := str(v, what)
		if why != "" {
			return why
		}
		for _, a := range allowed {
			if string(a) == s {
				*dst = a
				return ""
			}
		}
		return "must be " + what + ", got " + v.Describe()
	}
}

// nullable stores nil for null and otherwise checks the value with check.
func nullable[T any](v value, dst **T, check func(value, *T) string) string {
	if v.Kind == strictjson.Null {
		*dst = nil
		return ""
	}
	var x T
	if why := check(v, &x); why != "" {
		if strings.HasPrefix(why, "must be ") {
			why = "must be null or " + strings.TrimPrefix(why, "must be ")
		}
		return why
	}
	*dst = &x
	return ""
}

// offsetInRange checks what time.Parse lets through: an offset's hours
// must be 00–23 and its minutes 00–59 (RFC 3339 time-numoffset).
func offsetInRange(s string) bool {
	if strings.HasSuffix(s, "Z") {
		return true
	}
	off := s[len(s)-5:] // hh:mm, after the regexp matched
	hoursOK := off[0] < '2' || off[0] == '2' && off[1] <= '3'
	return hoursOK && off[3] <= '5'
}
