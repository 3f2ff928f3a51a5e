package hackrfcli

import (
	"math"
	"path/filepath"
	"strings"
	"testing"
)

// seedTranscripts adds every line (or whole stream) of the transcripts as
// seeds, on top of the checked-in corpus under testdata/fuzz.
func seedTranscripts(f *testing.F, tool string, add func(tr transcript)) {
	m, _ := filepath.Glob(filepath.Join("testdata", "transcripts", tool, "*.txtar"))
	for _, p := range m {
		add(loadTranscript(f, filepath.Join(tool, filepath.Base(p))))
	}
}

func FuzzParseTransferLine(f *testing.F) {
	seedTranscripts(f, "transfer", func(tr transcript) {
		for _, l := range splitLines(tr.Stderr) {
			f.Add(l)
		}
	})
	f.Add(" 1.0 MiB / 0.000 sec =  inf MiB/second, average power -0.0 dBfs, -1 bytes free in buffer, 4294967295 overruns, longest 4294967295 bytes")
	f.Fuzz(func(t *testing.T, line string) {
		ev := parseTransferLine(line)
		if ev.Line != strings.TrimSuffix(line, "\r") {
			t.Fatalf("Line %q, want the input", ev.Line)
		}
		if ev.Kind == EventProgress {
			p := ev.Progress
			if p.Megabytes < 0 || p.Seconds < 0 || math.IsNaN(p.Megabytes) || (p.Unit != "MiB" && p.Unit != "MB") {
				t.Fatalf("impossible progress %+v from %q", p, line)
			}
		}
		if ev.Kind == EventCallFailed && ev.Failure == nil {
			t.Fatalf("call failure without a callError: %q", line)
		}
		// Folding any event must keep the stats consistent.
		var s TransferStats
		s.add(ev)
		if s.DroppedFrames != nil && ev.Kind != EventDroppedFrames && ev.Kind != EventWriteFailed {
			t.Fatalf("dropped frames from a %v line", ev.Kind)
		}
	})
}

func FuzzParseInfo(f *testing.F) {
	seedTranscripts(f, "info", func(tr transcript) { f.Add(tr.Stdout, tr.Stderr, tr.ExitCode) })
	f.Fuzz(func(t *testing.T, stdout, stderr []byte, exit int) {
		in, err := ParseInfo(stdout, stderr, exit)
		if err == nil {
			if exit != 0 || len(in.Boards) == 0 {
				t.Fatalf("success with exit %d and %d boards", exit, len(in.Boards))
			}
			if _, ok := in.Find(""); !ok {
				t.Fatal("Find(\"\") found nothing in a successful Info")
			}
		}
	})
}

func FuzzParseClock(f *testing.F) {
	seedTranscripts(f, "clock", func(tr transcript) { f.Add(tr.Stdout, tr.Stderr, tr.ExitCode) })
	f.Fuzz(func(t *testing.T, stdout, stderr []byte, exit int) {
		st, err := ParseClock(stdout, stderr, exit)
		if (err == nil) == (st == ClockUnknown) {
			t.Fatalf("status %v with error %v", st, err)
		}
		if err == nil && exit != 0 {
			t.Fatalf("success with exit %d", exit)
		}
	})
}
