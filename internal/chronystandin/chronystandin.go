// Package chronystandin writes a stand-in for chrony's `chronyc` that
// reports a host clock off true time by a chosen offset: what
// hostclock.Bound reads where the HackRF simulator's node keeps time with
// HACKRF_SIM_PPS_OFFSET_NS (PROTOCOL#simulator). The stand-in is a shell
// script (Unix; Windows asks no chronyc). It answers only
// `chronyc -c tracking`, with the CSV line chronyc prints, and exits 2 on
// any other arguments so a caller sees a call it did not expect.
//
// Its one home: tests write it through internal/clocktest, the demo
// sandbox (package demo) for its nodes directly.
package chronystandin

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// OffsetEnv is the variable the stand-in reads its offset from when it is
// set in its environment (the child environment keeps it): the simulator's
// offset of the node's host clock from true time, in nanoseconds.
const OffsetEnv = "HACKRF_SIM_PPS_OFFSET_NS"

// Chrony is what the stand-in reports.
type Chrony struct {
	// Offset is how far the host clock is ahead of true time (negative:
	// behind), the sense of OffsetEnv, which overrides it when set.
	// chronyc prints it with the opposite sign ("slow" is positive).
	Offset         time.Duration
	RootDelay      time.Duration
	RootDispersion time.Duration
	// Unsynchronised reports leap status "Not synchronised" with the
	// figures chronyd has before its first update.
	Unsynchronised bool
	// DaemonDown answers as chronyc does when no chronyd runs: "506
	// Cannot talk to daemon" on stdout, exit 1.
	DaemonDown bool
	// Fixed reports Offset whatever OffsetEnv says: a clock report that
	// has not caught up with the node's true offset, off by the difference.
	Fixed bool
}

// line is the line `chronyc -c tracking` prints for c, with system time
// sys (chronyc's sign: positive when the host clock is behind).
func (c Chrony) line(sys string) string {
	if c.Unsynchronised {
		return "00000000,,0,0.000000000,0.000000000,0.000000000,0.000000000,0.000,0.000,0.000,1.000000000,1.000000000,0.0,Not synchronised"
	}
	return fmt.Sprintf("C0A80101,192.168.1.1,3,%d.000000000,%s,-0.000006747,0.000035822,-3.225,-0.000,0.129,%s,%s,64.2,Normal",
		time.Now().Unix()-30, sys, seconds(c.RootDelay), seconds(c.RootDispersion))
}

// seconds is d as chronyc prints seconds: "%.9f".
func seconds(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', 9, 64)
}

// Script is the stand-in's shell script for c.
func Script(c Chrony) string {
	script := "#!/bin/sh\n" +
		"[ \"$*\" = \"-c tracking\" ] || { echo \"chronyc stand-in: only -c tracking, not: $*\" >&2; exit 2; }\n"
	switch {
	case c.DaemonDown:
		script += "echo '506 Cannot talk to daemon'\nexit 1\n"
	case c.Unsynchronised:
		script += "echo '" + c.line("") + "'\n"
	default:
		// chronyc's figure is minus the offset, in seconds with nine digits.
		before, after, _ := strings.Cut(c.line("@"), "@")
		ns := fmt.Sprintf("ns=${%s:-%d}\n", OffsetEnv, c.Offset.Nanoseconds())
		if c.Fixed {
			ns = fmt.Sprintf("ns=%d\n", c.Offset.Nanoseconds())
		}
		script += ns +
			"case $ns in ''|-|*[!0-9-]*|?*-*) echo \"chronyc stand-in: " + OffsetEnv + "=$ns is not a whole number of nanoseconds\" >&2; exit 3;; esac\n" +
			"c=$((-ns)); s=''\n" +
			"if [ \"$c\" -lt 0 ]; then s=-; c=$((-c)); fi\n" +
			"printf '%s%s%d.%09d%s\\n' '" + before + "' \"$s\" $((c/1000000000)) $((c%1000000000)) '" + after + "'\n"
	}
	return script
}

// Write puts a chronyc stand-in reporting c into dir (which the caller
// puts on the PATH of the processes that ask it) and returns its path.
// Set in the stand-in's environment, OffsetEnv replaces c.Offset (unless
// c.Fixed): one variable then moves both the simulator's PPS edges and
// what the node's clock report says.
func Write(dir string, c Chrony) (string, error) {
	path := filepath.Join(dir, "chronyc")
	if err := os.WriteFile(path, []byte(Script(c)), 0o755); err != nil {
		return "", fmt.Errorf("writing the chronyc stand-in: %w", err)
	}
	return path, nil
}
