package exec

import "testing"

// The clock tools run with their one query and nothing else, for every
// role but notify.
func TestClockToolArgs(t *testing.T) {
	for _, role := range []Role{RoleGit, RoleProbe, RoleCapture, RoleTransmit} {
		if r := checkArgs(role, Timedatectl, []string{"show", "-p", "NTPSynchronized", "--value"}); r != "" {
			t.Errorf("%s: timedatectl query refused: %s", role, r)
		}
		if r := checkArgs(role, W32tm, []string{"/query", "/status"}); r != "" {
			t.Errorf("%s: w32tm query refused: %s", role, r)
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
	} {
		if r := checkArgs(RoleCapture, c.tool, c.args); r == "" {
			t.Errorf("%s %v allowed", c.tool, c.args)
		}
	}
}
