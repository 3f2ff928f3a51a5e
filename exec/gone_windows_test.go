package exec

import "rfhandoff/state"

func processGone(pid int) bool { return !state.PIDAlive(pid) }
