package gitcli

import (
	"os"

	"rfhandoff/state"
)

func processAlive(pid int) bool { return state.PIDAlive(pid) }

// ownedByUs: on Windows the temp dir is the user's own
// (%LOCALAPPDATA%\Temp, closed to other users by its ACL), so whatever is
// in it is ours.
func ownedByUs(os.FileInfo) bool { return true }
