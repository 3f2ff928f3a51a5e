//go:build unix

package prompttest

import (
	"errors"
	"syscall"
)

const ttyPath = "/dev/tty"

// noTerminal: opening /dev/tty without a controlling terminal is ENXIO.
func noTerminal(err error) bool { return errors.Is(err, syscall.ENXIO) }
