package hackrfcli

import (
	"cmp"
	"slices"
	"time"
)

// ExitReason says how a hackrf_transfer run ended, as far as its stderr tells.
type ExitReason string

const (
	ExitNone      ExitReason = ""          // no end of run seen
	ExitFinished  ExitReason = "finished"  // stopped by itself ("Exiting..." without a signal)
	ExitSignal    ExitReason = "signal"    // "Caught signal N", then the normal end
	ExitStall     ExitReason = "stall"     // "Couldn't transfer any bytes for one second."
	ExitStreaming ExitReason = "streaming" // a hackrf_is_streaming() result without a stall (older tools)
	ExitError     ExitReason = "error"     // refused or failed before streaming
)

// TransferStats accumulates what one hackrf_transfer run reported. Pointer
// fields stay nil until reported: a missing counter is not a zero counter.
type TransferStats struct {
	ProgressLines int
	// Megabytes sums the progress lines (whole USB blocks, so it can exceed
	// the file size at the end of a -n run).
	Megabytes float64
	LastPower float64 // dBFS of the last progress line that had one
	// Overruns and the rest come from -B's final "Transfer statistics".
	Overruns        *int64
	LongestOverrun  *int64
	Underruns       *int64
	LongestUnderrun *int64
	M0Bytes         *int64
	M4Bytes         *int64
	DroppedFrames   *int64 // sums "dropped frames: [%d]" lines (-S)
	Stalled         bool
	Signal          int    // the number in "Caught signal N"; 0 when none
	Streaming       string // the hackrf_is_streaming() result text, if printed
	Elapsed         time.Duration
	Started         bool         // "Stop with Ctrl-C" seen
	Finished        bool         // the final "exit" seen
	Simulated       bool         // SimulatorMarker seen
	Failures        []*callError // every "... failed:" line, in order
	Errors          []string     // fatal complaints (argument errors, file errors)
	Warnings        []string
	Reason          ExitReason

	exiting     bool // "Exiting..." (do_exit) seen
	failedEarly bool // a failure before "Stop with Ctrl-C"
}

func (s *TransferStats) add(ev TransferEvent) {
	switch ev.Kind {
	case EventProgress:
		s.ProgressLines++
		s.Megabytes += ev.Progress.Megabytes
		if ev.Progress.HasPower {
			s.LastPower = ev.Progress.Power
		}
	case EventStartHint:
		s.Started = true
	case EventStall:
		s.Stalled = true
	case EventSignal:
		s.Signal = ev.Signal
	case EventExiting:
		if ev.Detail != "" {
			s.Streaming = ev.Detail
		} else {
			s.exiting = true
		}
	case EventTotalTime:
		s.Elapsed = ev.Elapsed
	case EventExit:
		s.Finished = true
	case EventSimulated:
		s.Simulated = true
	case EventCallFailed:
		s.Failures = append(s.Failures, ev.Failure)
		if !s.Started {
			s.failedEarly = true
		}
	case EventError:
		s.Errors = append(s.Errors, ev.Detail)
	case EventWarning:
		s.Warnings = append(s.Warnings, ev.Detail)
	case EventStatsBytes:
		if ev.Detail == "M0" {
			s.M0Bytes = ptr(ev.Count)
		} else {
			s.M4Bytes = ptr(ev.Count)
		}
	case EventStatsShortfalls:
		if ev.Detail == "overruns" {
			s.Overruns, s.LongestOverrun = ptr(ev.Count), ptr(ev.Longest)
		} else {
			s.Underruns, s.LongestUnderrun = ptr(ev.Count), ptr(ev.Longest)
		}
	case EventDroppedFrames:
		// A new pointer: an earlier snapshot (clone) shares the old one.
		s.DroppedFrames = ptr(ev.Count + *cmp.Or(s.DroppedFrames, new(int64)))
	case EventWriteFailed:
		// "write failed" has no newline: the next message shares its line.
		if ev.Detail != "" {
			s.add(parseTransferLine(ev.Detail))
		}
	}
	s.Reason = s.reason()
}

func (s *TransferStats) AddLine(line string) TransferEvent {
	ev := parseTransferLine(line)
	s.add(ev)
	return ev
}

func (s *TransferStats) reason() ExitReason {
	switch {
	case s.Stalled:
		return ExitStall
	case s.Signal != 0 && s.exiting:
		return ExitSignal
	case s.exiting:
		return ExitFinished
	case s.Streaming != "":
		return ExitStreaming
	case len(s.Errors) > 0 || s.failedEarly:
		return ExitError
	}
	return ExitNone
}

func (s TransferStats) clone() TransferStats {
	s.Failures = slices.Clone(s.Failures)
	s.Errors = slices.Clone(s.Errors)
	s.Warnings = slices.Clone(s.Warnings)
	return s
}
