// Package hostclock asks the operating system whether it keeps the host
// clock synchronised, through the audited runner (PROTOCOL#subprocesses): systemd's
// `timedatectl show -p NTPSynchronized --value` (the kernel's STA_UNSYNC
// flag as systemd reads it) on Unix, `w32tm /query /status` on Windows.
// Where the program is missing, fails or says something else, the answer
// is "cannot tell", which never refuses but is said.
//
// How far off the clock may be (SYNC_MODE HOST_CLOCK, issue 34) only
// `chronyc -c tracking` answers: chrony's documented bound on the error from
// UTC, assuming the stratum-1 reference is right, is |offset| + root
// dispersion + root delay / 2 (half the round trip plus what every hop may
// have added, and the system clock's offset from that). A clock chrony
// calls "Not synchronised" has no bound; without chronyc, and on Windows,
// whose w32tm documents no such bound, it cannot tell. Unlike Check's,
// both answers refuse.
package hostclock

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"rfhandoff/exec"
)

type Sync int

const (
	Unknown   Sync = iota // cannot tell: no program, or no answer it could be read from
	Synced                // the OS says it is synchronised
	NotSynced             // the OS says it is not
)

// WaiverKey lets a side run on a clock the OS says is not synchronised.
const WaiverKey = "clock.require_synchronized"

const Timeout = 10 * time.Second

type Report struct {
	Sync    Sync
	Command string // the command line asked
	Said    string // its answer, or why there is none
}

func (r Report) String() string {
	switch r.Sync {
	case Synced:
		return fmt.Sprintf("synchronised (%s: %s)", r.Command, r.Said)
	case NotSynced:
		return fmt.Sprintf("NOT synchronised (%s: %s)", r.Command, r.Said)
	}
	return fmt.Sprintf("cannot tell (%s: %s)", r.Command, r.Said)
}

func commandLine(tool exec.Tool, args []string) string {
	return strings.Join(append([]string{string(tool)}, args...), " ")
}

// Check never fails: every error is a report that cannot tell, saying why.
func Check(ctx context.Context, r exec.Runner) Report {
	tool, args, parse := exec.Timedatectl, exec.TimedatectlArgs, ParseTimedatectl
	if exec.ClockTool == exec.W32tm {
		tool, args, parse = exec.W32tm, exec.W32tmArgs, ParseW32tm
	}
	res, why, ok := ask(ctx, r, tool, args)
	if !ok {
		return Report{Command: commandLine(tool, args), Said: why}
	}
	return parse(res.Stdout, res.Stderr, res.ExitCode)
}

// ask: unless the tool ended with an exit status of its own (ok), why says
// what kept it from answering.
func ask(ctx context.Context, r exec.Runner, tool exec.Tool, args []string) (res exec.Result, why string, ok bool) {
	res, err := r.Run(ctx, exec.Cmd{Tool: tool, Args: args, Timeout: Timeout, MaxOutput: 64 << 10})
	var ee *exec.ExitError
	switch {
	case errors.Is(err, exec.ErrNotInstalled):
		return res, fmt.Sprintf("%s is not installed", tool), false
	case err != nil && (!errors.As(err, &ee) || ee.Signal != ""):
		return res, err.Error(), false
	}
	return res, "", true
}

// ParseTimedatectl: anything but exit 0 with "yes" or "no" (no systemd:
// exit 1) cannot tell, quoting the first line printed.
func ParseTimedatectl(stdout, stderr []byte, exitCode int) Report {
	r := Report{Command: commandLine(exec.Timedatectl, exec.TimedatectlArgs)}
	out := strings.TrimSpace(strings.ReplaceAll(string(stdout), "\r\n", "\n"))
	if exitCode != 0 {
		r.Said = fmt.Sprintf("exit status %d%s", exitCode, firstLine(stderr, stdout))
		return r
	}
	switch out {
	case "yes":
		r.Sync, r.Said = Synced, "yes"
	case "no":
		r.Sync, r.Said = NotSynced, "no"
	default:
		r.Said = fmt.Sprintf("unexpected answer %q", clip(out))
	}
	return r
}

// ParseW32tm: NTP leap indicator 3 is "not synchronized"; 0 to 2 are
// synchronised when "Source:" names a source other than the machine's own
// clock. A stopped service and output in another language cannot tell.
func ParseW32tm(stdout, stderr []byte, exitCode int) Report {
	r := Report{Command: commandLine(exec.W32tm, exec.W32tmArgs)}
	if exitCode != 0 {
		r.Said = fmt.Sprintf("exit status %d%s", exitCode, firstLine(stdout, stderr))
		return r
	}
	leap, source := -1, ""
	haveSource := false
	for _, line := range strings.Split(strings.ReplaceAll(string(stdout), "\r\n", "\n"), "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		switch strings.TrimSpace(k) {
		case "Leap Indicator":
			v = strings.TrimSpace(v)
			digits := v[:len(v)-len(strings.TrimLeft(v, "0123456789"))]
			if x, err := strconv.Atoi(digits); err == nil && x >= 0 && x <= 3 {
				leap = x
			}
		case "Source":
			source, haveSource = strings.TrimSpace(v), true
		}
	}
	switch {
	case leap == 3:
		r.Sync, r.Said = NotSynced, "Leap Indicator: 3 (not synchronized)"
	case leap < 0 || !haveSource:
		r.Said = "no \"Leap Indicator:\" and \"Source:\" lines to read"
	case source == "Local CMOS Clock" || source == "Free-running System Clock" || source == "":
		r.Sync, r.Said = NotSynced, fmt.Sprintf("Source: %s (the machine's own clock, no time server)", cmp.Or(source, "(empty)"))
	default:
		r.Sync, r.Said = Synced, fmt.Sprintf("Leap Indicator: %d, Source: %s", leap, clip(source))
	}
	return r
}

type notSyncedError struct {
	Report Report
	Action string // what is refused, e.g. "publishing a READY result"
}

func (e *notSyncedError) Error() string {
	return fmt.Sprintf("%s refused: the host clock is not synchronised, says the operating system (%s: %s), so every freshness check on this side would be wrong; "+
		"wait until it has synchronised and try again (ask with `%s`; a Raspberry Pi, which has no real-time clock, is synchronised only once NTP has reached a server after boot), "+
		"or, to run anyway on a clock you have checked yourself, set require_synchronized = false under [clock] in the policy (%s)",
		e.Action, e.Report.Command, e.Report.Said, e.Report.Command, WaiverKey)
}

// Require refuses only when the OS says the clock is not synchronised and
// required is set; the report is returned in every case.
func Require(ctx context.Context, r exec.Runner, required bool, action string) (Report, error) {
	rep := Check(ctx, r)
	if rep.Sync == NotSynced && required {
		return rep, &notSyncedError{Report: rep, Action: action}
	}
	return rep, nil
}

// firstLine is ": <the first non-blank line>" of the first stream with one.
func firstLine(streams ...[]byte) string {
	for _, s := range streams {
		if l, _, _ := strings.Cut(strings.TrimSpace(string(s)), "\n"); l != "" {
			return ": " + clip(strings.TrimSpace(l))
		}
	}
	return ""
}

// clip bounds what a report quotes of a program's output, printable.
func clip(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return '?'
		}
		return r
	}, s)
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	return s
}
