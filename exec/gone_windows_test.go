package exec

func processGone(pid int) bool { return !PIDAlive(pid) }
