//go:build aix || linux || solaris

package prompttest

import "golang.org/x/sys/unix"

// The ioctls that read and write a terminal's settings here.
const (
	ioctlGetTermios = unix.TCGETS
	ioctlSetTermios = unix.TCSETS
)
