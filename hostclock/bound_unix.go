//go:build !windows

package hostclock

const boundReadable = true

const boundUnreadable = ""
