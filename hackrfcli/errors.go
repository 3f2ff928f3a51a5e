package hackrfcli

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
)

// ErrNoDevice matches (errors.Is) every way the tools say no HackRF could be
// found or opened by serial.
var ErrNoDevice = errors.New("no HackRF found")

// ErrBusy matches (errors.Is) a HackRF that another process holds.
var ErrBusy = errors.New("HackRF busy")

// libhackrf error codes the package gives meaning to.
const (
	codeNotFound = -5
	codeBusy     = -6
	codeLibUSB   = -1000
)

// CallError is a "<call>() failed: <text> (<code>)" line printed by a tool.
type CallError struct {
	Tool string // hackrf_info, hackrf_clock or hackrf_transfer
	Call string // the library call without "()", e.g. "hackrf_open"
	Text string // libhackrf's (or libusb's) error text
	Code int    // libhackrf error code, e.g. -5
}

func (e *CallError) Error() string {
	return fmt.Sprintf("%s: %s() failed: %s (%d)", e.Tool, e.Call, e.Text, e.Code)
}

// Is makes a not-found failure match ErrNoDevice and a claimed device match
// ErrBusy.
func (e *CallError) Is(target error) bool {
	switch target {
	case ErrNoDevice:
		return e.Code == codeNotFound
	case ErrBusy:
		return e.Code == codeBusy || (e.Code == codeLibUSB && e.Text == "Resource busy")
	}
	return false
}

// NoDeviceError is hackrf_info's "No HackRF boards found.".
type NoDeviceError struct {
	Tool     string
	ExitCode int
}

func (e *NoDeviceError) Error() string {
	return fmt.Sprintf("%s: No HackRF boards found. (exit status %d)", e.Tool, e.ExitCode)
}

// Is makes NoDeviceError match ErrNoDevice.
func (e *NoDeviceError) Is(target error) bool { return target == ErrNoDevice }

// UsageError is a tool that printed its usage text instead of doing the
// work. ExitCode may well be 0: getopt errors end hackrf_transfer and
// hackrf_clock with EXIT_SUCCESS.
type UsageError struct {
	Tool     string
	ExitCode int
	Message  string // the complaint printed with the usage, if any
}

func (e *UsageError) Error() string {
	msg := e.Message
	if msg == "" {
		msg = "printed its usage text"
	}
	return fmt.Sprintf("%s: usage error (exit status %d): %s", e.Tool, e.ExitCode, msg)
}

// OutputError is output the parser could not make sense of.
type OutputError struct {
	Tool     string
	ExitCode int
	Reason   string
}

func (e *OutputError) Error() string {
	return fmt.Sprintf("%s: unexpected output (exit status %d): %s", e.Tool, e.ExitCode, e.Reason)
}

var callFailedRE = regexp.MustCompile(`^(\S+)\(\) failed: (.*) \((-?\d+)\)$`)

// parseCallFailed reads a "<call>() failed: <text> (<code>)" line.
func parseCallFailed(tool, line string) (*CallError, bool) {
	m := callFailedRE.FindStringSubmatch(line)
	if m == nil {
		return nil, false
	}
	code, err := strconv.Atoi(m[3])
	if err != nil {
		return nil, false
	}
	return &CallError{Tool: tool, Call: m[1], Text: m[2], Code: code}, true
}
