package prompttest

import (
	"io"
	"os"
	"testing"
)

// lineEnd: a console's line input ends with CR LF.
const lineEnd = "\r\n"

// openTTY opens the console: CONIN$ to read, CONOUT$ to write.
func openTTY() (io.ReadWriter, error) {
	in, err := os.OpenFile("CONIN$", os.O_RDWR, 0)
	if err != nil {
		return nil, err
	}
	out, err := os.OpenFile("CONOUT$", os.O_RDWR, 0)
	if err != nil {
		in.Close()
		return nil, err
	}
	return struct {
		io.Reader
		io.Writer
	}{in, out}, nil
}

// noTerminal: without a console there is no CONIN$ to open.
func noTerminal(err error) bool { return err != nil }

// needLineDiscipline: Options.Raw is the Unix line discipline's (a console
// has modes of its own, which the child sets).
func needLineDiscipline(t testing.TB) {
	t.Helper()
	t.Skip("prompttest: Options.Raw is a Unix terminal's line discipline; a Windows console has none")
}

// childHangup: Windows has no SIGHUP (Session.Hangup is Unix only).
func childHangup(io.Writer) int { return 2 }
