//go:build !linux && !windows

package exec

// processStart: no /proc (macOS, the BSDs), so no start is known and a
// recorded pid is checked without it.
func processStart(int) (int64, bool) { return 0, false }
