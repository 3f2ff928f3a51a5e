package result

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"rfhandoff/errlist"
)

func TestDecodeReady(t *testing.T) {
	r, err := Decode(readExample(t, "ready.json"), Options{TaskID: "RX_OTA_0001"})
	if err != nil {
		t.Fatal(err)
	}
	if r.State != StateReady || r.TaskID != "RX_OTA_0001" || r.SchemaVersion != 1 {
		t.Errorf("header fields: %+v", r)
	}
	if !r.RXReadyForTX || !r.ProcessAlive || !r.FileGrowing || !r.CommonClockVerified {
		t.Errorf("READY flags not all true: %+v", r)
	}
	if r.CaptureEndedAt != nil || r.CaptureExitCode != nil || r.CaptureSizeBytes != nil ||
		r.CaptureDurationS != nil || r.CaptureSHA256 != nil || r.Overruns != nil ||
		r.DroppedFrames != nil || r.ClkinAfter != nil || r.RFTXObserved != nil {
		t.Errorf("READY final fields not nil: %+v", r)
	}
	want := time.Date(2026, 3, 14, 10, 15, 7, 250_000_000, time.UTC)
	if !r.PublishedAt.Equal(want) {
		t.Errorf("published_at = %v, want %v", r.PublishedAt, want)
	}
	if r.PlannedDurationS != 120 || r.FrequencyHz != 433920000 || r.SampleRateHz != 2000000 || r.CapturePID != 48213 {
		t.Errorf("numbers: %+v", r)
	}
}

func TestDecodeComplete(t *testing.T) {
	r, err := Decode(readExample(t, "complete.json"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.State != StateComplete || r.RXReadyForTX || r.ProcessAlive || r.FileGrowing {
		t.Errorf("COMPLETE flags: %+v", r)
	}
	if r.CaptureEndedAt == nil || !r.CaptureEndedAt.Equal(time.Date(2026, 3, 14, 10, 17, 2, 125_000_000, time.UTC)) {
		t.Errorf("capture_ended_at = %v", r.CaptureEndedAt)
	}
	if _, off := r.PublishedAt.Zone(); off != 3600 {
		t.Errorf("published_at offset = %d, want +01:00 kept", off)
	}
	if *r.CaptureExitCode != 0 || *r.CaptureSizeBytes != 480000000 || *r.CaptureDurationS != 120.125 ||
		*r.Overruns != 0 || r.DroppedFrames != nil || *r.ClkinAfter != ClkinDetected ||
		*r.RFTXObserved != RFTXExpectedExternal || len(*r.CaptureSHA256) != 64 {
		t.Errorf("final fields: %+v", r)
	}
}

// invalidFiles is one example per rule, with exactly what Decode must report.
// Every file in testdata/results/invalid must be listed here.
var invalidFiles = map[string][]problem{
	"duplicate_key_same_value.json":      {{"task_id", ruleDuplicate}},
	"duplicate_key_different_value.json": {{"frequency_hz", ruleDuplicate}},
	"case_variant_key.json":              {{"TASK_ID", ruleUnknownKey}},
	"case_variant_key_unicode_fold.json": {{"ſtate", ruleUnknownKey}},
	"unknown_key.json":                   {{"notes", ruleUnknownKey}},
	"missing_key.json":                   {{"capture_pid", ruleMissing}},
	"wrong_type_string_for_bool.json":    {{"process_alive", ruleValue}},
	"wrong_type_int_for_bool.json":       {{"rx_ready_for_tx", ruleValue}},
	"wrong_type_object.json":             {{"task_id", ruleValue}},
	"int_as_float.json":                  {{"frequency_hz", ruleValue}},
	"int_as_string.json":                 {{"sample_rate_hz", ruleValue}},
	"int_as_exponent.json":               {{"schema_version", ruleValue}},
	"int_too_large.json":                 {{"capture_size_bytes", ruleValue}},
	"negative_size.json":                 {{"capture_size_bytes", ruleValue}},
	"negative_duration.json":             {{"capture_duration_s", ruleValue}},
	"zero_frequency.json":                {{"frequency_hz", ruleValue}},
	"trailing_data.json":                 {{"", ruleSyntax}},
	"two_objects.json":                   {{"", ruleSyntax}},
	"top_level_array.json":               {{"", ruleSyntax}},
	"empty.json":                         {{"", ruleSyntax}},
	"syntax_error.json":                  {{"", ruleSyntax}},
	"byte_order_mark.json":               {{"", ruleEncoding}},
	"invalid_utf8.json":                  {{"", ruleEncoding}},
	"null_not_allowed.json":              {{"capture_pid", ruleValue}},
	"schema_version_2.json":              {{"schema_version", ruleValue}},
	"bad_task_id.json":                   {{"task_id", ruleValue}},
	"bad_state.json":                     {{"state", ruleValue}},
	"uppercase_hex.json":                 {{"source_head", ruleValue}},
	"uppercase_sha256.json":              {{"capture_sha256", ruleValue}},
	"timestamp_without_offset.json":      {{"published_at", ruleValue}},
	"timestamp_bad_month.json":           {{"capture_started_at", ruleValue}},
	"timestamp_leap_second.json":         {{"capture_ended_at", ruleValue}},
	"rf_tx_one.json":                     {{"rf_tx", ruleValue}},
	"ready_flag_false.json":              {{"common_clock_verified", ruleState}},
	"ready_final_not_null.json":          {{"overruns", ruleState}},
	"complete_flag_true.json":            {{"process_alive", ruleState}},
	"complete_final_null.json":           {{"capture_sha256", ruleState}},
	"bad_clkin_after.json":               {{"clkin_after", ruleValue}},
	"bad_rf_tx_observed.json":            {{"rf_tx_observed", ruleValue}},
}

func TestDecodeInvalidFiles(t *testing.T) {
	entries, err := os.ReadDir(filepath.Join(examplesDir, "invalid"))
	if err != nil {
		t.Fatal(err)
	}
	var onDisk []string
	for _, e := range entries {
		onDisk = append(onDisk, e.Name())
	}
	var listed []string
	for name := range invalidFiles {
		listed = append(listed, name)
	}
	slices.Sort(onDisk)
	slices.Sort(listed)
	if !slices.Equal(onDisk, listed) {
		t.Fatalf("invalid examples on disk %v\ndiffer from the table %v", onDisk, listed)
	}
	for name, want := range invalidFiles {
		t.Run(name, func(t *testing.T) {
			r, err := Decode(readExample(t, filepath.Join("invalid", name)), Options{})
			if r != nil {
				t.Errorf("got a result with the error")
			}
			mustInvalid(t, err, want...)
		})
	}
}

// inlineCase is a small variation of an example, shared with the schema test.
type inlineCase struct {
	name string
	doc  []byte
	want []problem // nil: valid
}

func inlineCases(t testing.TB) []inlineCase {
	ready := readExample(t, "ready.json")
	complete := readExample(t, "complete.json")
	return []inlineCase{
		// Accepted spellings.
		{"escaped key is the same key", bytes.Replace(ready, []byte(`"task_id"`), []byte(`"\u0074ask_id"`), 1), nil},
		{"minus zero is the integer 0", withValue(t, ready, "rf_tx", "-0"), nil},
		{"number field takes an integer literal", withValue(t, complete, "capture_duration_s", "120"), nil},
		{"number field takes an exponent", withValue(t, complete, "capture_duration_s", "1.2e2"), nil},
		{"negative exit code", withValue(t, complete, "capture_exit_code", "-1"), nil},
		{"offset with minutes", withValue(t, ready, "published_at", `"2026-03-14T15:45:07+05:30"`), nil},
		{"nine fraction digits", withValue(t, ready, "published_at", `"2026-03-14T10:15:07.123456789Z"`), nil},
		{"COMPLETE without counters", withValue(t, withValue(t, complete, "overruns", "null"), "dropped_frames", "null"), nil},
		{"COMPLETE common clock false", withValue(t, complete, "common_clock_verified", "false"), nil},
		{"whitespace after the object", append(bytes.Clone(ready), " \r\n\t\n"...), nil},
		{"compact", []byte(strings.Join(strings.Fields(string(ready)), "")), nil},

		// The one optional key: present only as true.
		{"READY simulated", withSimulated(t, ready, "true"), nil},
		{"COMPLETE simulated", withSimulated(t, complete, "true"), nil},
		{"simulated false", withSimulated(t, ready, "false"), []problem{{"simulated", ruleValue}}},
		{"simulated null", withSimulated(t, complete, "null"), []problem{{"simulated", ruleValue}}},
		{"simulated as a string", withSimulated(t, ready, `"true"`), []problem{{"simulated", ruleValue}}},
		{"simulated as 1", withSimulated(t, ready, "1"), []problem{{"simulated", ruleValue}}},
		{"Simulated capitalised", bytes.Replace(withSimulated(t, ready, "true"), []byte(`"simulated"`), []byte(`"Simulated"`), 1), []problem{{"Simulated", ruleUnknownKey}}},

		// Integers.
		{"int 1.0", withValue(t, ready, "capture_pid", "1.0"), []problem{{"capture_pid", ruleValue}}},
		{"int 1e0", withValue(t, ready, "capture_pid", "1e0"), []problem{{"capture_pid", ruleValue}}},
		{"int 1E0", withValue(t, ready, "capture_pid", "1E0"), []problem{{"capture_pid", ruleValue}}},
		{`int "1"`, withValue(t, ready, "capture_pid", `"1"`), []problem{{"capture_pid", ruleValue}}},
		{"int true", withValue(t, ready, "capture_pid", "true"), []problem{{"capture_pid", ruleValue}}},
		{"int array", withValue(t, ready, "capture_pid", "[1]"), []problem{{"capture_pid", ruleValue}}},
		{"int beyond int64", withValue(t, ready, "frequency_hz", "99999999999999999999"), []problem{{"frequency_hz", ruleValue}}},
		{"pid zero", withValue(t, ready, "capture_pid", "0"), []problem{{"capture_pid", ruleValue}}},
		{"pid negative", withValue(t, ready, "capture_pid", "-5"), []problem{{"capture_pid", ruleValue}}},
		{"planned duration zero", withValue(t, ready, "planned_duration_s", "0"), []problem{{"planned_duration_s", ruleValue}}},
		{"sample rate fraction", withValue(t, ready, "sample_rate_hz", "2000000.5"), []problem{{"sample_rate_hz", ruleValue}}},
		{"schema_version 1.0", withValue(t, ready, "schema_version", "1.0"), []problem{{"schema_version", ruleValue}}},
		{"rf_tx 0.0", withValue(t, ready, "rf_tx", "0.0"), []problem{{"rf_tx", ruleValue}}},
		{"rf_tx false", withValue(t, ready, "rf_tx", "false"), []problem{{"rf_tx", ruleValue}}},
		{"rf_tx null", withValue(t, ready, "rf_tx", "null"), []problem{{"rf_tx", ruleValue}}},
		{"overruns 0.0", withValue(t, complete, "overruns", "0.0"), []problem{{"overruns", ruleValue}}},
		{`overruns "0"`, withValue(t, complete, "overruns", `"0"`), []problem{{"overruns", ruleValue}}},
		{"dropped frames negative", withValue(t, complete, "dropped_frames", "-3"), []problem{{"dropped_frames", ruleValue}}},
		{"exit code float", withValue(t, complete, "capture_exit_code", "0.0"), []problem{{"capture_exit_code", ruleValue}}},
		{"duration overflow", withValue(t, complete, "capture_duration_s", "1e999"), []problem{{"capture_duration_s", ruleValue}}},
		{`duration "1"`, withValue(t, complete, "capture_duration_s", `"1"`), []problem{{"capture_duration_s", ruleValue}}},

		// Booleans and nulls.
		{"bool null", withValue(t, ready, "file_growing", "null"), []problem{{"file_growing", ruleValue}}},
		{`bool "false"`, withValue(t, complete, "file_growing", `"false"`), []problem{{"file_growing", ruleValue}}},
		{"bool 0", withValue(t, complete, "file_growing", "0"), []problem{{"file_growing", ruleValue}}},
		{"task_id null", withValue(t, ready, "task_id", "null"), []problem{{"task_id", ruleValue}}},
		{"published_at null", withValue(t, ready, "published_at", "null"), []problem{{"published_at", ruleValue}}},
		{"state null", withValue(t, ready, "state", "null"), []problem{{"state", ruleValue}}},
		{"READY with ended_at", withValue(t, ready, "capture_ended_at", `"2026-03-14T10:17:02Z"`), []problem{{"capture_ended_at", ruleState}}},
		{"READY with sha", withValue(t, ready, "capture_sha256", `"`+strings.Repeat("a", 64)+`"`), []problem{{"capture_sha256", ruleState}}},
		{"READY with rf_tx_observed", withValue(t, ready, "rf_tx_observed", `"UNKNOWN"`), []problem{{"rf_tx_observed", ruleState}}},
		{"COMPLETE exit code null", withValue(t, complete, "capture_exit_code", "null"), []problem{{"capture_exit_code", ruleState}}},
		{"COMPLETE clkin null", withValue(t, complete, "clkin_after", "null"), []problem{{"clkin_after", ruleState}}},
		{"COMPLETE rx_ready true", withValue(t, complete, "rx_ready_for_tx", "true"), []problem{{"rx_ready_for_tx", ruleState}}},

		// Timestamps.
		{"lowercase t", withValue(t, ready, "published_at", `"2026-03-14t10:15:07Z"`), []problem{{"published_at", ruleValue}}},
		{"lowercase z", withValue(t, ready, "published_at", `"2026-03-14T10:15:07z"`), []problem{{"published_at", ruleValue}}},
		{"space for T", withValue(t, ready, "published_at", `"2026-03-14 10:15:07Z"`), []problem{{"published_at", ruleValue}}},
		{"offset without colon", withValue(t, ready, "published_at", `"2026-03-14T10:15:07+0100"`), []problem{{"published_at", ruleValue}}},
		{"ten fraction digits", withValue(t, ready, "published_at", `"2026-03-14T10:15:07.1234567891Z"`), []problem{{"published_at", ruleValue}}},
		{"hour 24", withValue(t, ready, "published_at", `"2026-03-14T24:00:00Z"`), []problem{{"published_at", ruleValue}}},
		{"February 30", withValue(t, ready, "published_at", `"2026-02-30T10:00:00Z"`), []problem{{"published_at", ruleValue}}},
		{"offset hour 24", withValue(t, ready, "published_at", `"2026-03-14T10:15:07+24:00"`), []problem{{"published_at", ruleValue}}},
		{"offset minute 60", withValue(t, ready, "published_at", `"2026-03-14T10:15:07+01:60"`), []problem{{"published_at", ruleValue}}},
		{"offset -23:59", withValue(t, ready, "published_at", `"2026-03-14T10:15:07-23:59"`), nil},
		{"date only", withValue(t, ready, "published_at", `"2026-03-14"`), []problem{{"published_at", ruleValue}}},
		{"unix seconds", withValue(t, ready, "published_at", "1773483307"), []problem{{"published_at", ruleValue}}},

		// Strings.
		{"task id too short", withValue(t, ready, "task_id", `"AB"`), []problem{{"task_id", ruleValue}}},
		{"task id leading underscore", withValue(t, ready, "task_id", `"_ABC"`), []problem{{"task_id", ruleValue}}},
		{"task id newline", withValue(t, ready, "task_id", `"RX_OTA_0001\n"`), []problem{{"task_id", ruleValue}}},
		{"task id 65 chars", withValue(t, ready, "task_id", `"`+strings.Repeat("A", 65)+`"`), []problem{{"task_id", ruleValue}}},
		{"task id 64 chars", withValue(t, ready, "task_id", `"`+strings.Repeat("A", 64)+`"`), nil},
		{"source head short", withValue(t, ready, "source_head", `"3f2a9c1"`), []problem{{"source_head", ruleValue}}},
		{"state lowercase", withValue(t, ready, "state", `"rx_ready_for_tx"`), []problem{{"state", ruleValue}}},
		{"clkin lowercase", withValue(t, complete, "clkin_after", `"detected"`), []problem{{"clkin_after", ruleValue}}},

		// Keys.
		{"key with a Kelvin sign", bytes.Replace(ready, []byte(`"task_id"`), []byte(`"tas\u212a_id"`), 1),
			[]problem{{"tas\u212a_id", ruleUnknownKey}, {"task_id", ruleMissing}}},
		{"duplicate three times", bytes.Replace(ready, []byte("{\n"), []byte("{\n  \"rf_tx\": 0,\n  \"rf_tx\": 0,\n"), 1),
			[]problem{{"rf_tx", ruleDuplicate}}},
		{"duplicate of unknown key", bytes.Replace(ready, []byte("{\n"), []byte("{\n  \"x\": 1,\n  \"x\": 1,\n"), 1),
			[]problem{{"x", ruleUnknownKey}}},
		{"nested unknown key", bytes.Replace(ready, []byte("{\n"), []byte("{\n  \"x\": {\"y\": [1, {\"z\": null}]},\n"), 1),
			[]problem{{"x", ruleUnknownKey}}},
		{"empty key", bytes.Replace(ready, []byte("{\n"), []byte("{\n  \"\": 1,\n"), 1),
			[]problem{{"", ruleUnknownKey}}},

		// Documents.
		{"string at top", []byte(`"RX_READY_FOR_TX"`), []problem{{"", ruleSyntax}}},
		{"null at top", []byte(`null`), []problem{{"", ruleSyntax}}},
		{"whitespace only", []byte(" \n"), []problem{{"", ruleSyntax}}},
		{"unterminated", ready[:len(ready)/2], []problem{{"", ruleSyntax}}},
		{"NUL after object", append(bytes.Clone(ready), 0), []problem{{"", ruleSyntax}}},
		{"comment", append([]byte("// result\n"), ready...), []problem{{"", ruleSyntax}}},
		{"single quotes", []byte(`{'task_id': 'X'}`), []problem{{"", ruleSyntax}}},
	}
}

func TestDecodeInline(t *testing.T) {
	for _, c := range inlineCases(t) {
		t.Run(c.name, func(t *testing.T) {
			r, err := Decode(c.doc, Options{})
			if c.want == nil {
				if err != nil {
					t.Fatalf("want valid, got %v", err)
				}
				if r == nil {
					t.Fatal("nil result without error")
				}
				return
			}
			if r != nil {
				t.Errorf("got a result with the error")
			}
			mustInvalid(t, err, c.want...)
		})
	}
}

func TestDecodeReportsEveryViolationAtOnce(t *testing.T) {
	doc := readExample(t, "ready.json")
	doc = withValue(t, doc, "frequency_hz", "433920000.0")
	doc = withValue(t, doc, "source_head", `"ABC"`)
	doc = withValue(t, doc, "file_growing", "false")
	doc = withValue(t, doc, "overruns", "7")
	doc = withValue(t, doc, "rf_tx", "1")
	doc = bytes.Replace(doc, []byte("  \"capture_pid\": 48213,\n"), nil, 1)
	doc = bytes.Replace(doc, []byte("{\n"), []byte("{\n  \"Task_ID\": \"RX_OTA_0001\",\n  \"planned_duration_s\": 60,\n"), 1)
	_, err := Decode(doc, Options{})
	ie := mustInvalid(t, err,
		problem{"Task_ID", ruleUnknownKey},
		problem{"planned_duration_s", ruleDuplicate},
		problem{"source_head", ruleValue},
		problem{"frequency_hz", ruleValue},
		problem{"capture_pid", ruleMissing},
		problem{"rf_tx", ruleValue},
		problem{"file_growing", ruleState},
		problem{"overruns", ruleState},
	)
	// The rendered message lists every key, each once per problem.
	msg := ie.Error()
	for _, p := range ie.Errs {
		if !strings.Contains(msg, `"`+p.Key+`"`) {
			t.Errorf("message does not name %q:\n%s", p.Key, msg)
		}
	}
	if got := strings.Count(msg, "\n  - "); got != 8 {
		t.Errorf("message has %d lines of problems, want 8:\n%s", got, msg)
	}
}

func TestDecodeStateRulesSkipMistypedKeys(t *testing.T) {
	// A mistyped key is reported once, not again by the READY rules.
	doc := withValue(t, readExample(t, "ready.json"), "process_alive", `"yes"`)
	_, err := Decode(doc, Options{})
	mustInvalid(t, err, problem{"process_alive", ruleValue})

	// A mistyped state disables the state rules rather than guessing.
	doc = withValue(t, withValue(t, readExample(t, "ready.json"), "state", `"DONE"`), "overruns", "3")
	_, err = Decode(doc, Options{})
	mustInvalid(t, err, problem{"state", ruleValue})
}

func TestDecodeTaskIDOption(t *testing.T) {
	ready := readExample(t, "ready.json")
	if _, err := Decode(ready, Options{TaskID: "RX_OTA_0001"}); err != nil {
		t.Fatal(err)
	}
	_, err := Decode(ready, Options{TaskID: "RX_OTA_0002"})
	mustInvalid(t, err, problem{"task_id", ruleTaskID})
	// No case folding here either.
	_, err = Decode(ready, Options{TaskID: "rx_ota_0001"})
	mustInvalid(t, err, problem{"task_id", ruleTaskID})
}

// padded returns the ready example with spaces before its final newline so
// that it is exactly n bytes.
func padded(t *testing.T, n int) []byte {
	ready := readExample(t, "ready.json")
	if n < len(ready) {
		t.Fatalf("can't pad to %d", n)
	}
	return append(append(bytes.Clone(ready[:len(ready)-1]), bytes.Repeat([]byte(" "), n-len(ready))...), '\n')
}

func TestDecodeSizeLimit(t *testing.T) {
	if _, err := Decode(padded(t, MaxBytes), Options{}); err != nil {
		t.Fatalf("exactly %d bytes must pass: %v", MaxBytes, err)
	}
	_, err := Decode(padded(t, MaxBytes+1), Options{})
	mustInvalid(t, err, problem{"", ruleSize})

	// A policy can tighten the limit but never loosen it.
	_, err = Decode(padded(t, 2000), Options{MaxBytes: 1999})
	mustInvalid(t, err, problem{"", ruleSize})
	if _, err := Decode(padded(t, 2000), Options{MaxBytes: 2000}); err != nil {
		t.Fatal(err)
	}
	_, err = Decode(padded(t, MaxBytes+1), Options{MaxBytes: 1 << 30})
	mustInvalid(t, err, problem{"", ruleSize})
	if _, err := Decode(padded(t, 2000), Options{MaxBytes: -1}); err != nil {
		t.Fatal(err)
	}
}

func TestInvalidErrorAs(t *testing.T) {
	_, err := Decode(readExample(t, "invalid/rf_tx_one.json"), Options{})
	wrapped := errlist.Join(errors.New("publish refused"), err)
	var ie *invalidError
	if !errors.As(wrapped, &ie) {
		t.Fatalf("errors.As *invalidError failed on %v", wrapped)
	}
	var fe *fieldError
	if !errors.As(wrapped, &fe) || fe.Key != "rf_tx" || fe.Rule != ruleValue {
		t.Fatalf("errors.As *fieldError: %+v", fe)
	}
	if !strings.HasPrefix(ie.Error(), "RX_RESULT.json is invalid: ") {
		t.Errorf("single-problem message: %q", ie.Error())
	}
}

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "RX_RESULT.json")
	ready := readExample(t, "ready.json")
	if err := os.WriteFile(good, ready, 0o644); err != nil {
		t.Fatal(err)
	}
	r, data, err := ReadFile(good, Options{TaskID: "RX_OTA_0001"})
	if err != nil || r.State != StateReady || !bytes.Equal(data, ready) {
		t.Fatalf("ReadFile: %v %v", r, err)
	}

	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, readExample(t, "invalid/uppercase_hex.json"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err = ReadFile(bad, Options{})
	ie := mustInvalid(t, err, problem{"source_head", ruleValue})
	if ie.Source != bad || !strings.HasPrefix(err.Error(), bad+" is invalid") {
		t.Errorf("error does not name the file: %v", err)
	}

	// A huge file is refused after reading just past the limit.
	huge := filepath.Join(dir, "huge.json")
	if err := os.WriteFile(huge, bytes.Repeat([]byte(" "), 4<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err = ReadFile(huge, Options{MaxBytes: 4096})
	mustInvalid(t, err, problem{"", ruleSize})

	// Not a regular file: a directory, or a symlink even to a good result.
	if _, _, err := ReadFile(dir, Options{}); err == nil {
		t.Error("a directory was accepted")
	}
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(good, link); err == nil && linkResolves(link) {
		if _, _, err := ReadFile(link, Options{}); err == nil || !strings.Contains(err.Error(), link+": not a regular file") {
			t.Errorf("a symlink to a good result: %v, want it refused naming the link", err)
		}
	}
	var ie2 *invalidError
	if _, _, err := ReadFile(filepath.Join(dir, "absent.json"), Options{}); !errors.Is(err, os.ErrNotExist) || errors.As(err, &ie2) {
		t.Errorf("missing file: %v", err)
	}
}

func TestSHA256(t *testing.T) {
	if got := SHA256([]byte("abc")); got != "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" {
		t.Errorf("SHA256(abc) = %s", got)
	}
}

// linkResolves reports whether link is a symlink this system reads through
// (Wine's emulation of Windows symlinks is neither).
func linkResolves(link string) bool {
	fi, err := os.Lstat(link)
	if err != nil || fi.Mode()&os.ModeSymlink == 0 {
		return false
	}
	_, err = os.ReadFile(link)
	return err == nil
}
