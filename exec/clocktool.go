package exec

import "slices"

// The programs that say whether the operating system keeps its clock
// synchronised (PROTOCOL#subprocesses): read-only queries, each allowed with
// exactly one argument list, for every role but RoleNotify (tx watch,
// whose runner may start no HackRF tool, asks before it offers a result).
const (
	// Timedatectl is systemd's; its NTPSynchronized property is the
	// kernel's STA_UNSYNC flag (adjtimex) as systemd reads it.
	Timedatectl Tool = "timedatectl"
	// W32tm is the Windows Time service's command line.
	W32tm Tool = "w32tm"
)

// TimedatectlArgs and W32tmArgs are the only arguments each clock tool
// may be given.
var (
	TimedatectlArgs = []string{"show", "-p", "NTPSynchronized", "--value"}
	W32tmArgs       = []string{"/query", "/status"}
)

// checkClockTool refuses any argument list but the tool's one.
func checkClockTool(tool Tool, args []string) string {
	want := TimedatectlArgs
	if tool == W32tm {
		want = W32tmArgs
	}
	if !slices.Equal(args, want) {
		return "only the clock status query is allowed"
	}
	return ""
}
