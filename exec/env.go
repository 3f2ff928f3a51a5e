package exec

import (
	"strings"
)

// keptEnv and platformEnv are what a child inherits: what the operator's
// authentication and process sanity need, never a GIT_* that redirects git.
var keptEnv = map[string]bool{
	"HOME":             true,
	"PATH":             true,
	"TZ":               true,
	"SSH_AUTH_SOCK":    true,
	"XDG_CONFIG_HOME":  true,
	"HACKRF_SIM":       true,
	"HACKRF_SIM_ONAIR": true,
	"HACKRF_SIM_SEED":  true,
	// also read by internal/clocktest's chronyc stand-in
	"HACKRF_SIM_PPS_OFFSET_NS": true,
	"HACKRF_SIM_TRIGGER":       true,
	"HACKRF_SIM_DELAY_NS":      true,
}

var fixedEnv = []string{
	"LC_ALL=C",              // parseable, untranslated output
	"GIT_TERMINAL_PROMPT=0", // never block on a credential prompt
	"GIT_NO_REPLACE_OBJECTS=1",
	"GIT_PROTOCOL_FROM_USER=0",
}

// buildEnv: the kept variables of parent, then fixedEnv, then extra.
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
