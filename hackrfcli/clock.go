package hackrfcli

import (
	"cmp"
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

// ParseClock reads hackrf_clock -i's output; a usage text (exit 0 or 1) is
// a usage error, firmware too old to report CLKIN a *FirmwareError.
func ParseClock(stdout, stderr []byte, exitCode int) (ClockStatus, error) {
	status := ClockUnknown
	var (
		usage  bool
		argErr string
	)
	outLines, errLines := splitLines(stdout), splitLines(stderr)
	for _, line := range outLines {
		s := ClockUnknown
		switch {
		case line == clkinDetected:
			s = ClockDetected
		case line == clkinNotDetected:
			s = ClockNotDetected
		case line == clockUsageHead:
			usage = true
		case strings.HasPrefix(line, "argument error: ") && argErr == "":
			argErr = line
		}
		if s != ClockUnknown && status != ClockUnknown && s != status {
			return ClockUnknown, outputError(toolClock, exitCode, "both CLKIN answers printed")
		}
		status = cmp.Or(s, status)
	}
	failures := append(callFailures(toolClock, outLines), callFailures(toolClock, errLines)...)
	switch {
	case len(failures) > 0:
		return ClockUnknown, asFirmwareError(failures[0])
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
