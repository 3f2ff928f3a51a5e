package hackrfcli

import (
	"fmt"
	"strings"
)

// ClockStatus is hackrf_clock -i's answer about the CLKIN input.
type ClockStatus int

const (
	ClockUnknown     ClockStatus = iota // no answer (an error)
	ClockDetected                       // "CLKIN status: clock signal detected"
	ClockNotDetected                    // "CLKIN status: no clock signal detected"
)

const toolClock = "hackrf_clock"

// The two answers share a suffix ("clock signal detected"), so only whole
// lines are compared, never substrings.
const (
	clkinDetected    = "CLKIN status: clock signal detected"
	clkinNotDetected = "CLKIN status: no clock signal detected"
	clockUsageHead   = "hackrf_clock - HackRF clock configuration utility"
)

// ParseClock reads hackrf_clock -i's stdout, stderr and exit code.
//
// hackrf_clock prints its answer and its "... failed:" lines on stdout; only
// "An operation must be specified." and getopt's complaints go to stderr. A
// usage text (exit 0 or 1) is a usage error; a not-found open failure
// matches ErrNoDevice; firmware too old to report CLKIN (before 2022.09.1,
// USB API 1.06) is a *FirmwareError wrapping the *callError.
func ParseClock(stdout, stderr []byte, exitCode int) (ClockStatus, error) {
	status := ClockUnknown
	var (
		failure *callError
		usage   bool
		argErr  string
	)
	for _, line := range splitLines(stdout) {
		var s ClockStatus
		switch line {
		case clkinDetected:
			s = ClockDetected
		case clkinNotDetected:
			s = ClockNotDetected
		case clockUsageHead:
			usage = true
			continue
		default:
			if ce, ok := parseCallFailed(toolClock, line); ok && failure == nil {
				failure = ce
			} else if strings.HasPrefix(line, "argument error: ") && argErr == "" {
				argErr = line
			}
			continue
		}
		if status != ClockUnknown && status != s {
			return ClockUnknown, outputError(toolClock, exitCode, "both CLKIN answers printed")
		}
		status = s
	}
	errLines := splitLines(stderr)
	for _, line := range errLines {
		if ce, ok := parseCallFailed(toolClock, line); ok && failure == nil {
			failure = ce
		}
	}

	switch {
	case failure != nil:
		return ClockUnknown, asFirmwareError(failure)
	case usage:
		msg := argErr
		if msg == "" && len(errLines) > 0 {
			msg = errLines[0]
		}
		return ClockUnknown, usageError(toolClock, exitCode, msg)
	case exitCode != 0:
		return ClockUnknown, outputError(toolClock, exitCode, "failed without a known error line")
	case status == ClockUnknown:
		return ClockUnknown, outputError(toolClock, exitCode, fmt.Sprintf("no %q line", "CLKIN status:"))
	}
	return status, nil
}
