//go:build unix

package prompttest

import (
	"syscall"
	"testing"
)

func needPTY(testing.TB) {}

// ttyAttr: a new session whose controlling terminal is descriptor ctty.
func ttyAttr(ctty int) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: ctty}
}

// detachedAttr: a new session without a controlling terminal.
func detachedAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }
