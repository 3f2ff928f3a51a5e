package exec

const ClockTool = W32tm

// Not chronyc: hostclock.Bound cannot tell on Windows.
var clockTools = []Tool{W32tm}
