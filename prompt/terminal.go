package prompt

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"syscall"
	"time"

	"golang.org/x/term"
)

// ttyPath is the controlling terminal of the calling process.
const ttyPath = "/dev/tty"

// maxLine is larger than any line the kernel's canonical buffer (4096 bytes
// on Linux) returns, so one read always holds one whole line.
const maxLine = 8192

// Terminal is the controlling terminal, opened for questions and answers.
// Its methods ask one question at a time; concurrent calls wait their turn.
type Terminal struct {
	mu         sync.Mutex
	path       string
	f          *os.File
	rc         syscall.RawConn
	transcript io.Writer
	tick       time.Duration
	closed     bool
}

// Option adjusts a Terminal at Open.
type Option func(*Terminal)

// WithTranscript copies everything the prompts show (not the operator's
// keystrokes, not the countdown's in-place updates) to w, for a log.
// Answers are still read only from the terminal.
func WithTranscript(w io.Writer) Option {
	return func(t *Terminal) { t.transcript = w }
}

// Open opens the controlling terminal (/dev/tty) for reading and writing.
// Without one (a cron job, a detached service, an agent's subprocess) it
// returns a *NoTerminalError, which matches ErrNoTerminal.
func Open(opts ...Option) (*Terminal, error) {
	return open(ttyPath, opts...)
}

func open(path string, opts ...Option) (*Terminal, error) {
	// O_NOCTTY: opening a terminal must never make it ours by accident.
	f, err := os.OpenFile(path, os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		return nil, &NoTerminalError{Path: path, Err: err}
	}
	t := &Terminal{path: path, f: f, tick: time.Second}
	for _, o := range opts {
		o(t)
	}
	// SyscallConn, not Fd: Fd would switch the file to blocking mode and
	// read deadlines (expiry, cancellation) would stop working.
	t.rc, err = f.SyscallConn()
	if err != nil {
		f.Close()
		return nil, &NoTerminalError{Path: path, Err: err}
	}
	isTTY := false
	if err := t.rc.Control(func(fd uintptr) { isTTY = term.IsTerminal(int(fd)) }); err != nil {
		f.Close()
		return nil, &NoTerminalError{Path: path, Err: err}
	}
	if !isTTY {
		f.Close()
		return nil, &NoTerminalError{Path: path}
	}
	return t, nil
}

// Close releases the terminal. It is safe to call more than once. It waits
// for a prompt in progress: cancel that prompt's context first.
func (t *Terminal) Close() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return nil
	}
	t.closed = true
	return t.f.Close()
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

// say writes narration to the terminal and the transcript. Callers pass
// text already sanitized.
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

// errNoLine is a read that ended without a line: end of input (Ctrl-D on
// an empty line) or a hangup.
var errNoLine = io.EOF

// readLine reads one canonical line. A zero deadline waits forever. It
// returns *ExpiredError when the deadline passes and ctx.Err() when ctx
// ends; in both cases the pending read is abandoned.
func (t *Terminal) readLine(ctx context.Context, deadline time.Time) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := t.f.SetReadDeadline(deadline); err != nil {
		// Without deadlines neither expiry nor cancellation could be
		// enforced: refuse rather than wait unbounded.
		return nil, fmt.Errorf("%s does not support read deadlines: %w", t.path, err)
	}
	defer t.f.SetReadDeadline(time.Time{})

	cancelled := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		defer close(cancelled)
		_ = t.f.SetReadDeadline(time.Unix(1, 0)) // in the past: wakes Read now
	})
	buf := make([]byte, maxLine)
	n, err := t.f.Read(buf)
	if !stop() {
		<-cancelled
		return nil, ctx.Err()
	}
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded):
		return nil, &ExpiredError{Deadline: deadline}
	case errors.Is(err, io.EOF) || (n == 0 && err == nil):
		return nil, errNoLine
	case errors.Is(err, syscall.EIO):
		// The terminal hung up: no more answers can come.
		return nil, errNoLine
	case err != nil:
		return nil, fmt.Errorf("reading %s: %w", t.path, err)
	}
	return buf[:n], nil
}

// parseLine returns the answer a line holds and whether it is one confirmed
// line: it must end in \n (Enter), which is removed together with a \r just
// before it, and hold no other line break. A line pushed with Ctrl-D
// (no \n) is not confirmed.
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
