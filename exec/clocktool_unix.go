//go:build !windows

package exec

// ClockTool is the program this platform asks about its clock.
const ClockTool = Timedatectl

// clockTools are the clock programs this platform resolves (Tools).
var clockTools = []Tool{Timedatectl, Chronyc}
