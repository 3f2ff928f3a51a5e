package faultkit

import "rfhandoff/state"

// Alive reports whether pid is a running process.
func Alive(pid int) bool { return state.PIDAlive(pid) }
