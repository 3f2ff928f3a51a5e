package exec

import (
	"slices"
	"testing"
)

// The clock tools run with their one query and nothing else: the status
// queries for every role but notify, chronyc's report for capture and
// probe only.
func TestClockToolArgs(t *testing.T) {
	for _, role := range []Role{RoleGit, RoleProbe, RoleCapture, RoleTransmit} {
		if r := checkArgs(role, Timedatectl, []string{"show", "-p", "NTPSynchronized", "--value"}); r != "" {
			t.Errorf("%s: timedatectl query refused: %s", role, r)
		}
		if r := checkArgs(role, W32tm, []string{"/query", "/status"}); r != "" {
			t.Errorf("%s: w32tm query refused: %s", role, r)
		}
		r := checkArgs(role, Chronyc, []string{"-c", "tracking"})
		if want := role == RoleCapture || role == RoleProbe; want != (r == "") {
			t.Errorf("%s: chronyc -c tracking refused %q, want allowed %v", role, r, want)
		}
	}
	for _, c := range []struct {
		tool Tool
		args []string
	}{
		{Timedatectl, nil},
		{Timedatectl, []string{"set-ntp", "false"}},
		{Timedatectl, []string{"set-time", "2020-01-01"}},
		{Timedatectl, []string{"show", "-p", "NTPSynchronized", "--value", "--host=x"}},
		{Timedatectl, []string{"show", "-p", "NTP", "--value"}},
		{W32tm, []string{"/resync"}},
		{W32tm, []string{"/query", "/status", "/verbose"}},
		{W32tm, []string{"/config", "/update"}},
		{Chronyc, nil},
		{Chronyc, []string{"tracking"}},
		{Chronyc, []string{"-c", "sources"}},
		{Chronyc, []string{"-c", "makestep"}},
		{Chronyc, []string{"-c", "settime", "12:00"}},
		{Chronyc, []string{"-c", "tracking", "makestep"}},
		{Chronyc, []string{"-h", "ntp.example.net", "-c", "tracking"}},
		{Chronyc, []string{"tracking", "-c"}},
		{Chronyc, []string{"-c", "-m", "tracking", "makestep"}},
		{Chronyc, []string{"-c", "TRACKING"}},
	} {
		if r := checkArgs(RoleCapture, c.tool, c.args); r == "" {
			t.Errorf("%s %v allowed", c.tool, c.args)
		}
	}
}

// Each platform resolves its own clock tools: chronyc beside timedatectl
// on Unix, w32tm alone on Windows (no chronyc to find, none to report).
func TestToolsHoldThisPlatformsClockTools(t *testing.T) {
	if !slices.Contains(Tools, ClockTool) {
		t.Errorf("Tools %v lack %s", Tools, ClockTool)
	}
	if got, want := slices.Contains(Tools, Chronyc), ClockTool != W32tm; got != want {
		t.Errorf("chronyc in Tools: %v, want %v (%v)", got, want, Tools)
	}
	if !slices.Equal(Tools[:4], []Tool{Git, HackRFInfo, HackRFTransfer, HackRFClock}) {
		t.Errorf("Tools %v: the HackRF tools' order changed", Tools)
	}
}
