package exec

import "slices"

// The programs that say whether the operating system keeps its clock
// synchronised (PROTOCOL#subprocesses): read-only queries, each allowed with
// exactly one argument list, for every role but RoleNotify (tx watch,
// whose runner may start no HackRF tool, asks before it offers a result).
// Chronyc, which says how far off the clock may be, only for the roles
// that capture or probe (RoleCapture, RoleProbe).
const (
	// Timedatectl is systemd's; its NTPSynchronized property is the
	// kernel's STA_UNSYNC flag (adjtimex) as systemd reads it.
	Timedatectl Tool = "timedatectl"
	// W32tm is the Windows Time service's command line.
	W32tm Tool = "w32tm"
	// Chronyc is chrony's client; `-c tracking` is its clock report as
	// one CSV line (hostclock.Bound). Asked on Unix only.
	Chronyc Tool = "chronyc"
)

// TimedatectlArgs, W32tmArgs and ChronycArgs are the only arguments each
// clock tool may be given.
var (
	TimedatectlArgs = []string{"show", "-p", "NTPSynchronized", "--value"}
	W32tmArgs       = []string{"/query", "/status"}
	ChronycArgs     = []string{"-c", "tracking"}
)

var clockArgs = map[Tool][]string{Timedatectl: TimedatectlArgs, W32tm: W32tmArgs, Chronyc: ChronycArgs}

// checkClockTool refuses any argument list but the tool's one.
func checkClockTool(tool Tool, args []string) string {
	if !slices.Equal(args, clockArgs[tool]) {
		return "only the clock status query is allowed"
	}
	return ""
}
