package hackrfcli

import (
	"bytes"
	"math"
	"reflect"
	"testing"
)

// crlf is a transcript as the Windows C runtime writes it: every "\n" a
// "\r\n".
func crlf(b []byte) []byte { return bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n")) }

// TestParsersAcceptCRLF holds every parser to the same answer for every
// transcript with CRLF line endings as with LF.
func TestParsersAcceptCRLF(t *testing.T) {
	for _, name := range allTranscripts(t, "info") {
		t.Run(name, func(t *testing.T) {
			tr := loadTranscript(t, name)
			wantInfo, wantErr := ParseInfo(tr.Stdout, tr.Stderr, tr.ExitCode)
			gotInfo, gotErr := ParseInfo(crlf(tr.Stdout), crlf(tr.Stderr), tr.ExitCode)
			if !reflect.DeepEqual(gotInfo, wantInfo) || !reflect.DeepEqual(gotErr, wantErr) {
				t.Errorf("CRLF: %+v, %v\nLF:   %+v, %v", gotInfo, gotErr, wantInfo, wantErr)
			}
			if len(gotInfo.Boards) > 0 && bytes.Contains([]byte(gotInfo.Boards[0].FirmwareVersion), []byte("\r")) {
				t.Errorf("a carriage return reached a field: %q", gotInfo.Boards[0].FirmwareVersion)
			}
		})
	}
	for _, name := range allTranscripts(t, "clock") {
		t.Run(name, func(t *testing.T) {
			tr := loadTranscript(t, name)
			want, wantErr := ParseClock(tr.Stdout, tr.Stderr, tr.ExitCode)
			got, gotErr := ParseClock(crlf(tr.Stdout), crlf(tr.Stderr), tr.ExitCode)
			if got != want || !reflect.DeepEqual(gotErr, wantErr) {
				t.Errorf("CRLF: %v, %v; LF: %v, %v", got, gotErr, want, wantErr)
			}
		})
	}
	for _, name := range allTranscripts(t, "transfer") {
		t.Run(name, func(t *testing.T) {
			tr := loadTranscript(t, name)
			var want TransferStats
			for _, line := range splitLines(tr.Stderr) {
				want.AddLine(line)
			}
			// As Receive reads it: through the lineWriter, in writes that
			// split "\r" from its "\n" wherever they fall.
			var got TransferStats
			w := &lineWriter{fn: func(line string) { got.AddLine(line) }}
			b := crlf(tr.Stderr)
			for len(b) > 0 {
				n := bytes.IndexByte(b, '\r') + 1
				if n == 0 {
					n = len(b)
				}
				w.Write(b[:n])
				b = b[n:]
			}
			w.Flush()
			if math.IsNaN(got.LastPower) && math.IsNaN(want.LastPower) {
				got.LastPower, want.LastPower = 0, 0 // "-nan dBfs" on both sides; NaN != NaN
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("CRLF: %+v\nLF:   %+v", got, want)
			}
			if want.ProgressLines == 0 && want.Reason == ExitNone {
				t.Fatalf("the LF parse found nothing: the comparison proves nothing")
			}
		})
	}
}
