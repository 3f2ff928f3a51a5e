//go:build !windows

package hostclock

// boundReadable: on Unix the bound is chrony's (Bound asks chronyc).
const boundReadable = true

const boundUnreadable = ""
