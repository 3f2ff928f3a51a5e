//go:build unix

package demo

import (
	"os"
	"syscall"
)

// detachedAttr: a new session without a controlling terminal.
func detachedAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }

// ttyAttr: a new session whose controlling terminal is descriptor 0.
func ttyAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
}

// operatorAttr: the operator's terminal, nothing changed.
func operatorAttr() *syscall.SysProcAttr { return nil }

func interruptProcess(p *os.Process) error { return p.Signal(os.Interrupt) }
