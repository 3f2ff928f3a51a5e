//go:build unix

package prompttest

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"testing"
	"time"
)

// lineEnd is what a line read from the terminal ends with.
const lineEnd = "\n"

// openTTY opens the controlling terminal.
func openTTY() (io.ReadWriter, error) { return os.OpenFile("/dev/tty", os.O_RDWR, 0) }

// noTerminal: opening /dev/tty without a controlling terminal is ENXIO.
func noTerminal(err error) bool { return errors.Is(err, syscall.ENXIO) }

func needLineDiscipline(testing.TB) {}

// childHangup waits for SIGHUP (at most long), then writes to the
// terminal and prints on stdout what the write returned.
func childHangup(tty io.Writer) int {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGHUP)
	fmt.Fprint(tty, "ready\n")
	select {
	case <-sig:
	case <-time.After(long):
		fmt.Print("no SIGHUP")
		return 1
	}
	_, err := fmt.Fprint(tty, "after\n")
	fmt.Printf("SIGHUP; write: %v", err)
	return 0
}

// TestHangupIsALostTerminal: Hangup gives the child SIGHUP and makes its
// writes to the terminal fail, as a closed window or an ssh drop does.
func TestHangupIsALostTerminal(t *testing.T) {
	t.Parallel()
	s := start(t, "hangup", false)
	s.TTY.WaitForText("ready", long)
	s.Hangup()
	if st := s.Wait(long); st.ExitCode() != 0 {
		t.Fatalf("exit %d, stdout %q", st.ExitCode(), s.Stdout.String())
	}
	if got := s.Stdout.String(); !strings.HasPrefix(got, "SIGHUP; write: ") || !strings.Contains(got, syscall.EIO.Error()) {
		t.Errorf("stdout %q, want SIGHUP and then a write failing with EIO", got)
	}
}
