//go:build unix

package prompttest

import (
	"os"
	"syscall"

	"golang.org/x/sys/unix"
	"golang.org/x/term"
)

// Serve is for Windows, where Start needs the test binary as the console's
// launcher (start_windows.go); on Unix it does nothing.
func Serve() {}

// ttyAttr: a new session whose controlling terminal is descriptor ctty.
func ttyAttr(ctty int) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: ctty}
}

// detachedAttr: a new session without a controlling terminal (Options.Console
// is for Windows only).
func detachedAttr(bool) *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }

// typeCtrlC: on a Unix terminal a typed 0x03 is the line discipline's
// SIGINT; it is typed as it is.
func (s *Session) typeCtrlC() bool { return false }

// signal sends sig as it is.
func (s *Session) signal(sig os.Signal) error { return s.proc.Signal(sig) }

// makeRaw puts the terminal f in raw mode as a terminal emulator leaves it
// for a program doing its own line handling: bytes pass as typed, nothing
// is echoed, and the line discipline still turns Ctrl-C into SIGINT for
// the foreground process group (ISIG), as on every terminal. Wine's console
// relies on that: it reads a raw 0x03 as a key and raises no Ctrl-C event,
// while the SIGINT reaches the Windows program as CTRL_C_EVENT.
func makeRaw(f *os.File) error {
	fd := int(f.Fd())
	if _, err := term.MakeRaw(fd); err != nil {
		return err
	}
	t, err := unix.IoctlGetTermios(fd, ioctlGetTermios)
	if err != nil {
		return err
	}
	t.Lflag |= unix.ISIG
	return unix.IoctlSetTermios(fd, ioctlSetTermios, t)
}
