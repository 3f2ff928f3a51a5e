package hostclock

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// Lines as chronyc -c tracking prints them (client.c's tracking report in
// CSV: %.9f seconds, the epoch for the reference time).
const (
	chronyNTP = "C0A80101,192.168.1.1,3,1796290000.123456789,0.000006523,-0.000006747,0.000035822,-3.225,-0.000,0.129,0.013639022,0.001100737,64.2,Normal\n"
	chronyPPS = "50505300,PPS,1,1796290000.000000001,-0.000000015,0.000000021,0.000000034,-1.234,0.001,0.015,0.000000000,0.000015000,16.0,Normal\n"
	// chronyd before its first update, and after losing its sources.
	chronyUnsynced = "00000000,,0,0.000000000,0.000000000,0.000000000,0.000000000,0.000,0.000,0.000,1.000000000,1.000000000,0.0,Not synchronised\n"
	chronyLost     = "C0A80101,192.168.1.1,3,1796290000.123456789,-0.250000000,0.000000000,0.000035822,-3.225,-0.000,0.129,0.013639022,8.100000000,64.2,Not synchronised\n"
)

func TestParseChronycTracking(t *testing.T) {
	ms := func(f float64) time.Duration { return time.Duration(f * float64(time.Millisecond)) }
	for _, c := range []struct {
		name           string
		stdout, stderr string
		code           int
		want           Sync
		offset         time.Duration
		delay, disp    time.Duration
		bound          time.Duration
		said           string // what Said contains
	}{
		{"ntp server: the system clock slow by 6.523 µs", chronyNTP, "", 0, Synced,
			-6523 * time.Nanosecond, 13639022 * time.Nanosecond, 1100737 * time.Nanosecond,
			6523*time.Nanosecond + 1100737*time.Nanosecond + 6819511*time.Nanosecond, "C0A80101,192.168.1.1,3,"},
		{"pps reference clock: fast by 15 ns", chronyPPS, "", 0, Synced, 15, 0, 15 * time.Microsecond, 15*time.Microsecond + 15, "50505300,PPS"},
		{"leap second pending is synchronised", strings.Replace(chronyNTP, "Normal", "Insert second", 1), "", 0, Synced,
			-6523, 13639022, 1100737, 6523 + 1100737 + 6819511, "Insert second"},
		{"crlf", strings.Replace(chronyNTP, "\n", "\r\n", 1), "", 0, Synced, -6523, 13639022, 1100737, 6523 + 1100737 + 6819511, "Normal"},
		{"host ahead by 120 ms", strings.Replace(chronyNTP, ",0.000006523,", ",-0.120000000,", 1), "", 0, Synced,
			ms(120), 13639022, 1100737, ms(120) + 1100737 + 6819511, "-0.120000000"},
		{"not synchronised", chronyUnsynced, "", 0, NotSynced, 0, time.Second, time.Second, 0, "Not synchronised"},
		{"sources lost", chronyLost, "", 0, NotSynced, ms(250), 13639022, ms(8100), 0, "Not synchronised"},
		{"no chronyd", "506 Cannot talk to daemon\n", "", 1, Unknown, 0, 0, 0, 0, "exit status 1: 506 Cannot talk to daemon"},
		{"not csv (no -c before chrony 3.0)", "Reference ID    : C0A80101 (192.168.1.1)\nStratum         : 3\n", "", 0, Unknown, 0, 0, 0, 0, "not one line of 14"},
		{"empty", "", "", 0, Unknown, 0, 0, 0, 0, `not one line of 14 comma-separated fields: ""`},
		{"two reports", chronyNTP + chronyNTP, "", 0, Unknown, 0, 0, 0, 0, "not one line"},
		{"a field missing", strings.Replace(chronyNTP, ",64.2", "", 1), "", 0, Unknown, 0, 0, 0, 0, "13 comma-separated fields, not 14"},
		{"a name with a comma", strings.Replace(chronyNTP, "192.168.1.1", "a,b", 1), "", 0, Unknown, 0, 0, 0, 0, "15 comma-separated fields"},
		{"every bad figure named", strings.NewReplacer(",0.000006523,", ",nan,", ",0.013639022,", ",-0.1,", "0.001100737,", "1e9,", "Normal", "Invalid").Replace(chronyNTP),
			"", 0, Unknown, 0, 0, 0, 0,
			`unreadable system time (field 5) "nan", root delay (field 11) "-0.1", root dispersion (field 12) "1e9", leap status (field 14) "Invalid"`},
		{"control bytes", strings.Replace(chronyNTP, "Normal", "\x1b[0mNormal", 1), "", 0, Unknown, 0, 0, 0, 0, `leap status (field 14) "?[0mNormal"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			b, err := ParseChronycTracking([]byte(c.stdout), []byte(c.stderr), c.code)
			if b.Sync != c.want || !strings.Contains(b.Said, c.said) {
				t.Fatalf("got %v said %q, want %v saying %q", b.Sync, b.Said, c.want, c.said)
			}
			if b.Offset != c.offset || b.RootDelay != c.delay || b.RootDispersion != c.disp || b.Bound != c.bound {
				t.Fatalf("offset %v delay %v dispersion %v bound %v, want %v %v %v %v", b.Offset, b.RootDelay, b.RootDispersion, b.Bound, c.offset, c.delay, c.disp, c.bound)
			}
			if b.Source != "chronyc -c tracking" {
				t.Fatalf("source %q", b.Source)
			}
			var be *boundError
			if got := errors.As(err, &be); got != (c.want != Synced) {
				t.Fatalf("error %v, want one: %v", err, c.want != Synced)
			}
		})
	}
}

// The bound is chrony's documented one: |offset| + dispersion + delay/2,
// whichever way the clock is off.
func TestBoundIsChronysFormula(t *testing.T) {
	ahead, _ := ParseChronycTracking([]byte(strings.Replace(chronyNTP, ",0.000006523,", ",-0.002000000,", 1)), nil, 0)
	behind, _ := ParseChronycTracking([]byte(strings.Replace(chronyNTP, ",0.000006523,", ",0.002000000,", 1)), nil, 0)
	if ahead.Offset != 2*time.Millisecond || behind.Offset != -2*time.Millisecond {
		t.Fatalf("offsets %v %v: chrony's positive system time is a slow clock", ahead.Offset, behind.Offset)
	}
	want := 2*time.Millisecond + 1100737*time.Nanosecond + 13639022*time.Nanosecond/2
	if ahead.Bound != want || behind.Bound != want {
		t.Fatalf("bounds %v %v, want %v", ahead.Bound, behind.Bound, want)
	}
}

// What each answer says: the bound with its parts, or the reason and what
// to do.
func TestBoundSentences(t *testing.T) {
	ok, _ := ParseChronycTracking([]byte(chronyNTP), nil, 0)
	_, unsynced := ParseChronycTracking([]byte(chronyUnsynced), nil, 0)
	_, down := ParseChronycTracking([]byte("506 Cannot talk to daemon\n"), nil, 1)
	ahead, _ := ParseChronycTracking([]byte(chronyPPS), nil, 0)
	missing := &boundError{Bound: ErrorBound{Source: boundSource, Said: chronycMissing}}
	limit := &boundLimitError{Bound: ok, Limit: 5 * time.Millisecond, Key: "sync.max_host_clock_error_s", Action: "arming the capture"}
	for _, c := range []struct {
		got  string
		want []string
	}{
		{ok.String(), []string{"within 7.926771ms of UTC", "6.523µs behind", "root dispersion 1.100737ms", "root delay 13.639022ms", "chronyc -c tracking"}},
		{ahead.String(), []string{"within 15.015µs of UTC (15ns ahead, root dispersion 15µs, root delay 0s; chronyc -c tracking)"}},
		{unsynced.Error(), []string{"not synchronised, says chrony", "Not synchronised", "chronyc waitsync"}},
		{down.Error(), []string{"cannot be told", "506 Cannot talk to daemon", "systemctl start chrony"}},
		{missing.Error(), []string{"chronyc is not installed", "apt install chrony"}},
		{limit.Error(), []string{"arming the capture refused", "may be 7.926771ms from UTC", "more than the policy's 5ms (sync.max_host_clock_error_s)", "raise sync.max_host_clock_error_s"}},
	} {
		for _, w := range c.want {
			if !strings.Contains(c.got, w) {
				t.Errorf("%q lacks %q", c.got, w)
			}
		}
	}
}
