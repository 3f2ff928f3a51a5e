//go:build unix

package prompttest

import (
	"os"
	"syscall"
	"testing"
)

func needPTY(testing.TB) {}

// ttyAttr: a new session whose controlling terminal is descriptor ctty.
func ttyAttr(ctty int) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: ctty}
}

// detachedAttr: a new session without a controlling terminal (Options.Console
// is for Windows only).
func detachedAttr(bool) *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }

// signal sends sig as it is.
func (s *Session) signal(sig os.Signal) error { return s.proc.Signal(sig) }
