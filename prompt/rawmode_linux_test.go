package prompt_test

import (
	"os"
	"testing"

	"golang.org/x/sys/unix"
	"golang.org/x/term"

	"rfhandoff/prompt"
)

// makeRaw puts the controlling terminal in raw mode through a descriptor of
// its own (terminal modes belong to the terminal, not the descriptor).
func makeRaw() (restore func(), stillRaw func() bool, err error) {
	f, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		return nil, nil, err
	}
	fd := int(f.Fd())
	old, err := term.MakeRaw(fd)
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	restore = func() { _ = term.Restore(fd, old); f.Close() }
	stillRaw = func() bool {
		tio, err := unix.IoctlGetTermios(fd, unix.TCGETS)
		return err == nil && tio.Lflag&(unix.ICANON|unix.ECHO) == 0 && tio.Iflag&unix.ICRNL == 0
	}
	return restore, stillRaw, nil
}

func TestApproveFromRawModeTerminal(t *testing.T) {
	s := startHelper(t, "approve", "RAW=1")
	s.WaitForText(prompt.Menu, waitLong)
	s.Type("A\r") // Enter on a terminal sends CR
	got := oneOutcome(t, s)
	if got.Choice != "approve" || got.Err != "" {
		t.Fatalf("got %+v, want approve", got)
	}
	if !got.RawAfter {
		t.Errorf("the terminal's raw mode was not restored after the prompt")
	}
}
