//go:build unix

package exec

var keptEnv = map[string]bool{
	"HOME":             true,
	"PATH":             true,
	"USER":             true,
	"LOGNAME":          true,
	"TMPDIR":           true,
	"TZ":               true,
	"SSH_AUTH_SOCK":    true,
	"SSH_AGENT_PID":    true,
	"XDG_CONFIG_HOME":  true,
	"XDG_RUNTIME_DIR":  true,
	"HACKRF_SIM":       true,
	"HACKRF_SIM_ONAIR": true,
	"HACKRF_SIM_SEED":  true,
	// the simulated host clock's offset from true time, which a chronyc
	// stand-in reports too (internal/clocktest)
	"HACKRF_SIM_PPS_OFFSET_NS": true,
	"HACKRF_SIM_TRIGGER":       true,
	"HACKRF_SIM_DELAY_NS":      true,
}

// envKey: Unix variable names are case-sensitive.
func envKey(k string) string { return k }
