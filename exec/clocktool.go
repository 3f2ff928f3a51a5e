package exec

import "slices"

// The programs that say whether the system clock is synchronised
// (PROTOCOL#subprocesses): read-only queries, each allowed with exactly
// one argument list. Chronyc says how far off it may be (hostclock.Bound).
const (
	Timedatectl Tool = "timedatectl"
	W32tm       Tool = "w32tm"
	Chronyc     Tool = "chronyc"
)

// The only arguments each clock tool may be given.
var (
	TimedatectlArgs = []string{"show", "-p", "NTPSynchronized", "--value"}
	W32tmArgs       = []string{"/query", "/status"}
	ChronycArgs     = []string{"-c", "tracking"}
)

var clockArgs = map[Tool][]string{Timedatectl: TimedatectlArgs, W32tm: W32tmArgs, Chronyc: ChronycArgs}

func checkClockTool(tool Tool, args []string) string {
	if !slices.Equal(args, clockArgs[tool]) {
		return "only the clock status query is allowed"
	}
	return ""
}
