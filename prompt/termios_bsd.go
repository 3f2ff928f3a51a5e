//go:build darwin || dragonfly || freebsd || netbsd || openbsd

package prompt

import "golang.org/x/sys/unix"

const (
	ioctlGetTermios = unix.TIOCGETA
	ioctlSetTermios = unix.TIOCSETA
	// fread is FREAD from <sys/fcntl.h>, which x/sys/unix does not export.
	fread = 0x1
)

// flushInput discards typed but unread input (tcflush TCIFLUSH).
func flushInput(fd int) error {
	return unix.IoctlSetPointerInt(fd, unix.TIOCFLUSH, fread)
}
