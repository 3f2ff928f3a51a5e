package exec

import (
	"strings"
)

// keptEnv, with the platform's own platformEnv (env_unix.go,
// env_windows.go), are the variables a child inherits: what the
// operator's own authentication (ssh agent, global git config with its
// credential helper) and basic process sanity need. Everything else is
// dropped; in particular every GIT_* variable that redirects git (GIT_DIR,
// GIT_CONFIG_*, GIT_EXEC_PATH, GIT_ASKPASS, GIT_SSH_COMMAND, ...). Keys
// are compared through envKey.
var keptEnv = map[string]bool{
	"HOME":             true,
	"PATH":             true,
	"TZ":               true,
	"SSH_AUTH_SOCK":    true,
	"XDG_CONFIG_HOME":  true,
	"HACKRF_SIM":       true,
	"HACKRF_SIM_ONAIR": true,
	"HACKRF_SIM_SEED":  true,
	// the simulated host clock's offset from true time, which a chronyc
	// stand-in reports too (internal/clocktest)
	"HACKRF_SIM_PPS_OFFSET_NS": true,
	"HACKRF_SIM_TRIGGER":       true,
	"HACKRF_SIM_DELAY_NS":      true,
}

// fixedEnv is set for every child whatever the parent had.
var fixedEnv = []string{
	"LC_ALL=C",              // parseable, untranslated output
	"GIT_TERMINAL_PROMPT=0", // never block on a credential prompt
	"GIT_NO_REPLACE_OBJECTS=1",
	"GIT_PROTOCOL_FROM_USER=0",
}

// buildEnv returns the child environment: the kept variables of parent,
// then fixedEnv, then extra (rfhandoff's own explicit settings).
func buildEnv(parent, extra []string) []string {
	out := make([]string, 0, len(keptEnv)+len(platformEnv)+len(fixedEnv)+len(extra))
	seen := map[string]bool{}
	for _, kv := range parent {
		k, _, ok := strings.Cut(kv, "=")
		k = envKey(k)
		if !ok || !keptEnv[k] && !platformEnv[k] || seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, kv)
	}
	out = append(out, fixedEnv...)
	return append(out, extra...)
}
