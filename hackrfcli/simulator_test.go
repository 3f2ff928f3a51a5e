package hackrfcli

import (
	"strings"
	"testing"
)

// The simulator's marker is found only as the whole line, wherever a tool
// prints it; the real tools' transcripts never have it.
func TestParseInfoSimulated(t *testing.T) {
	real := loadTranscript(t, "info/debian-one-board.txtar")
	tests := []struct {
		name   string
		stdout string
		want   bool
	}{
		{"debian tool", string(real.Stdout), false},
		{"upstream tool", string(loadTranscript(t, "info/upstream-one-board.txtar").Stdout), false},
		{"marker first", SimulatorMarker + "\n" + string(real.Stdout), true},
		{"marker first, CRLF", SimulatorMarker + "\r\n" + string(real.Stdout), true},
		{"marker inside the board block", strings.Replace(string(real.Stdout), "Index: 0\n", "Index: 0\n"+SimulatorMarker+"\n", 1), true},
		{"marker with a suffix", SimulatorMarker + " (old)\n" + string(real.Stdout), false},
		{"marker indented", " " + SimulatorMarker + "\n" + string(real.Stdout), false},
		{"marker on a line of its own elsewhere", string(real.Stdout) + SimulatorMarker + "\n", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in, err := ParseInfo([]byte(tt.stdout), nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			if in.Simulated != tt.want {
				t.Errorf("Simulated = %v, want %v", in.Simulated, tt.want)
			}
			if len(in.Boards) != 1 || !in.Boards[0].Opened() {
				t.Errorf("the marker broke the board block: %+v", in.Boards)
			}
		})
	}
	// Without a board the simulator still says what it is.
	nodev := SimulatorMarker + "\n" + string(loadTranscript(t, "info/debian-nodevice.txtar").Stdout)
	in, err := ParseInfo([]byte(nodev), nil, 1)
	if err == nil || !in.Simulated {
		t.Errorf("no device, simulated: Simulated %v, err %v", in.Simulated, err)
	}
}

func TestTransferStatsSimulated(t *testing.T) {
	tests := []struct {
		name   string
		first  string // a line before the transcript's stderr ("" none)
		last   string // a line after it
		want   bool
		reason ExitReason
	}{
		{"debian tool", "", "", false, ExitFinished},
		{"marker first", SimulatorMarker, "", true, ExitFinished},
		{"marker last", "", SimulatorMarker, true, ExitFinished},
		{"not the whole line", "x" + SimulatorMarker, "", false, ExitFinished},
	}
	tr := loadTranscript(t, "transfer/debian-rx-n.txtar")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s TransferStats
			lines := splitLines(tr.Stderr)
			if tt.first != "" {
				lines = append([]string{tt.first}, lines...)
			}
			if tt.last != "" {
				lines = append(lines, tt.last)
			}
			for _, l := range lines {
				s.AddLine(l)
			}
			if s.Simulated != tt.want || s.Reason != tt.reason || !s.Finished {
				t.Errorf("Simulated %v Reason %q Finished %v, want %v %q true", s.Simulated, s.Reason, s.Finished, tt.want, tt.reason)
			}
		})
	}
}
