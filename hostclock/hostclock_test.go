package hostclock

import (
	"errors"
	"strings"
	"testing"
)

func TestParseTimedatectl(t *testing.T) {
	for _, c := range []struct {
		name           string
		stdout, stderr string
		code           int
		want           Sync
		said           string
	}{
		{"synced", "yes\n", "", 0, Synced, "yes"},
		{"not synced", "no\n", "", 0, NotSynced, "no"},
		{"crlf", "no\r\n", "", 0, NotSynced, "no"},
		{"no systemd", "", "System has not been booted with systemd as init system (PID 1). Can't operate.\nFailed to connect to bus: Host is down\n", 1,
			Unknown, "exit status 1: System has not been booted with systemd as init system (PID 1). Can't operate."},
		{"no bus", "", "Failed to connect to bus: No such file or directory\n", 1, Unknown, "exit status 1: Failed to connect to bus: No such file or directory"},
		{"empty", "", "", 0, Unknown, `unexpected answer ""`},
		{"other word", "maybe\n", "", 0, Unknown, `unexpected answer "maybe"`},
		{"old systemd prints the key", "NTPSynchronized=yes\n", "", 0, Unknown, `unexpected answer "NTPSynchronized=yes"`},
		{"yes but failed", "yes\n", "", 1, Unknown, "exit status 1: yes"},
		{"control bytes", "\x1b[31mno\n", "", 0, Unknown, `unexpected answer "?[31mno"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := ParseTimedatectl([]byte(c.stdout), []byte(c.stderr), c.code)
			if r.Sync != c.want || r.Said != c.said {
				t.Fatalf("got %v %q, want %v %q", r.Sync, r.Said, c.want, c.said)
			}
			if r.Command != "timedatectl show -p NTPSynchronized --value" {
				t.Fatalf("command %q", r.Command)
			}
		})
	}
}

// w32tm /query /status as Windows 10 prints it (English).
const w32tmSynced = "Leap Indicator: 0(no warning)\r\nStratum: 4 (secondary reference - syncd by (S)NTP)\r\nPrecision: -23 (119.209ns per tick)\r\n" +
	"Root Delay: 0.0312500s\r\nRoot Dispersion: 7.7756996s\r\nReferenceId: 0x14650039 (source IP:  20.101.57.9)\r\n" +
	"Last Successful Sync Time: 12/2/2026 10:41:12 AM\r\nSource: time.windows.com,0x9\r\nPoll Interval: 10 (1024s)\r\n"

const w32tmUnsynced = "Leap Indicator: 3(not synchronized)\r\nStratum: 0 (unspecified)\r\nPrecision: -23 (119.209ns per tick)\r\n" +
	"Root Delay: 0.0000000s\r\nRoot Dispersion: 0.0000000s\r\nReferenceId: 0x00000000 (unspecified)\r\n" +
	"Last Successful Sync Time: unspecified\r\nSource: Local CMOS Clock\r\nPoll Interval: 10 (1024s)\r\n"

func TestParseW32tm(t *testing.T) {
	for _, c := range []struct {
		name   string
		stdout string
		code   int
		want   Sync
		said   string
	}{
		{"synced", w32tmSynced, 0, Synced, "Leap Indicator: 0, Source: time.windows.com,0x9"},
		{"not synced", w32tmUnsynced, 0, NotSynced, "Leap Indicator: 3 (not synchronized)"},
		{"own clock", strings.Replace(w32tmSynced, "Source: time.windows.com,0x9", "Source: Free-running System Clock", 1), 0,
			NotSynced, "Source: Free-running System Clock (the machine's own clock, no time server)"},
		{"service stopped", "The following error occurred: The service has not been started. (0x80070426)\r\n", -2147023834,
			Unknown, "exit status -2147023834: The following error occurred: The service has not been started. (0x80070426)"},
		{"another language", "Indicateur de saut : 0(aucun avertissement)\r\nSource : time.windows.com\r\n", 0,
			Unknown, `no "Leap Indicator:" and "Source:" lines to read`},
		{"no source line", "Leap Indicator: 0(no warning)\r\n", 0, Unknown, `no "Leap Indicator:" and "Source:" lines to read`},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := ParseW32tm([]byte(c.stdout), nil, c.code)
			if r.Sync != c.want || r.Said != c.said {
				t.Fatalf("got %v %q, want %v %q", r.Sync, r.Said, c.want, c.said)
			}
		})
	}
}

// The refusal names the report and the waiver key.
func TestNotSyncedErrorNamesReportAndWaiver(t *testing.T) {
	err := error(&notSyncedError{Report: ParseTimedatectl([]byte("no\n"), nil, 0), Action: "publishing a READY result"})
	for _, want := range []string{"publishing a READY result refused", "timedatectl show -p NTPSynchronized --value: no", "clock.require_synchronized", "[clock]"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q lacks %q", err, want)
		}
	}
	var ns *notSyncedError
	if !errors.As(err, &ns) {
		t.Fatal("not a *notSyncedError")
	}
}
