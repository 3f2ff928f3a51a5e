package hackrfcli

import (
	"math"
	"regexp"
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

// TransferEvent is one parsed stderr line. Which fields are set depends on
// Kind (see the EventKind constants).
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

// Progress is the per-second line. Both versions are read:
//
//	3.9 MiB / 1.000 sec =  3.9 MiB/second, average power -38.2 dBfs   (2022.09.1 .. v2024.02.1)
//	3.9 MB / 1.000 sec =  3.9 MB/second, average power -38.2 dBfs     (v2026.01.1 and later)
//
// The amount is decimal megabytes in both, whatever the label says.
type Progress struct {
	Megabytes float64 // bytes in the interval / 1e6
	Seconds   float64 // length of the interval
	Rate      float64 // MB per second
	Unit      string  // "MiB" or "MB", as printed
	// Power is the average power in dBFS; -Inf for all-zero data and NaN
	// for an empty interval (printed "-inf" / "-nan"). HasPower is false for
	// tools too old to print it.
	Power    float64
	HasPower bool
	// Buffer is the -B suffix, nil without -B.
	Buffer *BufferStats
}

// BufferStats is the -B suffix of a progress line:
// ", 16384 bytes free in buffer, 0 overruns, longest 0 bytes".
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

// parseTransferLine classifies one line of hackrf_transfer's stderr. It
// never fails: a line it does not know is EventUnknown.
func parseTransferLine(line string) TransferEvent {
	line = strings.TrimSuffix(line, "\r")
	ev := TransferEvent{Kind: EventUnknown, Line: line}
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
	case isErrorLine(line):
		ev.Kind = EventError
		ev.Detail = line
	default:
		parseTransferDetail(&ev, line)
	}
	return ev
}

// isErrorLine recognises the complaints that end a run before streaming.
func isErrorLine(line string) bool {
	for _, p := range []string{
		"argument error: ", "specify one of: ", "specify only one of: ",
		"specify a path to a file", "Failed to open file: ", "setvbuf() failed: ",
		"unknown argument ", "Could not read input file.",
	} {
		if strings.HasPrefix(line, p) {
			return true
		}
	}
	// getopt: "hackrf_transfer: invalid option -- 'Z'" (the program name
	// is whatever argv[0] was).
	return strings.Contains(line, ": invalid option -- ") ||
		strings.Contains(line, ": option requires an argument -- ")
}

func parseTransferDetail(ev *TransferEvent, line string) {
	if m := progressRE.FindStringSubmatch(line); m != nil {
		if p, ok := parseProgress(m); ok {
			ev.Kind, ev.Progress = EventProgress, p
		}
		return
	}
	if ce, ok := parseCallFailed(toolTransfer, line); ok {
		ev.Kind, ev.Failure = EventCallFailed, ce
		ev.Call, ev.Detail, ev.Code = ce.Call, ce.Text, ce.Code
		return
	}
	if m := callWithRE.FindStringSubmatch(line); m != nil {
		ev.Kind, ev.Call, ev.Detail = EventCall, m[1], m[2]
		return
	}
	if m := callRE.FindStringSubmatch(line); m != nil {
		ev.Kind, ev.Call, ev.Detail = EventCall, m[1], m[2]
		return
	}
	if m := samplesRE.FindStringSubmatch(line); m != nil {
		if n, err := strconv.ParseInt(m[1], 10, 64); err == nil {
			ev.Kind, ev.Samples = EventSamplesToXfer, n
		}
		return
	}
	if m := signalRE.FindStringSubmatch(line); m != nil {
		if n, err := strconv.Atoi(m[1]); err == nil {
			ev.Kind, ev.Signal = EventSignal, n
		}
		return
	}
	if m := exitResultRE.FindStringSubmatch(line); m != nil {
		if n, err := strconv.Atoi(m[2]); err == nil {
			ev.Kind, ev.Detail, ev.Code = EventExiting, m[1], n
		}
		return
	}
	if m := totalTimeRE.FindStringSubmatch(line); m != nil {
		if s, err := strconv.ParseFloat(m[1], 64); err == nil && s < 1e9 {
			ev.Kind, ev.Elapsed = EventTotalTime, time.Duration(s*float64(time.Second))
		}
		return
	}
	if m := doneRE.FindStringSubmatch(line); m != nil {
		ev.Kind, ev.Call = EventDone, m[1]
		return
	}
	if m := statsBytesRE.FindStringSubmatch(line); m != nil {
		if n, err := strconv.ParseInt(m[1], 10, 64); err == nil {
			ev.Kind, ev.Count, ev.Detail = EventStatsBytes, n, m[2]
		}
		return
	}
	if m := shortfallRE.FindStringSubmatch(line); m != nil {
		n, err1 := strconv.ParseInt(m[1], 10, 64)
		l, err2 := strconv.ParseInt(m[3], 10, 64)
		if err1 == nil && err2 == nil {
			ev.Kind, ev.Count, ev.Detail, ev.Longest = EventStatsShortfalls, n, m[2], l
		}
		return
	}
	if m := droppedRE.FindStringSubmatch(line); m != nil {
		if n, err := strconv.ParseInt(m[1], 10, 64); err == nil {
			ev.Kind, ev.Count = EventDroppedFrames, n
		}
		return
	}
}

func parseProgress(m []string) (Progress, bool) {
	var p Progress
	var err error
	if p.Megabytes, err = strconv.ParseFloat(m[1], 64); err != nil {
		return p, false
	}
	p.Unit = m[2]
	if p.Seconds, err = strconv.ParseFloat(m[3], 64); err != nil {
		return p, false
	}
	p.Rate = parseCFloat(m[4])
	if m[5] != "" {
		p.HasPower = true
		p.Power = parseCFloat(m[5])
	}
	if m[6] != "" {
		b := &BufferStats{State: m[7], Kind: m[9]}
		var e1, e2, e3 error
		b.Bytes, e1 = strconv.ParseInt(m[6], 10, 64)
		b.Shortfalls, e2 = strconv.ParseInt(m[8], 10, 64)
		b.Longest, e3 = strconv.ParseInt(m[10], 10, 64)
		if e1 != nil || e2 != nil || e3 != nil {
			return p, false
		}
		p.Buffer = b
	}
	return p, true
}

// parseCFloat reads a number printed by C's %f, which spells the special
// values "inf", "-inf", "nan" and "-nan".
func parseCFloat(s string) float64 {
	switch s {
	case "inf":
		return math.Inf(1)
	case "-inf":
		return math.Inf(-1)
	case "nan", "-nan":
		return math.NaN()
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return math.NaN()
	}
	return f
}
