package hackrfcli

import (
	"errors"
	"testing"
)

func TestParseClockTranscripts(t *testing.T) {
	tests := map[string]struct {
		want    ClockStatus
		is      error
		errType any
		message string // UsageError.Message
	}{
		"clock/debian-detected.txtar":       {want: ClockDetected},
		"clock/debian-not-detected.txtar":   {want: ClockNotDetected},
		"clock/upstream-detected.txtar":     {want: ClockDetected},
		"clock/upstream-not-detected.txtar": {want: ClockNotDetected},
		"clock/debian-nodevice.txtar":       {is: ErrNoDevice, errType: new(*CallError)},
		"clock/debian-old-firmware.txtar":   {errType: new(*CallError)},
		"clock/debian-long-option.txtar":    {errType: new(*UsageError), message: "hackrf_clock: option '--clkin' requires an argument"},
		"clock/debian-no-operation.txtar":   {errType: new(*UsageError), message: "An operation must be specified."},
	}
	tested := map[string]bool{}
	for name, w := range tests {
		tested[name] = true
		t.Run(name, func(t *testing.T) {
			tr := loadTranscript(t, name)
			got, err := ParseClock(tr.Stdout, tr.Stderr, tr.ExitCode)
			if got != w.want {
				t.Errorf("status %v, want %v", got, w.want)
			}
			if w.errType == nil {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			if !errors.As(err, w.errType) {
				t.Fatalf("error %T (%v), want %T", err, err, w.errType)
			}
			if w.is != nil && !errors.Is(err, w.is) {
				t.Errorf("error %v is not %v", err, w.is)
			}
			var ue *UsageError
			if errors.As(err, &ue) && ue.Message != w.message {
				t.Errorf("usage message %q, want %q", ue.Message, w.message)
			}
		})
	}
	checkCoverage(t, "clock", tested)
}

func TestParseClockOdd(t *testing.T) {
	tests := []struct {
		name   string
		stdout string
		exit   int
		want   ClockStatus
		ok     bool
	}{
		// Substring trap: a Contains("clock signal detected") check would
		// read the "no" line as detected.
		{"no-line only", "CLKIN status: no clock signal detected\n", 0, ClockNotDetected, true},
		{"trailing space is not the line", "CLKIN status: clock signal detected \n", 0, ClockUnknown, false},
		{"prefixed is not the line", "x CLKIN status: clock signal detected\n", 0, ClockUnknown, false},
		{"both answers", "CLKIN status: clock signal detected\nCLKIN status: no clock signal detected\n", 0, ClockUnknown, false},
		{"same answer twice", "CLKIN status: clock signal detected\nCLKIN status: clock signal detected\n", 0, ClockDetected, true},
		{"answer but exit 1", "CLKIN status: clock signal detected\n", 1, ClockUnknown, false},
		{"empty", "", 0, ClockUnknown, false},
		{"CRLF", "CLKIN status: clock signal detected\r\n", 0, ClockDetected, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseClock([]byte(tt.stdout), nil, tt.exit)
			if got != tt.want || (err == nil) != tt.ok {
				t.Errorf("ParseClock = %v, %v; want %v, ok=%v", got, err, tt.want, tt.ok)
			}
		})
	}
}

func TestClockStatusString(t *testing.T) {
	for s, want := range map[ClockStatus]string{ClockDetected: "DETECTED", ClockNotDetected: "NOT_DETECTED", ClockUnknown: "UNKNOWN"} {
		if s.String() != want {
			t.Errorf("%d.String() = %q, want %q", s, s.String(), want)
		}
	}
}
