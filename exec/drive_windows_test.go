package exec

import "testing"

func TestProtocolOfDrivePath(t *testing.T) {
	for in, want := range map[string]string{
		`C:\lab\rf.git`: "file", "c:/lab/rf.git": "file", "file://C:/lab/rf.git": "file", "gh:o/r": "ssh",
	} {
		if got := ProtocolOf(in); got != want {
			t.Errorf("ProtocolOf(%q) = %q, want %q", in, got, want)
		}
	}
}
