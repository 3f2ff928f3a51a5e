package exec

import "strings"

// platformEnv are the variables a Windows child inherits besides keptEnv.
// Git for Windows and its ssh need the system's own variables: without
// SYSTEMROOT Winsock cannot start, without PATHEXT, COMSPEC or WINDIR its
// shell and helpers are not found, and the profile directories are where
// its global config (%USERPROFILE%\.gitconfig, or HOME when set) and
// credential manager live. OpenSSH for Windows reaches its agent through a
// named pipe, Git for Windows' own ssh through SSH_AUTH_SOCK.
var platformEnv = map[string]bool{
	"PATHEXT":      true,
	"SYSTEMROOT":   true,
	"SYSTEMDRIVE":  true,
	"WINDIR":       true,
	"COMSPEC":      true,
	"USERNAME":     true,
	"USERPROFILE":  true,
	"HOMEDRIVE":    true,
	"HOMEPATH":     true,
	"APPDATA":      true,
	"LOCALAPPDATA": true,
	"PROGRAMDATA":  true,
	"TEMP":         true,
	"TMP":          true,
}

// envKey: Windows variable names are case-insensitive (Path, ProgramData).
func envKey(k string) string { return strings.ToUpper(k) }
