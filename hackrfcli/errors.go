package hackrfcli

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
)

// ErrNoDevice matches every way the tools say no HackRF could be found.
var ErrNoDevice = errors.New("no HackRF found")

// errBusy matches a HackRF that another process holds.
var errBusy = errors.New("HackRF busy")

// libhackrf error codes the package gives meaning to.
const (
	codeNotFound      = -5
	codeBusy          = -6
	codeLibUSB        = -1000
	codeUSBAPIVersion = -1005 // the board's firmware is too old for the call
)

// callError is a "<call>() failed: <text> (<code>)" line printed by a tool.
type callError struct {
	Tool string // hackrf_info, hackrf_clock or hackrf_transfer
	Call string // the library call without "()", e.g. "hackrf_open"
	Text string // libhackrf's (or libusb's) error text
	Code int    // libhackrf error code, e.g. -5
}

func (e *callError) Error() string {
	return fmt.Sprintf("%s: %s() failed: %s (%d)", e.Tool, e.Call, e.Text, e.Code)
}

func (e *callError) Is(target error) bool {
	switch target {
	case ErrNoDevice:
		return e.Code == codeNotFound
	case errBusy:
		return e.Code == codeBusy || (e.Code == codeLibUSB && e.Text == "Resource busy")
	}
	return false
}

// FirmwareError is a call the board's firmware is too old for (-1005);
// NeedAPI and NeedRelease are "" for a call the package does not know.
type FirmwareError struct {
	Call        *callError
	NeedAPI     string // firmware USB API version, e.g. "1.06"
	NeedRelease string // the first firmware release with it, e.g. "2022.09.1"
}

func (e *FirmwareError) Error() string {
	if e.NeedAPI == "" {
		return e.Call.Error() + ": the HackRF's firmware is too old for this call"
	}
	return fmt.Sprintf("%s: %s() needs HackRF firmware %s or later (USB API %s)", e.Call, e.Call.Call, e.NeedRelease, e.NeedAPI)
}

func (e *FirmwareError) Unwrap() error { return e.Call }

// firmwareNeeds is the USB API (and the first firmware release with it)
// that libhackrf 2022.09.1 requires for the calls rfhandoff's tools make.
var firmwareNeeds = map[string][2]string{
	"hackrf_get_clkin_status":  {"1.06", "2022.09.1"}, // hackrf_clock -i
	"hackrf_get_m0_state":      {"1.06", "2022.09.1"}, // hackrf_transfer -B
	"hackrf_set_clkout_enable": {"1.03", "2021.03.1"}, // hackrf_clock -o
}

func asFirmwareError(ce *callError) error {
	if ce.Code != codeUSBAPIVersion {
		return ce
	}
	need := firmwareNeeds[ce.Call]
	return &FirmwareError{Call: ce, NeedAPI: need[0], NeedRelease: need[1]}
}

// noDeviceError is hackrf_info's "No HackRF boards found.".
type noDeviceError struct {
	Tool     string
	ExitCode int
}

func (e *noDeviceError) Error() string {
	return fmt.Sprintf("%s: No HackRF boards found. (exit status %d)", e.Tool, e.ExitCode)
}

func (e *noDeviceError) Is(target error) bool { return target == ErrNoDevice }

// usageError is a tool that printed its usage text instead of doing the
// work; exitCode may well be 0 (getopt errors end with EXIT_SUCCESS).
func usageError(tool string, exitCode int, complaint string) error {
	if complaint == "" {
		complaint = "printed its usage text"
	}
	return fmt.Errorf("%s: usage error (exit status %d): %s", tool, exitCode, complaint)
}

func outputError(tool string, exitCode int, reason string) error {
	return fmt.Errorf("%s: unexpected output (exit status %d): %s", tool, exitCode, reason)
}

var callFailedRE = regexp.MustCompile(`^(\S+)\(\) failed: (.*) \((-?\d+)\)$`)

func parseCallFailed(tool, line string) (*callError, bool) {
	m := callFailedRE.FindStringSubmatch(line)
	if m == nil {
		return nil, false
	}
	code, err := strconv.Atoi(m[3])
	if err != nil {
		return nil, false
	}
	return &callError{Tool: tool, Call: m[1], Text: m[2], Code: code}, true
}

func callFailures(tool string, lines []string) []*callError {
	var out []*callError
	for _, line := range lines {
		if ce, ok := parseCallFailed(tool, line); ok {
			out = append(out, ce)
		}
	}
	return out
}
