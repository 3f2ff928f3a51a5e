package hostclock

// boundReadable: w32tm has no documented offset of the local clock
// (/verbose's "Phase Offset" is not one), and its output is translated.
const boundReadable = false

const boundUnreadable = "rfhandoff reads no error bound from the Windows Time service (w32tm gives no documented offset bound); " +
	"run this node on Linux with chrony, or capture with SYNC_MODE=PPS"
