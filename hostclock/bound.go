package hostclock

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"rfhandoff/exec"
)

// ErrorBound is how far the host clock may be from true UTC, as chrony
// reports it. Offset is positive when the host clock is ahead (chrony's
// sign is the opposite).
type ErrorBound struct {
	Sync           Sync // Synced only with a Bound to trust
	Offset         time.Duration
	RootDelay      time.Duration
	RootDispersion time.Duration
	Bound          time.Duration
	Source         string // the command line asked
	Said           string // its answer, or why there is none
}

const BoundBasis = "chronyc -c tracking: |offset| + root dispersion + root delay/2"

func (b ErrorBound) String() string {
	if b.Sync != Synced {
		return Report{Sync: b.Sync, Command: b.Source, Said: b.Said}.String()
	}
	return fmt.Sprintf("within %s of UTC (%s, root dispersion %s, root delay %s; %s)",
		b.Bound, offsetWords(b.Offset), b.RootDispersion, b.RootDelay, b.Source)
}

func offsetWords(d time.Duration) string {
	switch {
	case d > 0:
		return fmt.Sprintf("%s ahead", d)
	case d < 0:
		return fmt.Sprintf("%s behind", -d)
	}
	return "no offset"
}

var boundSource = commandLine(exec.Chronyc, exec.ChronycArgs)

// chronycFields is the number of CSV fields of chronyc's tracking report
// (client.c, process_cmd_tracking): 5 system time, 11 root delay, 12 root
// dispersion, 14 leap status.
const chronycFields = 14

const chronycMissing = "chronyc is not installed"

// maxSeconds bounds each figure read: beyond it the report cannot be a
// clock's and a Duration would overflow.
const maxSeconds = 1e6

// Bound, unlike Check, fails unless the clock is synchronised; the
// ErrorBound is returned in every case.
func Bound(ctx context.Context, r exec.Runner) (ErrorBound, error) {
	b := ErrorBound{Source: "Windows", Said: boundUnreadable}
	if boundReadable {
		res, why, ok := ask(ctx, r, exec.Chronyc, exec.ChronycArgs)
		if ok {
			return ParseChronycTracking(res.Stdout, res.Stderr, res.ExitCode)
		}
		b = ErrorBound{Source: boundSource, Said: why}
	}
	return b, &boundError{Bound: b}
}

// ParseChronycTracking: a non-zero exit (chronyd not running: "506 Cannot
// talk to daemon", exit 1), another field count or an unreadable figure
// cannot tell.
func ParseChronycTracking(stdout, stderr []byte, exitCode int) (ErrorBound, error) {
	b := ErrorBound{Source: boundSource}
	if exitCode != 0 {
		b.Said = fmt.Sprintf("exit status %d%s", exitCode, firstLine(stdout, stderr))
		return b, &boundError{Bound: b}
	}
	line := strings.TrimSpace(strings.ReplaceAll(string(stdout), "\r\n", "\n"))
	b.Said = clip(line)
	if strings.Contains(line, "\n") || line == "" {
		b.Said = fmt.Sprintf("not one line of %d comma-separated fields: %q", chronycFields, clip(line))
		return b, &boundError{Bound: b}
	}
	f := strings.Split(line, ",")
	if len(f) != chronycFields {
		b.Said = fmt.Sprintf("%d comma-separated fields, not %d: %q", len(f), chronycFields, clip(line))
		return b, &boundError{Bound: b}
	}
	var bad []string
	figure := func(i int, name string, signed bool) time.Duration {
		v, err := strconv.ParseFloat(f[i], 64)
		if err != nil || math.IsNaN(v) || math.Abs(v) > maxSeconds || (!signed && v < 0) {
			bad = append(bad, fmt.Sprintf("%s (field %d) %q", name, i+1, clip(f[i])))
			return 0
		}
		return time.Duration(math.Round(v * 1e9))
	}
	b.Offset = -figure(4, "system time", true)
	b.RootDelay = figure(10, "root delay", false)
	b.RootDispersion = figure(11, "root dispersion", false)
	switch leap := f[13]; leap {
	case "Normal", "Insert second", "Delete second":
		b.Sync = Synced
	case "Not synchronised":
		b.Sync = NotSynced
	default:
		bad = append(bad, fmt.Sprintf("leap status (field 14) %q", clip(leap)))
	}
	if len(bad) > 0 {
		b.Sync, b.Offset, b.RootDelay, b.RootDispersion = Unknown, 0, 0, 0
		b.Said = fmt.Sprintf("unreadable %s in %q", strings.Join(bad, ", "), clip(line))
	}
	if b.Sync != Synced {
		return b, &boundError{Bound: b}
	}
	b.Bound = b.Offset.Abs() + b.RootDispersion + b.RootDelay/2
	return b, nil
}

type boundError struct {
	Bound ErrorBound
}

func (e *boundError) Error() string {
	b := e.Bound
	if b.Sync == NotSynced {
		return fmt.Sprintf("the host clock is not synchronised, says chrony (%s: %s), so it bounds no error; "+
			"wait until it is (`chronyc tracking` then shows leap status \"Normal\"; `chronyc waitsync` waits for it)", b.Source, b.Said)
	}
	switch {
	case !boundReadable && b.Said == boundUnreadable:
		return fmt.Sprintf("the host clock's error bound cannot be told (%s: %s)", b.Source, b.Said)
	case b.Said == chronycMissing:
		return fmt.Sprintf("the host clock's error bound cannot be told: chronyc is not installed, and rfhandoff reads that bound only from chrony (%s); "+
			"install chrony (Debian: apt install chrony) and let it synchronise, or put chronyc on PATH", b.Source)
	}
	return fmt.Sprintf("the host clock's error bound cannot be told (%s: %s); "+
		"check that chronyd runs and answers (`chronyc tracking`; Debian: systemctl start chrony)", b.Source, b.Said)
}

// RequireBound refuses action unless the clock is synchronised and its
// bound is within limit.
func RequireBound(ctx context.Context, r exec.Runner, limit time.Duration, limitKey, action string) (ErrorBound, error) {
	b, err := Bound(ctx, r)
	if err != nil {
		return b, fmt.Errorf("%s refused: %w", action, err)
	}
	if b.Bound > limit {
		return b, &boundLimitError{Bound: b, Limit: limit, Key: limitKey, Action: action}
	}
	return b, nil
}

type boundLimitError struct {
	Bound       ErrorBound
	Limit       time.Duration
	Key, Action string
}

func (e *boundLimitError) Error() string {
	return fmt.Sprintf("%s refused: the host clock may be %s from UTC (offset %s + root dispersion %s + root delay %s / 2, says `%s`), "+
		"more than the policy's %s (%s); wait for chrony to settle (the offset and dispersion shrink after a few updates: `chronyc tracking`), "+
		"use a closer time source (a smaller root delay), or raise %s",
		e.Action, e.Bound.Bound, e.Bound.Offset.Abs(), e.Bound.RootDispersion, e.Bound.RootDelay, e.Bound.Source, e.Limit, e.Key, e.Key)
}
