package prompt

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// maxLine is larger than any line the kernel's canonical buffer (4096 bytes
// on Linux) returns, so one read always holds one whole line.
const maxLine = 8192

// Terminal is the controlling terminal, opened for questions and answers.
// Its methods ask one question at a time; concurrent calls wait their turn.
type Terminal struct {
	mu         sync.Mutex
	path       string
	f          *os.File // the terminal's output (on Unix also its input)
	sys        sysTerm  // the platform's side: terminal_unix.go, terminal_windows.go
	transcript io.Writer
	ring       bool
	tick       time.Duration
	closed     bool
}

type Option func(*Terminal)

// WithBell rings (BEL) when [A] or a timed phrase is asked: the watchers use it, so a person
// away from the screen hears that they are needed (PROTOCOL#notifications).
func WithBell() Option { return func(t *Terminal) { t.ring = true } }

// WithTranscript copies what the prompts show (not keystrokes, not the countdown) to w, for a
// log. Answers are still read only from the terminal.
func WithTranscript(w io.Writer) Option {
	return func(t *Terminal) { t.transcript = w }
}

// Close releases the terminal, once. It waits for a prompt in progress: cancel its context first.
func (t *Terminal) Close() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return nil
	}
	t.closed = true
	return t.closeSys()
}

// begin takes the terminal for one question and puts it in line mode.
func (t *Terminal) begin() (end func(), err error) {
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		return nil, fmt.Errorf("prompt: %s: %w", t.path, os.ErrClosed)
	}
	restore, err := t.lineMode()
	if err != nil {
		t.mu.Unlock()
		return nil, err
	}
	return func() { restore(); t.mu.Unlock() }, nil
}

// say writes narration, already sanitized, to the terminal and the transcript.
func (t *Terminal) say(format string, args ...any) error {
	s := fmt.Sprintf(format, args...)
	if t.transcript != nil {
		_, _ = io.WriteString(t.transcript, s)
	}
	if _, err := io.WriteString(t.f, s); err != nil {
		return fmt.Errorf("writing to %s: %w", t.path, err)
	}
	return nil
}

// bell rings the terminal only, never the transcript (PROTOCOL#notifications); a failure to
// ring is not an error.
func (t *Terminal) bell() {
	if t.ring {
		_, _ = io.WriteString(t.f, "\a")
	}
}

// errNoLine is a read that ended without a line: end of input (Ctrl-D on
// an empty line) or a hangup.
var errNoLine = io.EOF

// parseLine returns the answer a line holds and whether it is one confirmed line: it must end
// in \n (Enter), removed with a \r just before it, and hold no other line break. A line pushed
// with Ctrl-D (no \n) is not confirmed.
func parseLine(b []byte) (string, bool) {
	b, ok := bytes.CutSuffix(b, []byte("\n"))
	if !ok {
		return "", false
	}
	b, _ = bytes.CutSuffix(b, []byte("\r"))
	if bytes.ContainsAny(b, "\r\n") {
		return "", false
	}
	return string(b), true
}
