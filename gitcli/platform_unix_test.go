//go:build unix

package gitcli

// abs turns a slash-separated absolute test path into one of this system.
func abs(p string) string { return p }
