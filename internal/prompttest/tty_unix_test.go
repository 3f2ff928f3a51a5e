//go:build unix

package prompttest

import (
	"errors"
	"io"
	"os"
	"syscall"
	"testing"
)

// lineEnd is what a line read from the terminal ends with.
const lineEnd = "\n"

// openTTY opens the controlling terminal.
func openTTY() (io.ReadWriter, error) { return os.OpenFile("/dev/tty", os.O_RDWR, 0) }

// noTerminal: opening /dev/tty without a controlling terminal is ENXIO.
func noTerminal(err error) bool { return errors.Is(err, syscall.ENXIO) }

func needLineDiscipline(testing.TB) {}
