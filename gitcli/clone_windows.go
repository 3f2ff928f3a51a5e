package gitcli

import "os"

// ownedByUs: on Windows the temp dir is the user's own
// (%LOCALAPPDATA%\Temp, closed to other users by its ACL), so whatever is
// in it is ours.
func ownedByUs(os.FileInfo) bool { return true }
