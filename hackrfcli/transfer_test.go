package hackrfcli

import (
	"math"
	"strconv"
	"testing"
	"time"
)

func TestParseTransferLine(t *testing.T) {
	tests := []struct {
		line  string
		kind  EventKind
		check func(t *testing.T, ev TransferEvent)
	}{
		{" 3.9 MiB / 1.000 sec =  3.9 MiB/second, average power -38.2 dBfs", EventProgress, func(t *testing.T, ev TransferEvent) {
			p := ev.Progress
			if p.Megabytes != 3.9 || p.Seconds != 1.0 || p.Rate != 3.9 || p.Unit != "MiB" || !p.HasPower || p.Power != -38.2 || p.Buffer != nil {
				t.Errorf("progress = %+v", p)
			}
		}},
		{" 4.2 MB / 1.039 sec =  4.0 MB/second, average power -38.3 dBfs", EventProgress, func(t *testing.T, ev TransferEvent) {
			if ev.Progress.Unit != "MB" || ev.Progress.Seconds != 1.039 || ev.Progress.Power != -38.3 {
				t.Errorf("progress = %+v", ev.Progress)
			}
		}},
		{"40.1 MiB / 1.000 sec = 40.1 MiB/second, average power -3.0 dBfs", EventProgress, func(t *testing.T, ev TransferEvent) {
			if ev.Progress.Megabytes != 40.1 || ev.Progress.Power != -3 {
				t.Errorf("progress = %+v", ev.Progress)
			}
		}},
		{" 0.0 MiB / 1.000 sec =  0.0 MiB/second, average power -nan dBfs", EventProgress, func(t *testing.T, ev TransferEvent) {
			if !math.IsNaN(ev.Progress.Power) || ev.Progress.Megabytes != 0 {
				t.Errorf("progress = %+v", ev.Progress)
			}
		}},
		{" 4.2 MiB / 1.000 sec =  4.2 MiB/second, average power -inf dBfs", EventProgress, func(t *testing.T, ev TransferEvent) {
			if !math.IsInf(ev.Progress.Power, -1) {
				t.Errorf("power = %v, want -Inf", ev.Progress.Power)
			}
		}},
		{" 0.0 MB / 0.000 sec =  nan MB/second, average power nan dBfs", EventProgress, func(t *testing.T, ev TransferEvent) {
			if !math.IsNaN(ev.Progress.Rate) || !math.IsNaN(ev.Progress.Power) {
				t.Errorf("progress = %+v", ev.Progress)
			}
		}},
		{" 3.9 MiB / 1.000 sec =  3.9 MiB/second, average power -38.2 dBfs, 16384 bytes free in buffer, 2 overruns, longest 8192 bytes", EventProgress, func(t *testing.T, ev TransferEvent) {
			b := ev.Progress.Buffer
			if b == nil || b.Bytes != 16384 || b.State != "free" || b.Shortfalls != 2 || b.Kind != "overruns" || b.Longest != 8192 {
				t.Errorf("buffer = %+v", b)
			}
		}},
		{" 4.2 MB / 1.000 sec =  4.2 MB/second, average power -12.0 dBfs, -4096 bytes filled in buffer, 1 underruns, longest 512 bytes", EventProgress, func(t *testing.T, ev TransferEvent) {
			b := ev.Progress.Buffer
			if b == nil || b.Bytes != -4096 || b.State != "filled" || b.Kind != "underruns" {
				t.Errorf("buffer = %+v", b)
			}
		}},
		// v2021.03.1 printed no power; unreleased 2021-2022 builds said "amplitude".
		{" 3.9 MiB / 1.000 sec =  3.9 MiB/second", EventProgress, func(t *testing.T, ev TransferEvent) {
			if ev.Progress.HasPower {
				t.Errorf("HasPower for a line without power: %+v", ev.Progress)
			}
		}},
		{" 3.9 MiB / 1.000 sec =  3.9 MiB/second, amplitude -20.1 dBfs", EventProgress, nil},
		{" 3.9 KiB / 1.000 sec =  3.9 KiB/second, average power -38.2 dBfs", EventUnknown, nil},
		{" 3.9 MiB / 1.000 sec =  3.9 MiB/second, average power -38.2 dBfs, garbage", EventUnknown, nil},
		{"call hackrf_set_sample_rate(2000000 Hz/2.000 MHz)", EventCall, func(t *testing.T, ev TransferEvent) {
			if ev.Call != "hackrf_set_sample_rate" || ev.Detail != "2000000 Hz/2.000 MHz" {
				t.Errorf("call = %q %q", ev.Call, ev.Detail)
			}
		}},
		{"call hackrf_set_freq_explicit() with 2450000000 Hz IF, 2017080000 Hz LO, low pass", EventCall, func(t *testing.T, ev TransferEvent) {
			if ev.Call != "hackrf_set_freq_explicit" || ev.Detail != "2450000000 Hz IF, 2017080000 Hz LO, low pass" {
				t.Errorf("call = %q %q", ev.Call, ev.Detail)
			}
		}},
		{"samples_to_xfer 4000000/4Mio", EventSamplesToXfer, func(t *testing.T, ev TransferEvent) {
			if ev.Samples != 4000000 {
				t.Errorf("samples = %d", ev.Samples)
			}
		}},
		{"Stop with Ctrl-C", EventStartHint, nil},
		{"warning: lna_gain (-l) must be a multiple of 8", EventWarning, func(t *testing.T, ev TransferEvent) {
			if ev.Detail != "lna_gain (-l) must be a multiple of 8" {
				t.Errorf("detail = %q", ev.Detail)
			}
		}},
		{"Waiting for trigger...", EventWaitingTrigger, nil},
		{"Couldn't transfer any bytes for one second.", EventStall, nil},
		{"Caught signal 2", EventSignal, func(t *testing.T, ev TransferEvent) {
			if ev.Signal != 2 {
				t.Errorf("signal = %d", ev.Signal)
			}
		}},
		{"Caught signal 15", EventSignal, func(t *testing.T, ev TransferEvent) {
			if ev.Signal != 15 {
				t.Errorf("signal = %d", ev.Signal)
			}
		}},
		{"", EventBlank, nil},
		{"Exiting...", EventExiting, func(t *testing.T, ev TransferEvent) {
			if ev.Detail != "" {
				t.Errorf("detail = %q", ev.Detail)
			}
		}},
		{"User cancel, exiting...", EventExiting, nil},
		{"Exiting... hackrf_is_streaming() result: streaming stopped (-1003)", EventExiting, func(t *testing.T, ev TransferEvent) {
			if ev.Detail != "streaming stopped" || ev.Code != -1003 {
				t.Errorf("exiting = %q %d", ev.Detail, ev.Code)
			}
		}},
		{"Exiting... hackrf_is_streaming() result: HACKRF_TRUE (1)", EventExiting, func(t *testing.T, ev TransferEvent) {
			if ev.Detail != "HACKRF_TRUE" || ev.Code != 1 {
				t.Errorf("exiting = %q %d", ev.Detail, ev.Code)
			}
		}},
		{"Total time: 2.03912 s", EventTotalTime, func(t *testing.T, ev TransferEvent) {
			if ev.Elapsed != 2039120*time.Microsecond {
				t.Errorf("elapsed = %v", ev.Elapsed)
			}
		}},
		{"hackrf_stop_rx() done", EventDone, func(t *testing.T, ev TransferEvent) {
			if ev.Call != "hackrf_stop_rx" {
				t.Errorf("call = %q", ev.Call)
			}
		}},
		{"fclose() done", EventDone, nil},
		{"fclose(fd) done", EventDone, nil},
		{"hackrf_stop_rx() failed: No such device (it may have been disconnected) (-1000)", EventCallFailed, func(t *testing.T, ev TransferEvent) {
			if ev.Call != "hackrf_stop_rx" || ev.Code != -1000 || ev.Failure == nil || ev.Failure.Tool != "hackrf_transfer" {
				t.Errorf("failure = %+v", ev)
			}
		}},
		{"hackrf_open() failed: HackRF not found (-5)", EventCallFailed, nil},
		{"hackrf_start_?x() failed: USB error (-1000)", EventCallFailed, nil},
		{"Transfer statistics:", EventStatsHeader, nil},
		{"8126464 bytes transferred by M0", EventStatsBytes, func(t *testing.T, ev TransferEvent) {
			if ev.Count != 8126464 || ev.Detail != "M0" {
				t.Errorf("stats bytes = %d %q", ev.Count, ev.Detail)
			}
		}},
		{"0 overruns, longest 0 bytes", EventStatsShortfalls, func(t *testing.T, ev TransferEvent) {
			if ev.Count != 0 || ev.Detail != "overruns" || ev.Longest != 0 {
				t.Errorf("shortfalls = %+v", ev)
			}
		}},
		{"4294967295 underruns, longest 65536 bytes", EventStatsShortfalls, func(t *testing.T, ev TransferEvent) {
			if ev.Count != 4294967295 || ev.Detail != "underruns" || ev.Longest != 65536 {
				t.Errorf("shortfalls = %+v", ev)
			}
		}},
		{"dropped frames: [3]", EventDroppedFrames, func(t *testing.T, ev TransferEvent) {
			if ev.Count != 3 {
				t.Errorf("dropped = %d", ev.Count)
			}
		}},
		{"dropped frames: [x]", EventUnknown, nil},
		{"write failed", EventWriteFailed, nil},
		{"write faileddropped frames: [2]", EventWriteFailed, func(t *testing.T, ev TransferEvent) {
			if ev.Detail != "dropped frames: [2]" {
				t.Errorf("detail = %q", ev.Detail)
			}
		}},
		{"argument error: freq_hz should be between 1000000 and 6000000000.", EventError, nil},
		{"specify one of: -t, -c, -r, -w", EventError, nil},
		{"Failed to open file: /nonexistent/x.iq", EventError, nil},
		{"hackrf_transfer: invalid option -- 'Z'", EventError, nil},
		{"/usr/bin/hackrf_transfer: option requires an argument -- 'r'", EventError, nil},
		{"exit", EventExit, nil},
		{"exit ", EventUnknown, nil},
		{SimulatorMarker, EventSimulated, nil},
		{SimulatorMarker + "\r", EventSimulated, nil},
		{"hacksim: SIMULATED", EventUnknown, nil},
		{"Receive wav file: HackRF_20261129_133609Z_433920kHz_IQ.wav", EventUnknown, nil},
		{"hackrf_stop_rx() done\r", EventDone, nil},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			ev := parseTransferLine(tt.line)
			if ev.Kind != tt.kind {
				t.Fatalf("kind %v, want %v (%+v)", ev.Kind, tt.kind, ev)
			}
			if tt.check != nil {
				tt.check(t, ev)
			}
		})
	}
}

func TestTransferStatsTranscripts(t *testing.T) {
	i64 := func(v int64) *int64 { return &v }
	type want struct {
		reason        ExitReason
		progress      int
		overruns      *int64
		underruns     *int64
		dropped       *int64
		stalled       bool
		signal        int
		finished      bool
		failures      int
		errors        int
		warnings      int
		elapsedMicros int64
	}
	tests := map[string]want{
		"transfer/debian-rx-n.txtar":   {reason: ExitFinished, progress: 2, finished: true, elapsedMicros: 2039120},
		"transfer/upstream-rx-n.txtar": {reason: ExitFinished, progress: 2, finished: true, elapsedMicros: 2039120},
		"transfer/debian-rx-n-B.txtar": {reason: ExitFinished, progress: 2, overruns: i64(0), finished: true, elapsedMicros: 2039120},
		// Firmware too old for -B: the capture runs, the counters stay nil.
		"transfer/debian-rx-n-B-old-firmware.txtar": {reason: ExitFinished, progress: 2, finished: true, failures: 3, elapsedMicros: 2039120},
		"transfer/upstream-rx-n-B.txtar":            {reason: ExitFinished, progress: 2, overruns: i64(1), finished: true, elapsedMicros: 2039120},
		"transfer/debian-rx-overruns-B.txtar":       {reason: ExitFinished, progress: 2, overruns: i64(3), finished: true, elapsedMicros: 2039120},
		"transfer/debian-rx-sigint.txtar":           {reason: ExitSignal, progress: 2, signal: 2, finished: true, elapsedMicros: 1512340},
		"transfer/debian-rx-sigterm.txtar":          {reason: ExitSignal, progress: 2, signal: 15, finished: true, elapsedMicros: 1070120},
		"transfer/debian-rx-stall.txtar":            {reason: ExitStall, progress: 2, stalled: true, finished: true, failures: 2, elapsedMicros: 2000120},
		"transfer/upstream-rx-stall.txtar":          {reason: ExitStall, progress: 2, stalled: true, finished: true, elapsedMicros: 2000120},
		"transfer/debian-rx-zeros.txtar":            {reason: ExitFinished, progress: 2, finished: true, elapsedMicros: 2039120},
		"transfer/debian-rx-ringbuffer.txtar":       {reason: ExitSignal, dropped: i64(6), signal: 2, finished: true, elapsedMicros: 9005120},
		"transfer/debian-nodevice.txtar":            {reason: ExitError, failures: 1},
		"transfer/debian-invalid-option.txtar":      {reason: ExitError, errors: 1},
		"transfer/debian-bad-gains.txtar":           {reason: ExitError, failures: 1, warnings: 2},
		"transfer/debian-argument-error.txtar":      {reason: ExitError, errors: 1},
		"transfer/debian-tx-n.txtar":                {reason: ExitFinished, progress: 1, underruns: i64(0), finished: true, elapsedMicros: 1010230},
	}
	eq := func(a, b *int64) bool { return (a == nil && b == nil) || (a != nil && b != nil && *a == *b) }
	str := func(p *int64) any {
		if p == nil {
			return "nil"
		}
		return *p
	}
	tested := map[string]bool{}
	for name, w := range tests {
		tested[name] = true
		t.Run(name, func(t *testing.T) {
			tr := loadTranscript(t, name)
			var s TransferStats
			for _, line := range splitLines(tr.Stderr) {
				s.AddLine(line)
			}
			if s.Reason != w.reason {
				t.Errorf("reason %q, want %q", s.Reason, w.reason)
			}
			if s.ProgressLines != w.progress {
				t.Errorf("progress lines %d, want %d", s.ProgressLines, w.progress)
			}
			if !eq(s.Overruns, w.overruns) || !eq(s.Underruns, w.underruns) || !eq(s.DroppedFrames, w.dropped) {
				t.Errorf("overruns %v underruns %v dropped %v; want %v %v %v",
					str(s.Overruns), str(s.Underruns), str(s.DroppedFrames), str(w.overruns), str(w.underruns), str(w.dropped))
			}
			if s.Stalled != w.stalled || s.Signal != w.signal || s.Finished != w.finished {
				t.Errorf("stalled %v signal %d finished %v; want %v %d %v", s.Stalled, s.Signal, s.Finished, w.stalled, w.signal, w.finished)
			}
			if len(s.Failures) != w.failures || len(s.Errors) != w.errors || len(s.Warnings) != w.warnings {
				t.Errorf("failures %d errors %d warnings %d; want %d %d %d (%v %q)", len(s.Failures), len(s.Errors), len(s.Warnings),
					w.failures, w.errors, w.warnings, s.Failures, s.Errors)
			}
			if got := s.Elapsed.Microseconds(); got != w.elapsedMicros {
				t.Errorf("elapsed %dµs, want %dµs", got, w.elapsedMicros)
			}
			// A finished run is exactly what endError accepts; everything
			// that exited 0 without finishing is the usage quirk.
			if err := endError(nil, s, tr.ExitCode); (err != nil) != (tr.ExitCode == 0 && !w.finished) {
				t.Errorf("endError(exit %d) = %v", tr.ExitCode, err)
			}
		})
	}
	checkCoverage(t, "transfer", tested)
}

func TestTransferStatsProgressSumMatchesBlocks(t *testing.T) {
	// Reference §3.3: -n 4000000 → 31 USB blocks of 262144 bytes counted.
	tr := loadTranscript(t, "transfer/debian-rx-n-B.txtar")
	var s TransferStats
	for _, line := range splitLines(tr.Stderr) {
		s.AddLine(line)
	}
	if s.M0Bytes == nil || *s.M0Bytes != 31*262144 || s.M4Bytes == nil || *s.M4Bytes != 31*262144 {
		t.Errorf("M0/M4 = %v/%v, want %d", s.M0Bytes, s.M4Bytes, 31*262144)
	}
	if math.Abs(s.Megabytes-8.1) > 0.01 {
		t.Errorf("progress sum %.2f MB, want 8.1", s.Megabytes)
	}
	if s.LastPower != -38.3 {
		t.Errorf("last power %v", s.LastPower)
	}
}

func TestTransferStatsSignalThenStall(t *testing.T) {
	// A signal right after a tick leaves an empty interval: the tool prints
	// the stall line and exits 1 although it was interrupted.
	var s TransferStats
	for _, l := range []string{"Stop with Ctrl-C", "Caught signal 2",
		" 0.0 MiB / 0.010 sec =  0.0 MiB/second, average power -nan dBfs", "", "Couldn't transfer any bytes for one second.",
		"", "Exiting...", "exit"} {
		s.AddLine(l)
	}
	if s.Reason != ExitStall || s.Signal != 2 {
		t.Errorf("reason %q signal %d, want stall with signal 2", s.Reason, s.Signal)
	}
}

func TestTransferStatsSnapshotIsolated(t *testing.T) {
	var s TransferStats
	s.AddLine("argument error: one")
	snap := s.clone()
	s.AddLine("argument error: two")
	s.Errors[0] = "changed"
	if len(snap.Errors) != 1 || snap.Errors[0] != "argument error: one" {
		t.Errorf("snapshot changed: %q", snap.Errors)
	}
}

var eventNames = [...]string{
	"unknown", "blank", "call", "samples_to_xfer", "start", "warning", "progress",
	"waiting_trigger", "stall", "signal", "exiting", "total_time", "done",
	"call_failed", "stats_header", "stats_bytes", "stats_shortfalls",
	"dropped_frames", "write_failed", "error", "exit", "simulated",
}

// String names a kind in test messages.
func (k EventKind) String() string {
	if int(k) >= 0 && int(k) < len(eventNames) {
		return eventNames[k]
	}
	return "EventKind(" + strconv.Itoa(int(k)) + ")"
}
