package faultkit

import "rfhandoff/exec"

// Alive reports whether pid is a running process.
func Alive(pid int) bool { return exec.PIDAlive(pid) }
