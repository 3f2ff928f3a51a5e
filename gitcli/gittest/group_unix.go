//go:build unix

package gittest

import (
	"os"
	"syscall"
)

// groupAttr starts a process as the leader of its own process group.
func groupAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

func killGroup(p *os.Process) { _ = syscall.Kill(-p.Pid, syscall.SIGKILL) }
