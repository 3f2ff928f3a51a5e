//go:build unix

package exec

var platformEnv = map[string]bool{
	"USER":            true,
	"LOGNAME":         true,
	"TMPDIR":          true,
	"SSH_AGENT_PID":   true,
	"XDG_RUNTIME_DIR": true,
}

func envKey(k string) string { return k }
