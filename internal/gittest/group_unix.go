//go:build unix

package gittest

import (
	"os"
	"syscall"
)

// groupAttr starts a process as the leader of its own process group.
func groupAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

func killGroup(p *os.Process) { _ = syscall.Kill(-p.Pid, syscall.SIGKILL) }

// daemonCommand is `git daemon`: its process group is stopped as one.
func daemonCommand(git string) (string, []string) { return git, []string{git, "daemon"} }
