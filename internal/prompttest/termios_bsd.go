//go:build darwin || dragonfly || freebsd || netbsd || openbsd

package prompttest

import "golang.org/x/sys/unix"

// The ioctls that read and write a terminal's settings here.
const (
	ioctlGetTermios = unix.TIOCGETA
	ioctlSetTermios = unix.TIOCSETA
)
