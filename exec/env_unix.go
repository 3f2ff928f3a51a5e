//go:build unix

package exec

// platformEnv are the variables a Unix child inherits besides keptEnv.
var platformEnv = map[string]bool{
	"USER":            true,
	"LOGNAME":         true,
	"TMPDIR":          true,
	"SSH_AGENT_PID":   true,
	"XDG_RUNTIME_DIR": true,
}

// envKey: Unix variable names are case-sensitive.
func envKey(k string) string { return k }
