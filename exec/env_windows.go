package exec

import "strings"

// platformEnv: Git for Windows and its ssh need the system's own variables
// (Winsock, its shell and helpers), and the profile directories hold its
// global config and credential manager.
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
