package demo

import (
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
