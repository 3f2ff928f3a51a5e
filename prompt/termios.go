//go:build unix

package prompt

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// lineMode puts the terminal into the mode the prompts rely on, whatever an earlier program
// left behind: canonical input, echo, signals (Ctrl-C still stops us), CR mapped to NL and NL
// written as CRLF. It returns a function restoring the previous settings.
func (t *Terminal) lineMode() (restore func(), err error) {
	var old *unix.Termios
	cerr := t.sys.rc.Control(func(fd uintptr) {
		old, err = unix.IoctlGetTermios(int(fd), ioctlGetTermios)
		if err != nil {
			return
		}
		want := *old
		want.Lflag |= unix.ICANON | unix.ECHO | unix.ISIG
		want.Iflag |= unix.ICRNL
		want.Iflag &^= unix.INLCR | unix.IGNCR
		want.Oflag |= unix.OPOST | unix.ONLCR
		if want == *old {
			old = nil
			return
		}
		err = unix.IoctlSetTermios(int(fd), ioctlSetTermios, &want)
	})
	if cerr != nil {
		err = cerr
	}
	if err != nil {
		return func() {}, fmt.Errorf("setting line mode on %s: %w", t.path, err)
	}
	if old == nil {
		return func() {}, nil
	}
	return func() {
		_ = t.sys.rc.Control(func(fd uintptr) {
			_ = unix.IoctlSetTermios(int(fd), ioctlSetTermios, old)
		})
	}, nil
}

func (t *Terminal) discardTypeAhead() error {
	var err error
	cerr := t.sys.rc.Control(func(fd uintptr) { err = flushInput(int(fd)) })
	if cerr != nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("discarding type-ahead on %s: %w", t.path, err)
	}
	return nil
}
