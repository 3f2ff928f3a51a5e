package exec

// ClockTool is the program this platform asks about its clock.
const ClockTool = W32tm

// clockTools are the clock programs this platform resolves (Tools):
// chronyc is not asked on Windows (hostclock.Bound cannot tell there).
var clockTools = []Tool{W32tm}
