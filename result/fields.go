package result

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"rfhandoff/ident"
	"rfhandoff/strictjson"
)

// keySimulated is the one optional key (PROTOCOL#result, PROTOCOL#simulator).
const keySimulated = "simulated"

// fields is the PROTOCOL#result table.
var fields = []strictjson.Field[Result]{
	{Key: "schema_version", Check: func(r *Result, v value) string {
		n, why := strictjson.Int(v)
		if why != "" {
			return why
		}
		if n != SchemaVersion && n != NodeSchemaVersion && n != ScheduledSchemaVersion {
			return fmt.Sprintf("must be %d, %d or %d, got %d", SchemaVersion, NodeSchemaVersion, ScheduledSchemaVersion, n)
		}
		r.SchemaVersion = int(n)
		return ""
	}},
	{Key: "task_id", Check: func(r *Result, v value) string {
		return strictjson.Match(v, ident.TaskID, "a task ID matching "+ident.TaskID.String(), &r.TaskID)
	}},
	{Key: "state", Check: func(r *Result, v value) string {
		s, why := strictjson.Str(v, "a string")
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
	{Key: "source_head", Check: func(r *Result, v value) string {
		return strictjson.Match(v, ident.Commit, "40 lowercase hex digits (a commit ID)", &r.SourceHead)
	}},
	{Key: "published_at", Check: func(r *Result, v value) string { return timestamp(v, &r.PublishedAt) }},
	{Key: "capture_started_at", Check: func(r *Result, v value) string { return timestamp(v, &r.CaptureStartedAt) }},
	{Key: "planned_duration_s", Check: func(r *Result, v value) string { return positive(v, &r.PlannedDurationS) }},
	{Key: "frequency_hz", Check: func(r *Result, v value) string { return positive(v, &r.FrequencyHz) }},
	{Key: "sample_rate_hz", Check: func(r *Result, v value) string { return positive(v, &r.SampleRateHz) }},
	{Key: "rx_ready_for_tx", Check: func(r *Result, v value) string { return strictjson.Boolean(v, &r.RXReadyForTX) }},
	{Key: "process_alive", Check: func(r *Result, v value) string { return strictjson.Boolean(v, &r.ProcessAlive) }},
	{Key: "file_growing", Check: func(r *Result, v value) string { return strictjson.Boolean(v, &r.FileGrowing) }},
	{Key: "common_clock_verified", Check: func(r *Result, v value) string { return strictjson.Boolean(v, &r.CommonClockVerified) }},
	{Key: "capture_pid", Check: func(r *Result, v value) string { return positive(v, &r.CapturePID) }},
	{Key: "capture_ended_at", Check: func(r *Result, v value) string {
		return nullable(v, &r.CaptureEndedAt, timestamp)
	}},
	{Key: "capture_exit_code", Check: func(r *Result, v value) string {
		return nullable(v, &r.CaptureExitCode, anyInteger)
	}},
	{Key: "capture_size_bytes", Check: func(r *Result, v value) string {
		return nullable(v, &r.CaptureSizeBytes, nonNegative)
	}},
	{Key: "capture_duration_s", Check: func(r *Result, v value) string {
		return nullable(v, &r.CaptureDurationS, nonNegativeNumber)
	}},
	{Key: "capture_sha256", Check: func(r *Result, v value) string {
		return nullable(v, &r.CaptureSHA256, func(v value, dst *string) string {
			return strictjson.Match(v, ident.SHA256, "64 lowercase hex digits (a SHA-256)", dst)
		})
	}},
	{Key: "overruns", Check: func(r *Result, v value) string { return nullable(v, &r.Overruns, nonNegative) }},
	{Key: "dropped_frames", Check: func(r *Result, v value) string { return nullable(v, &r.DroppedFrames, nonNegative) }},
	{Key: "clkin_after", Check: func(r *Result, v value) string {
		return nullable(v, &r.ClkinAfter, enum(ClkinDetected, ClkinNotDetected))
	}},
	{Key: "rf_tx_observed", Check: func(r *Result, v value) string {
		return nullable(v, &r.RFTXObserved, enum(RFTXExpectedExternal, RFTXUnknown))
	}},
	{Key: "rf_tx", Check: func(r *Result, v value) string {
		n, why := strictjson.Int(v)
		if why != "" {
			return why
		}
		if n != 0 {
			return fmt.Sprintf("must be 0 (the receiver never transmits), got %d", n)
		}
		r.RFTX = 0
		return ""
	}},
	{Key: keySimulated, Optional: true, Check: func(r *Result, v value) string {
		if v.Kind != strictjson.Bool || !v.Bool {
			return "must be true when present (only a capture by rfhandoff's simulator has the key; a HackRF's result leaves it out), got " + v.Describe()
		}
		r.Simulated = true
		return ""
	}},
}

func atLeast(lo int64, what string) func(v value, dst *int64) string {
	return func(v value, dst *int64) string {
		n, why := strictjson.Int(v)
		if why == "" && n < lo {
			why = fmt.Sprintf("must be %s, got %d", what, n)
		}
		if why == "" {
			*dst = n
		}
		return why
	}
}

var (
	anyInteger  = atLeast(math.MinInt64, "")
	positive    = atLeast(1, "a positive integer")
	nonNegative = atLeast(0, "an integer ≥ 0")
)

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

// timestamp accepts RFC 3339 with an explicit offset (Z or ±hh:mm) only.
func timestamp(v value, dst *time.Time) string {
	return strictjson.Time(v, ident.Timestamp, "an RFC 3339 timestamp with an explicit offset (e.g. 2026-01-02T15:04:05Z or 2026-01-02T16:04:05+01:00)", dst)
}

func enum[T ~string](allowed ...T) func(v value, dst *T) string {
	return func(v value, dst *T) string {
		quoted := make([]string, len(allowed))
		for i, a := range allowed {
			quoted[i] = strconv.Quote(string(a))
		}
		what := strings.Join(quoted, " or ")
		s, why := strictjson.Str(v, what)
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
