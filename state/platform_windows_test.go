package state

import "path/filepath"

// modesKept: Windows keeps no permission bits (access is the ACL's), so a
// file's mode reads 0666 whatever it was created with.
const modesKept = false

// abs turns a slash-separated absolute test path into one of this system.
func abs(p string) string { return `C:` + filepath.FromSlash(p) }
