package hostclock

// boundReadable: Windows gives no bound rfhandoff reads. `w32tm /query
// /status` has no offset of the local clock; /verbose adds a "Phase
// Offset" that is not documented as one, and the output is translated
// (ParseW32tm already cannot tell in another language). So Bound cannot
// tell and asks nothing.
const boundReadable = false

const boundUnreadable = "rfhandoff reads no error bound from the Windows Time service (w32tm gives no documented offset bound); " +
	"run this node on Linux with chrony, or capture with SYNC_MODE=PPS"
