package gittest

import (
	"os"
	"syscall"
)

// groupAttr: no process groups on Windows; killGroup ends the leader only.
func groupAttr() *syscall.SysProcAttr { return nil }

func killGroup(p *os.Process) { _ = p.Kill() }
