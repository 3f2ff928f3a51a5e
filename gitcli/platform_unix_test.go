//go:build unix

package gitcli

// abs turns a slash-separated absolute test path into one of this system.
func abs(p string) string { return p }

// rootedFileURLPath is the file:// path of "/srv/git/rf.git" here.
const rootedFileURLPath = "/srv/git/rf.git"

// fileURLPath is an absolute path of this system as a file:// URL's path.
func fileURLPath(p string) string { return p }
