package hackrfcli

import (
	"errors"
	"strings"
	"testing"
)

func TestParseClockTranscripts(t *testing.T) {
	tests := map[string]struct {
		want    ClockStatus
		is      error
		errType any
		usage   string // the complaint of a usage error
	}{
		"clock/debian-detected.txtar":       {want: ClockDetected},
		"clock/debian-not-detected.txtar":   {want: ClockNotDetected},
		"clock/upstream-detected.txtar":     {want: ClockDetected},
		"clock/upstream-not-detected.txtar": {want: ClockNotDetected},
		"clock/debian-nodevice.txtar":       {is: ErrNoDevice, errType: new(*callError)},
		"clock/debian-old-firmware.txtar":   {errType: new(*FirmwareError)},
		"clock/debian-long-option.txtar":    {usage: "hackrf_clock: option '--clkin' requires an argument"},
		"clock/debian-no-operation.txtar":   {usage: "An operation must be specified."},
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
			if w.usage != "" {
				if want := "): " + w.usage; err == nil || !strings.HasPrefix(err.Error(), "hackrf_clock: usage error (exit status ") ||
					!strings.HasSuffix(err.Error(), want) {
					t.Fatalf("error %v, want a usage error ending %q", err, want)
				}
				return
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

// TestParseClockOldFirmware: -1005 from hackrf_clock -i is a
// *FirmwareError that says what the call needs and still unwraps to the
// tool's *callError; any other failure stays a plain *callError.
func TestParseClockOldFirmware(t *testing.T) {
	tests := []struct {
		name, stdout      string
		firmware          bool
		needAPI, release  string
		wantCode          int
		wantMsgContaining string
	}{
		{"clkin -1005", "hackrf_get_clkin_status() failed: feature not supported by installed firmware (-1005)\n",
			true, "1.06", "2022.09.1", -1005, "hackrf_get_clkin_status() needs HackRF firmware 2022.09.1 or later (USB API 1.06)"},
		{"clkin -1005 CRLF", "hackrf_get_clkin_status() failed: feature not supported by installed firmware (-1005)\r\n",
			true, "1.06", "2022.09.1", -1005, "needs HackRF firmware 2022.09.1"},
		{"clkout -1005", "hackrf_set_clkout_enable() failed: feature not supported by installed firmware (-1005)\n",
			true, "1.03", "2021.03.1", -1005, "needs HackRF firmware 2021.03.1 or later (USB API 1.03)"},
		{"unknown call -1005", "hackrf_something_new() failed: feature not supported by installed firmware (-1005)\n",
			true, "", "", -1005, "the HackRF's firmware is too old for this call"},
		{"clkin USB error", "hackrf_get_clkin_status() failed: Pipe error (-1000)\n",
			false, "", "", -1000, "Pipe error (-1000)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st, err := ParseClock([]byte(tt.stdout), nil, 1)
			if st != ClockUnknown || err == nil {
				t.Fatalf("ParseClock = %v, %v", st, err)
			}
			var fe *FirmwareError
			if errors.As(err, &fe) != tt.firmware {
				t.Fatalf("error %T (%v): FirmwareError %v, want %v", err, err, fe != nil, tt.firmware)
			}
			if fe != nil && (fe.NeedAPI != tt.needAPI || fe.NeedRelease != tt.release) {
				t.Errorf("needs API %q release %q, want %q %q", fe.NeedAPI, fe.NeedRelease, tt.needAPI, tt.release)
			}
			var ce *callError
			if !errors.As(err, &ce) || ce.Code != tt.wantCode || ce.Tool != "hackrf_clock" {
				t.Errorf("callError %+v, want code %d", ce, tt.wantCode)
			}
			if !strings.Contains(err.Error(), tt.wantMsgContaining) {
				t.Errorf("message %q lacks %q", err, tt.wantMsgContaining)
			}
			if errors.Is(err, ErrNoDevice) || errors.Is(err, errBusy) {
				t.Errorf("%v must not read as no device or busy", err)
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

// String names a status in test messages.
func (s ClockStatus) String() string {
	switch s {
	case ClockDetected:
		return "DETECTED"
	case ClockNotDetected:
		return "NOT_DETECTED"
	}
	return "UNKNOWN"
}
