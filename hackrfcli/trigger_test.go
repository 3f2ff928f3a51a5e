package hackrfcli

import (
	"strings"
	"testing"
)

func TestIgnoresTrigger(t *testing.T) {
	tests := []struct {
		id       int
		firmware string
		want     string // a part of the answer; "" for none
	}{
		{2, "2023.01.1", "hackrf#1292"},
		{2, "v2023.01.1", "hackrf#1292"},
		{2, "2022.09.1", ""},
		{2, "2024.02.1", ""},
		{4, "2023.01.1", ""}, // r9 was not affected
		{5, "2026.01.3", "hackrf#1802"},
		{5, "2026.01.1", "hackrf#1802"},
		{5, "2026.01.4", ""},
		{5, "2027.01.1", ""},
		{5, "git-0ea91e2f", ""}, // not a release: the check after arming judges it
		{2, "2023.01", ""},
		{2, "", ""},
		{-1, "2023.01.1", ""},
	}
	for _, tt := range tests {
		got := Board{BoardID: tt.id, FirmwareVersion: tt.firmware}.IgnoresTrigger()
		if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
			t.Errorf("board %d firmware %q: %q, want %q", tt.id, tt.firmware, got, tt.want)
		}
		if got != "" && !strings.Contains(got, tt.firmware) {
			t.Errorf("board %d firmware %q: %q does not name the firmware", tt.id, tt.firmware, got)
		}
	}
}
