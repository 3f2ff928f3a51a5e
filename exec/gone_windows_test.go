package exec

import "rfhandoff/localfile"

func processGone(pid int) bool { return !localfile.PIDAlive(pid) }
