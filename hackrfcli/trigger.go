package hackrfcli

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

const (
	boardHackRFOneOG = 2 // HackRF One before r9
	boardHackRFPro   = 5 // "Praline"
)

// IgnoresTrigger names firmware known to stream at once under -H ("" for
// any other): such a board cannot start on a shared edge, so a
// PPS-scheduled capture is refused before it arms.
func (b Board) IgnoresTrigger() string {
	v, ok := releaseOf(b.FirmwareVersion)
	if !ok {
		return ""
	}
	switch {
	case b.BoardID == boardHackRFOneOG && v == [3]int{2023, 1, 1}:
		return fmt.Sprintf("firmware %s on a HackRF One before r9 ignores -H and streams at once "+
			"(greatscottgadgets/hackrf#1292, fixed in 2024.02.1): update the board's firmware", b.FirmwareVersion)
	case b.BoardID == boardHackRFPro && slices.Compare(v[:], []int{2026, 1, 3}) <= 0:
		return fmt.Sprintf("firmware %s on a HackRF Pro ignores -H and streams at once "+
			"(greatscottgadgets/hackrf#1802, releases to 2026.01.3): update the board's firmware", b.FirmwareVersion)
	}
	return ""
}

// releaseOf reads a release version; a git build is not a release.
func releaseOf(s string) ([3]int, bool) {
	var v [3]int
	parts := strings.Split(strings.TrimPrefix(s, "v"), ".")
	if len(parts) != 3 {
		return v, false
	}
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 {
			return v, false
		}
		v[i] = n
	}
	return v, true
}
