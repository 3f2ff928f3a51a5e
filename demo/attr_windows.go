package demo

import (
	"os"
	"syscall"

	"golang.org/x/sys/windows"
)

// detachedAttr: no console, so the side can approve nothing.
func detachedAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{CreationFlags: windows.DETACHED_PROCESS}
}

// ttyAttr is never used for a started process: without a pseudo-terminal
// (pty.Open fails on Windows) the demo's operated sides cannot start.
func ttyAttr() *syscall.SysProcAttr { return nil }

// operatorAttr: the operator's console, in a process group of its own so
// that interruptProcess can reach this child alone.
func operatorAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{CreationFlags: windows.CREATE_NEW_PROCESS_GROUP}
}

// interruptProcess sends CTRL_BREAK_EVENT to the child's process group
// (Go cannot signal another process on Windows; a Go child reads the
// event as os.Interrupt). A child without a console (attachPipes) cannot
// get it: the caller then kills it after the grace period.
func interruptProcess(p *os.Process) error {
	return windows.GenerateConsoleCtrlEvent(windows.CTRL_BREAK_EVENT, uint32(p.Pid))
}
