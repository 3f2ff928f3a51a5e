//go:build !linux && !windows

package exec

// platformHelper: the parent-death modes exist only where Pdeathsig does.
func platformHelper(string, string) (int, bool) { return 0, false }
