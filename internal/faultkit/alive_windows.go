package faultkit

import "rfhandoff/localfile"

// Alive reports whether pid is a running process.
func Alive(pid int) bool { return localfile.PIDAlive(pid) }
