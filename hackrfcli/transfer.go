package hackrfcli

import (
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// EventKind classifies one line hackrf_transfer printed on stderr.
type EventKind int

const (
	EventUnknown         EventKind = iota // anything else, kept verbatim in Line
	EventBlank                            // an empty line (the tool prints "\nExiting...")
	EventCall                             // "call hackrf_set_freq(433920000 Hz/433.920 MHz)": Call, Detail
	EventSamplesToXfer                    // "samples_to_xfer 4000000/4Mio": Samples
	EventStartHint                        // "Stop with Ctrl-C": streaming begins
	EventWarning                          // "warning: ...": Detail
	EventProgress                         // the per-second line: Progress
	EventWaitingTrigger                   // "Waiting for trigger..." (-H)
	EventStall                            // "Couldn't transfer any bytes for one second."
	EventSignal                           // "Caught signal 2": Signal
	EventExiting                          // "Exiting...", "User cancel, exiting...", or with a streaming result: Detail, Code
	EventTotalTime                        // "Total time: 2.03912 s": Elapsed
	EventDone                             // "hackrf_stop_rx() done" and friends: Call
	EventCallFailed                       // "<call>() failed: <text> (<code>)": Call, Detail, Code, Failure
	EventStatsHeader                      // "Transfer statistics:" (-B)
	EventStatsBytes                       // "8126464 bytes transferred by M0": Count, Detail ("M0"/"M4")
	EventStatsShortfalls                  // "0 overruns, longest 0 bytes": Count, Longest, Detail ("overruns"/"underruns")
	EventDroppedFrames                    // "dropped frames: [3]" (-S): Count
	EventWriteFailed                      // "write failed" (-S; printed without a newline, Detail holds the rest)
	EventError                            // a fatal complaint: argument errors, "Failed to open file: ...", getopt: Detail
	EventExit                             // "exit": the last line of a run
	EventSimulated                        // SimulatorMarker: rfhandoff's simulator, not a HackRF
)

// TransferEvent is one parsed stderr line; Kind says which fields are set.
type TransferEvent struct {
	Kind     EventKind
	Line     string // the line as given
	Progress Progress
	Signal   int           // EventSignal
	Elapsed  time.Duration // EventTotalTime
	Call     string        // library call without "()"
	Detail   string
	Code     int   // libhackrf code (EventCallFailed, EventExiting with a result)
	Samples  int64 // EventSamplesToXfer
	Count    int64 // EventStatsBytes, EventStatsShortfalls, EventDroppedFrames
	Longest  int64 // EventStatsShortfalls
	Failure  *callError
}

// Progress is the per-second line, "MiB" (to v2024.02.1) or "MB" (later);
// the amount is decimal megabytes in both, whatever the label says.
type Progress struct {
	Megabytes float64 // bytes in the interval / 1e6
	Seconds   float64 // length of the interval
	Rate      float64 // MB per second
	Unit      string  // "MiB" or "MB", as printed
	// Power is the average power in dBFS (-Inf or NaN as printed); HasPower
	// is false for tools too old to print it.
	Power    float64
	HasPower bool
	Buffer   *BufferStats // the -B suffix, nil without -B
}

// BufferStats is the -B suffix of a progress line.
type BufferStats struct {
	Bytes      int64
	State      string // "free" (RX) or "filled" (TX)
	Shortfalls int64  // running count
	Kind       string // "overruns" (RX) or "underruns" (TX)
	Longest    int64
}

const toolTransfer = "hackrf_transfer"

var (
	progressRE = regexp.MustCompile(`^\s*(\d+(?:\.\d+)?) (MiB|MB) / \s*(\d+(?:\.\d+)?) sec = \s*(-?(?:\d+(?:\.\d+)?|inf|nan)) (?:MiB|MB)/second` +
		`(?:, (?:average power|amplitude) (-?(?:\d+(?:\.\d+)?|inf|nan)) dBfs)?` +
		`(?:, (-?\d+) bytes (free|filled) in buffer, (\d+) (overruns|underruns), longest (\d+) bytes)?$`)
	callRE       = regexp.MustCompile(`^call (\w+)\((.*)\)$`)
	callWithRE   = regexp.MustCompile(`^call (\w+)\(\) with (.*)$`)
	samplesRE    = regexp.MustCompile(`^samples_to_xfer (\d+)/(\d+)Mio$`)
	signalRE     = regexp.MustCompile(`^Caught signal (\d+)$`)
	exitResultRE = regexp.MustCompile(`^Exiting\.\.\. hackrf_is_streaming\(\) result: (.*) \((-?\d+)\)$`)
	totalTimeRE  = regexp.MustCompile(`^Total time: (\d+(?:\.\d+)?) s$`)
	doneRE       = regexp.MustCompile(`^(\w+)\(\w*\) done$`)
	statsBytesRE = regexp.MustCompile(`^(\d+) bytes transferred by (M0|M4)$`)
	shortfallRE  = regexp.MustCompile(`^(\d+) (overruns|underruns), longest (\d+) bytes$`)
	droppedRE    = regexp.MustCompile(`^dropped frames: \[(-?\d+)\]$`)
)

var errorPrefixes = []string{
	"argument error: ", "specify one of: ", "specify only one of: ",
	"specify a path to a file", "Failed to open file: ", "setvbuf() failed: ",
	"unknown argument ", "Could not read input file.",
}

// parseTransferLine classifies one line of hackrf_transfer's stderr; a line
// it does not know, or whose number does not fit, is EventUnknown.
func parseTransferLine(line string) TransferEvent {
	line = strings.TrimSuffix(line, "\r")
	ev := TransferEvent{Kind: EventUnknown, Line: line}
	var m []string
	match := func(re *regexp.Regexp) bool {
		m = re.FindStringSubmatch(line)
		return m != nil
	}
	ce, callFailed := parseCallFailed(toolTransfer, line)
	switch {
	case line == "":
		ev.Kind = EventBlank
	case line == "Stop with Ctrl-C":
		ev.Kind = EventStartHint
	case line == "Couldn't transfer any bytes for one second.":
		ev.Kind = EventStall
	case line == "Waiting for trigger...", line == "Waiting for sync...":
		ev.Kind = EventWaitingTrigger
	case line == "Exiting...", line == "User cancel, exiting...":
		ev.Kind = EventExiting
	case line == "Transfer statistics:":
		ev.Kind = EventStatsHeader
	case line == "exit":
		ev.Kind = EventExit
	case line == SimulatorMarker:
		ev.Kind = EventSimulated
	case strings.HasPrefix(line, "write failed"):
		ev.Kind = EventWriteFailed
		ev.Detail = strings.TrimPrefix(line, "write failed")
	case strings.HasPrefix(line, "warning: "):
		ev.Kind = EventWarning
		ev.Detail = strings.TrimPrefix(line, "warning: ")
	// getopt's complaints start with whatever argv[0] was.
	case slices.ContainsFunc(errorPrefixes, func(p string) bool { return strings.HasPrefix(line, p) }),
		strings.Contains(line, ": invalid option -- "), strings.Contains(line, ": option requires an argument -- "):
		ev.Kind = EventError
		ev.Detail = line
	case callFailed:
		ev.Kind, ev.Failure = EventCallFailed, ce
		ev.Call, ev.Detail, ev.Code = ce.Call, ce.Text, ce.Code
	case match(progressRE):
		if p, ok := parseProgress(m); ok {
			ev.Kind, ev.Progress = EventProgress, p
		}
	case match(callWithRE), match(callRE):
		ev.Kind, ev.Call, ev.Detail = EventCall, m[1], m[2]
	case match(samplesRE):
		if n, err := strconv.ParseInt(m[1], 10, 64); err == nil {
			ev.Kind, ev.Samples = EventSamplesToXfer, n
		}
	case match(signalRE):
		if n, err := strconv.Atoi(m[1]); err == nil {
			ev.Kind, ev.Signal = EventSignal, n
		}
	case match(exitResultRE):
		if n, err := strconv.Atoi(m[2]); err == nil {
			ev.Kind, ev.Detail, ev.Code = EventExiting, m[1], n
		}
	case match(totalTimeRE):
		if s, err := strconv.ParseFloat(m[1], 64); err == nil && s < 1e9 {
			ev.Kind, ev.Elapsed = EventTotalTime, time.Duration(s*float64(time.Second))
		}
	case match(doneRE):
		ev.Kind, ev.Call = EventDone, m[1]
	case match(statsBytesRE):
		if n, err := strconv.ParseInt(m[1], 10, 64); err == nil {
			ev.Kind, ev.Count, ev.Detail = EventStatsBytes, n, m[2]
		}
	case match(shortfallRE):
		n, err1 := strconv.ParseInt(m[1], 10, 64)
		l, err2 := strconv.ParseInt(m[3], 10, 64)
		if err1 == nil && err2 == nil {
			ev.Kind, ev.Count, ev.Detail, ev.Longest = EventStatsShortfalls, n, m[2], l
		}
	case match(droppedRE):
		if n, err := strconv.ParseInt(m[1], 10, 64); err == nil {
			ev.Kind, ev.Count = EventDroppedFrames, n
		}
	}
	return ev
}

func parseProgress(m []string) (Progress, bool) {
	mb, err1 := strconv.ParseFloat(m[1], 64)
	sec, err2 := strconv.ParseFloat(m[3], 64)
	p := Progress{Megabytes: mb, Seconds: sec, Rate: parseCFloat(m[4]), Unit: m[2], HasPower: m[5] != ""}
	if p.HasPower {
		p.Power = parseCFloat(m[5])
	}
	var err3, err4, err5 error
	if m[6] != "" {
		p.Buffer = &BufferStats{State: m[7], Kind: m[9]}
		p.Buffer.Bytes, err3 = strconv.ParseInt(m[6], 10, 64)
		p.Buffer.Shortfalls, err4 = strconv.ParseInt(m[8], 10, 64)
		p.Buffer.Longest, err5 = strconv.ParseInt(m[10], 10, 64)
	}
	return p, err1 == nil && err2 == nil && err3 == nil && err4 == nil && err5 == nil
}

// parseCFloat reads a number printed by C's %f; "-nan" is NaN too.
func parseCFloat(s string) float64 {
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		return f
	}
	return math.NaN()
}
