package task

import (
	"errors"
	"strings"
	"testing"

	"rfhandoff/captureplan"
)

// PROTOCOL#task-file: CAPTURE_FREQUENCY_HZ, CAPTURE_SAMPLE_RATE_HZ and
// CAPTURE_DURATION_S are optional; present, strict decimal integers
// within the hardware's and the protocol's bounds.
func TestParseCaptureFields(t *testing.T) {
	tk := mustParse(t, hdr(nil)+"CAPTURE_FREQUENCY_HZ = 868000000\nCAPTURE_SAMPLE_RATE_HZ = 10000000\nCAPTURE_DURATION_S = 30\n\nbody\n", testOpts)
	if want := (captureplan.Task{FrequencyHz: 868_000_000, SampleRateHz: 10_000_000, DurationS: 30}); tk.Capture != want {
		t.Errorf("Capture = %+v, want %+v", tk.Capture, want)
	}
	// One alone; the rest stay unset.
	tk = mustParse(t, "CAPTURE_DURATION_S = 3600\n"+hdr(nil)+"\nbody\n", testOpts)
	if want := (captureplan.Task{DurationS: 3600}); tk.Capture != want {
		t.Errorf("Capture = %+v, want %+v", tk.Capture, want)
	}
	// None: the zero value, and the bytes digest as they are.
	base := mustParse(t, hdr(nil)+"\nbody\n", testOpts)
	if !base.Capture.IsZero() || base.SHA256 != Digest([]byte(hdr(nil)+"\nbody\n")) {
		t.Errorf("a task without capture fields: %+v %s", base.Capture, base.SHA256)
	}
}

func TestParseCaptureFieldsInvalid(t *testing.T) {
	line := len(baseFields) + 1
	for _, tc := range []struct{ field, value string }{
		{FieldCaptureFrequencyHz, "868e6"},
		{FieldCaptureFrequencyHz, "868_000_000"},
		{FieldCaptureFrequencyHz, "+868000000"},
		{FieldCaptureFrequencyHz, "0868000000"},
		{FieldCaptureFrequencyHz, "868000000.0"},
		{FieldCaptureFrequencyHz, "868 MHz"},
		{FieldCaptureFrequencyHz, "999999"},
		{FieldCaptureFrequencyHz, "6000000001"},
		{FieldCaptureFrequencyHz, "99999999999999999999999"},
		{FieldCaptureSampleRateHz, "1999999"},
		{FieldCaptureSampleRateHz, "20000001"},
		{FieldCaptureSampleRateHz, "-2000000"},
		{FieldCaptureDurationS, "14"},
		{FieldCaptureDurationS, "3601"},
		{FieldCaptureDurationS, "0"},
		{FieldCaptureDurationS, ""},
		{FieldCaptureDurationS, "30s"},
	} {
		data := hdr(nil) + tc.field + " = " + tc.value + "\n\nbody\n"
		wantProblems(t, data, testOpts, prob{kindInvalid, tc.field, line})
		_, err := Parse([]byte(data), testOpts)
		if msg := err.Error(); !strings.Contains(msg, tc.field) || !strings.Contains(msg, "whole number from") {
			t.Errorf("%s = %q: message %q names neither the field nor the rule", tc.field, tc.value, msg)
		}
	}
}

// Every reason at once: each bad field, the duplicate, and a capture
// field on a task that receives nothing.
func TestParseCaptureFieldsEveryReason(t *testing.T) {
	line := len(baseFields) + 1
	data := hdr(nil) + "CAPTURE_FREQUENCY_HZ = 1e9\nCAPTURE_SAMPLE_RATE_HZ = 2\nCAPTURE_DURATION_S = 30\nCAPTURE_DURATION_S = 40\n\nbody\n"
	wantProblems(t, data, testOpts,
		prob{kindInvalid, FieldCaptureFrequencyHz, line},
		prob{kindInvalid, FieldCaptureSampleRateHz, line + 1},
		prob{kindDuplicate, FieldCaptureDurationS, line + 3})

	noRX := hdr(map[string]string{FieldRFRX: "NO", FieldHardwareAccess: "NO", FieldAllowPush: "NO", FieldRiskLevel: "GREEN"}) +
		"CAPTURE_FREQUENCY_HZ = 868000000\nCAPTURE_DURATION_S = 30\n\nbody\n"
	wantProblems(t, noRX, testOpts,
		prob{kindConflict, FieldCaptureFrequencyHz, line},
		prob{kindConflict, FieldCaptureDurationS, line + 1})
	_, err := Parse([]byte(noRX), testOpts)
	var ie *InvalidError
	if !errors.As(err, &ie) || !strings.Contains(err.Error(), "needs RF_RX = YES") || !strings.Contains(err.Error(), `"868000000"`) {
		t.Errorf("conflict message: %v", err)
	}
}

// Build writes the fields after the required ones only when set, and a
// value the header refuses is refused alike (task new's flags).
func TestBuildCaptureFields(t *testing.T) {
	c := captureplan.Task{FrequencyHz: 915_000_000, DurationS: 45}
	data, tk, err := Build(spec(func(s *Spec) { s.HardwareAccess, s.RFRX, s.Capture = true, true, c }), testOpts)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "RISK_LEVEL = YELLOW\nCAPTURE_FREQUENCY_HZ = 915000000\nCAPTURE_DURATION_S = 45\n\n") || tk.Capture != c {
		t.Errorf("rendered %q, parsed %+v", data, tk.Capture)
	}
	data, _, err = Build(spec(func(s *Spec) { s.HardwareAccess, s.RFRX = true, true }), testOpts)
	if err != nil || strings.Contains(string(data), "\nCAPTURE_") {
		t.Errorf("a task without capture values got a CAPTURE_ line (%v): %q", err, data)
	}
	_, _, err = Build(spec(func(s *Spec) {
		s.HardwareAccess, s.RFRX, s.Capture = true, true, captureplan.Task{SampleRateHz: 40_000_000, DurationS: -1}
	}), testOpts)
	if err == nil || !strings.Contains(err.Error(), `CAPTURE_SAMPLE_RATE_HZ`) || !strings.Contains(err.Error(), `"40000000"`) ||
		!strings.Contains(err.Error(), `CAPTURE_DURATION_S`) || !strings.Contains(err.Error(), `"-1"`) {
		t.Errorf("out-of-range values: %v", err)
	}
}

// task new's flags: the header's rule, the field named.
func TestParseCaptureValue(t *testing.T) {
	if n, err := ParseCaptureValue(FieldCaptureDurationS, "45"); n != 45 || err != nil {
		t.Errorf("45 = %d, %v", n, err)
	}
	if n, err := ParseCaptureValue(FieldCaptureFrequencyHz, "868e6"); n != 0 || err == nil ||
		!strings.Contains(err.Error(), `CAPTURE_FREQUENCY_HZ`) || !strings.Contains(err.Error(), `"868e6"`) {
		t.Errorf("868e6 = %d, %v", n, err)
	}
	if _, err := ParseCaptureValue(FieldRXNodes, "rx-a"); err == nil {
		t.Error("RX_NODES taken for a capture field")
	}
}
