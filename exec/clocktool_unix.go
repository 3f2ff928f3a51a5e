//go:build !windows

package exec

// ClockTool is the program this platform asks about its clock.
const ClockTool = Timedatectl
