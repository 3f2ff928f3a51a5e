package exec

// ClockTool is the program this platform asks about its clock.
const ClockTool = W32tm
