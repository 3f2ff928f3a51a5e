//go:build !linux

package exec

import (
	osexec "os/exec"
	"syscall"
)

// Only Linux has a parent-death signal (see spawn_linux.go); elsewhere a
// child outlives a killed rfhandoff and capture's recovery ends it.
func setParentDeathSignal(*syscall.SysProcAttr) {}

func startOnStableThread(cmd *osexec.Cmd) error { return cmd.Start() }
