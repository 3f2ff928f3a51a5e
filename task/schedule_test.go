package task

import (
	"strings"
	"testing"
	"time"

	"rfhandoff/captureplan"
)

// PROTOCOL#task-file: START_AT (a whole UTC second, RFC 3339 with Z) and
// SYNC_MODE (HOST_CLOCK or PPS), both or neither, with CAPTURE_DURATION_S.
func TestParseSchedule(t *testing.T) {
	for _, mode := range []string{"HOST_CLOCK", "PPS"} {
		data := hdr(nil) + "CAPTURE_DURATION_S = 30\nSTART_AT = 2026-12-02T20:00:00Z\nSYNC_MODE = " + mode + "\n\nbody\n"
		tk := mustParse(t, data, testOpts)
		want := captureplan.Task{DurationS: 30, StartAt: time.Date(2026, 12, 2, 20, 0, 0, 0, time.UTC), SyncMode: mode}
		if tk.Capture != want || tk.Capture.StartAt.Location() != time.UTC {
			t.Errorf("Capture = %+v, want %+v", tk.Capture, want)
		}
	}
	// Order within the header is free, as for every field.
	tk := mustParse(t, "SYNC_MODE = PPS\n"+hdr(nil)+"START_AT = 2030-01-01T00:00:59Z\nCAPTURE_DURATION_S = 15\n\nbody\n", testOpts)
	if tk.Capture.SyncMode != "PPS" || !tk.Capture.StartAt.Equal(time.Date(2030, 1, 1, 0, 0, 59, 0, time.UTC)) {
		t.Errorf("Capture = %+v", tk.Capture)
	}
}

func TestParseScheduleInvalid(t *testing.T) {
	at := len(baseFields) + 2 // after CAPTURE_DURATION_S
	for _, tc := range []struct{ field, value, rule string }{
		{FieldStartAt, "2026-12-02T20:00:00.5Z", "whole UTC second"},
		{FieldStartAt, "2026-12-02T20:00:00.000Z", "whole UTC second"},
		{FieldStartAt, "2026-12-02T21:00:00+01:00", "whole UTC second"},
		{FieldStartAt, "2026-12-02T20:00:00z", "whole UTC second"},
		{FieldStartAt, "2026-12-02 20:00:00Z", "whole UTC second"},
		{FieldStartAt, "2026-12-02T20:00Z", "whole UTC second"},
		{FieldStartAt, "2026-12-02T20:00:60Z", "whole UTC second"},
		{FieldStartAt, "2026-02-30T20:00:00Z", "whole UTC second"},
		{FieldStartAt, "1796227200", "whole UTC second"},
		{FieldStartAt, "", "whole UTC second"},
		{FieldSyncMode, "pps", "HOST_CLOCK or PPS"},
		{FieldSyncMode, "GPS", "HOST_CLOCK or PPS"},
		{FieldSyncMode, "HOST", "HOST_CLOCK or PPS"},
	} {
		other := "SYNC_MODE = PPS"
		if tc.field == FieldSyncMode {
			other = "START_AT = 2026-12-02T20:00:00Z"
		}
		data := hdr(nil) + "CAPTURE_DURATION_S = 30\n" + tc.field + " = " + tc.value + "\n" + other + "\n\nbody\n"
		wantProblems(t, data, testOpts, prob{kindInvalid, tc.field, at})
		_, err := Parse([]byte(data), testOpts)
		if msg := err.Error(); !strings.Contains(msg, tc.field) || !strings.Contains(msg, tc.rule) || !strings.Contains(msg, `"`+tc.value+`"`) {
			t.Errorf("%s = %q: message %q names not the field, the value and the rule", tc.field, tc.value, msg)
		}
	}
}

// Every reason at once: one without the other, no CAPTURE_DURATION_S,
// RF_RX = NO, alongside an invalid value.
func TestParseScheduleEveryReason(t *testing.T) {
	line := len(baseFields) + 1
	wantProblems(t, hdr(nil)+"START_AT = 2026-12-02T20:00:00Z\n\nbody\n", testOpts,
		prob{kindConflict, FieldStartAt, line}, prob{kindConflict, FieldStartAt, line})
	_, err := Parse([]byte(hdr(nil)+"START_AT = 2026-12-02T20:00:00Z\n\nbody\n"), testOpts)
	if msg := err.Error(); !strings.Contains(msg, "needs SYNC_MODE too") || !strings.Contains(msg, "needs CAPTURE_DURATION_S") {
		t.Errorf("message: %s", msg)
	}
	wantProblems(t, hdr(nil)+"CAPTURE_DURATION_S = 30\nSYNC_MODE = PPS\n\nbody\n", testOpts,
		prob{kindConflict, FieldSyncMode, line + 1})
	// An invalid START_AT still counts as present: its own reason, and
	// the missing duration; SYNC_MODE is there.
	wantProblems(t, hdr(nil)+"START_AT = 2026-12-02T20:00:00.5Z\nSYNC_MODE = PPS\n\nbody\n", testOpts,
		prob{kindInvalid, FieldStartAt, line}, prob{kindConflict, FieldStartAt, line})

	noRX := hdr(map[string]string{FieldRFRX: "NO", FieldHardwareAccess: "NO", FieldAllowPush: "NO", FieldRiskLevel: "GREEN"}) +
		"CAPTURE_DURATION_S = 30\nSTART_AT = 2026-12-02T20:00:00Z\nSYNC_MODE = HOST_CLOCK\n\nbody\n"
	wantProblems(t, noRX, testOpts,
		prob{kindConflict, FieldCaptureDurationS, line},
		prob{kindConflict, FieldStartAt, line + 1},
		prob{kindConflict, FieldSyncMode, line + 2})
}

// A task without the fields digests its bytes as before and has a zero
// schedule.
func TestParseWithoutSchedule(t *testing.T) {
	data := hdr(nil) + "CAPTURE_DURATION_S = 30\n\nbody\n"
	tk := mustParse(t, data, testOpts)
	if !tk.Capture.StartAt.IsZero() || tk.Capture.SyncMode != "" || tk.SHA256 != Digest([]byte(data)) {
		t.Errorf("%+v %s", tk.Capture, tk.SHA256)
	}
}

// task new: Build writes both fields in the header's form after the
// capture fields; what Parse refuses Build refuses, every reason at once.
func TestBuildSchedule(t *testing.T) {
	local := time.FixedZone("CET", 3600)
	c := captureplan.Task{DurationS: 45, StartAt: time.Date(2026, 12, 2, 21, 0, 0, 0, local), SyncMode: "PPS"}
	data, tk, err := Build(spec(func(s *Spec) { s.HardwareAccess, s.RFRX, s.Capture = true, true, c }), testOpts)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "CAPTURE_DURATION_S = 45\nSTART_AT = 2026-12-02T20:00:00Z\nSYNC_MODE = PPS\n\n") ||
		!tk.Capture.StartAt.Equal(c.StartAt) || tk.Capture.SyncMode != "PPS" {
		t.Errorf("rendered %q, parsed %+v", data, tk.Capture)
	}
	if !strings.Contains(DefaultBody(spec(func(s *Spec) { s.Capture = c })), "START_AT = 2026-12-02T20:00:00Z, SYNC_MODE = PPS") {
		t.Error("the default body does not say the schedule")
	}
	_, _, err = Build(spec(func(s *Spec) {
		s.HardwareAccess, s.RFRX = true, true
		s.Capture = captureplan.Task{StartAt: time.Date(2026, 12, 2, 20, 0, 0, 5e8, time.UTC)}
	}), testOpts)
	if err == nil {
		t.Fatal("a fractional START_AT without SYNC_MODE and duration was built")
	}
	for _, want := range []string{`"2026-12-02T20:00:00.5Z"`, "whole UTC second", "needs SYNC_MODE too", "needs CAPTURE_DURATION_S"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("refusal lacks %q: %v", want, err)
		}
	}
}

func TestParseStartAtAndSyncMode(t *testing.T) {
	if at, err := ParseStartAt("2026-12-02T20:00:00Z"); err != nil || !at.Equal(time.Date(2026, 12, 2, 20, 0, 0, 0, time.UTC)) {
		t.Errorf("%v %v", at, err)
	}
	if _, err := ParseStartAt("2026-12-02T20:00:00.1Z"); err == nil || !strings.Contains(err.Error(), "START_AT") {
		t.Errorf("fraction: %v", err)
	}
	if m, err := ParseSyncMode("HOST_CLOCK"); m != "HOST_CLOCK" || err != nil {
		t.Errorf("%q %v", m, err)
	}
	if _, err := ParseSyncMode("host"); err == nil || !strings.Contains(err.Error(), `SYNC_MODE: invalid value "host": must be HOST_CLOCK or PPS`) {
		t.Errorf("host: %v", err)
	}
}
