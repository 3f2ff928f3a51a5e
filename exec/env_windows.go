package exec

import "strings"

// Git for Windows and its ssh need the system's own variables: without
// SYSTEMROOT Winsock cannot start, without PATHEXT, COMSPEC or WINDIR its
// shell and helpers are not found, and the profile directories are where
// its global config (%USERPROFILE%\.gitconfig, or HOME when set) and
// credential manager live. OpenSSH for Windows reaches its agent through a
// named pipe, Git for Windows' own ssh through SSH_AUTH_SOCK.
var keptEnv = map[string]bool{
	"HOME":             true,
	"PATH":             true,
	"PATHEXT":          true,
	"SYSTEMROOT":       true,
	"SYSTEMDRIVE":      true,
	"WINDIR":           true,
	"COMSPEC":          true,
	"USERNAME":         true,
	"USERPROFILE":      true,
	"HOMEDRIVE":        true,
	"HOMEPATH":         true,
	"APPDATA":          true,
	"LOCALAPPDATA":     true,
	"PROGRAMDATA":      true,
	"TEMP":             true,
	"TMP":              true,
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

// envKey: Windows variable names are case-insensitive (Path, ProgramData).
func envKey(k string) string { return strings.ToUpper(k) }
