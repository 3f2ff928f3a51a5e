//go:build unix

package prompttest

import (
	"os"
	"syscall"
)

// Hangup closes the test's end of the child's terminal, as a closed
// terminal window, a killed tmux session or an ssh drop does: the kernel
// sends the child, the session's leader, SIGHUP, and its writes to the
// terminal fail (EIO) from then on. TTY ends there.
func (s *Session) Hangup() {
	s.t.Helper()
	s.needTTY()
	// TTY's reader holds the master open until its read returns (the
	// master is a blocking file): a line written on the terminal's side
	// ends that read, and the master closes then.
	poke, err := os.OpenFile(s.ttyName, os.O_WRONLY|syscall.O_NOCTTY, 0)
	if err != nil {
		s.t.Fatalf("prompttest: opening %s: %v", s.ttyName, err)
	}
	defer poke.Close()
	if err := s.master.Close(); err != nil {
		s.t.Fatalf("prompttest: closing the terminal: %v", err)
	}
	_, _ = poke.Write([]byte("\n"))
}
