package prompt

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"
	"unicode/utf16"

	"golang.org/x/sys/windows"

	"rfhandoff/errlist"
)

// ttyPath is the console's input. Answers come from it, never from stdin,
// which may be redirected; questions go to its output, conoutPath.
const (
	ttyPath    = "CONIN$"
	conoutPath = "CONOUT$"
)

// sysTerm is the console: its input handle and a reader goroutine. Console reads cannot be
// given a deadline, so one goroutine reads a line when a question asks for one (want), and
// the question waits for it, for its deadline or for its context.
//
// The input is a raw handle read with ReadConsoleW, not an *os.File: an *os.File's Close
// waits for a Read in progress, and a console read ends only when a line is typed, so rx
// approve hung in Close at exit on its reader's next read. Reads are made only for a
// question, and Close does not wait for one left pending by an expired or cancelled question.
//
// A read begun for a question that expired or was cancelled is still pending, and returns the
// whole line: what was typed there would open the next question's line ("AUTHORIZE RF " typed
// at an expired prompt and "TX" at the next make the phrase). So each question is a
// generation (gen, counted by discardTypeAhead), each read carries the one it was asked for,
// and a line begun at an earlier one is dropped and the operator asked to type it again.
type sysTerm struct {
	in      windows.Handle
	lines   chan lineRead
	want    chan uint64   // a question asks the reader for a line (its gen)
	quit    chan struct{} // closed by Close: the reader stops
	start   chan struct{} // closed once the reader runs
	reading bool          // a line was asked for and not yet taken (under Terminal.mu)
	gen     uint64        // the current question (under Terminal.mu)
}

type lineRead struct {
	b   []byte
	err error
	gen uint64 // the question the read was asked for
}

// Open opens the console (CONIN$ and CONOUT$). Without one (a service, a Task Scheduler job,
// a process started detached, an agent's pipe) it returns an error matching ErrNoTerminal.
func Open(opts ...Option) (*Terminal, error) {
	return open(ttyPath, opts...)
}

func open(path string, opts ...Option) (*Terminal, error) {
	in, err := openConsole(path)
	if err != nil {
		return nil, err
	}
	out, err := openConsole(conoutPath)
	if err != nil {
		windows.CloseHandle(in)
		return nil, err
	}
	t := &Terminal{path: path, f: os.NewFile(uintptr(out), conoutPath), tick: time.Second}
	t.sys = sysTerm{in: in, lines: make(chan lineRead), want: make(chan uint64, 1),
		quit: make(chan struct{}), start: make(chan struct{})}
	for _, o := range opts {
		o(t)
	}
	return t, nil
}

// openConsole opens a console device and checks it is one: NUL, a file or
// a pipe has no console mode.
func openConsole(path string) (windows.Handle, error) {
	p, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return 0, &noTerminalError{Path: path, Err: err}
	}
	h, err := windows.CreateFile(p, windows.GENERIC_READ|windows.GENERIC_WRITE,
		windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE, nil, windows.OPEN_EXISTING, 0, 0)
	if err != nil {
		return 0, &noTerminalError{Path: path, Err: err}
	}
	var mode uint32
	if err := windows.GetConsoleMode(h, &mode); err != nil {
		windows.CloseHandle(h)
		return 0, &noTerminalError{Path: path}
	}
	return h, nil
}

func (t *Terminal) closeSys() error {
	// Not waiting for a read in progress (see sysTerm): the reader is told
	// to stop, its pending read is cancelled where the console allows it,
	// and the handle is closed under it.
	close(t.sys.quit)
	_ = windows.CancelIoEx(t.sys.in, nil)
	return errlist.Join(windows.CloseHandle(t.sys.in), t.f.Close())
}

// lineMode puts the console into the mode the prompts rely on, whatever an earlier program
// left: line input, echo, Ctrl-C processed by the system, and escape sequences interpreted on
// output (the countdown). It returns a function restoring the previous modes.
func (t *Terminal) lineMode() (restore func(), err error) {
	in, out := t.sys.in, windows.Handle(t.f.Fd())
	var oldIn, oldOut uint32
	if err := windows.GetConsoleMode(in, &oldIn); err != nil {
		return func() {}, fmt.Errorf("setting line mode on %s: %w", t.path, err)
	}
	if err := windows.GetConsoleMode(out, &oldOut); err != nil {
		return func() {}, fmt.Errorf("setting line mode on %s: %w", conoutPath, err)
	}
	wantIn := oldIn | windows.ENABLE_LINE_INPUT | windows.ENABLE_ECHO_INPUT | windows.ENABLE_PROCESSED_INPUT
	if wantIn != oldIn {
		if err := windows.SetConsoleMode(in, wantIn); err != nil {
			return func() {}, fmt.Errorf("setting line mode on %s: %w", t.path, err)
		}
	}
	// Best effort: a console without escape sequences (before Windows 10)
	// shows the countdown as text, which is ugly but loses nothing.
	wantOut := oldOut | windows.ENABLE_PROCESSED_OUTPUT | windows.ENABLE_VIRTUAL_TERMINAL_PROCESSING
	if wantOut != oldOut && windows.SetConsoleMode(out, wantOut) != nil {
		wantOut = oldOut
	}
	return func() {
		if wantIn != oldIn {
			_ = windows.SetConsoleMode(in, oldIn)
		}
		if wantOut != oldOut {
			_ = windows.SetConsoleMode(out, oldOut)
		}
	}, nil
}

// discardTypeAhead drops input typed before the question is shown: what
// the console holds, a line the reader already took, and (by starting a new
// generation) the line of a read still pending from an earlier question.
func (t *Terminal) discardTypeAhead() error {
	t.sys.gen++
	if err := windows.FlushConsoleInputBuffer(t.sys.in); err != nil {
		return fmt.Errorf("discarding type-ahead on %s: %w", t.path, err)
	}
	select {
	case <-t.sys.lines:
		t.sys.reading = false
	default:
	}
	return nil
}

func (t *Terminal) reader() {
	for {
		var gen uint64
		select {
		case gen = <-t.sys.want:
		case <-t.sys.quit:
			return
		}
		b, err := readConsoleLine(t.sys.in)
		select {
		case t.sys.lines <- lineRead{b: b, err: err, gen: gen}:
		case <-t.sys.quit:
			return
		}
		if err != nil {
			return
		}
	}
}

// readConsoleLine reads one line (line input mode) as UTF-8. Ctrl-Z at
// the start of the line is the end of input, as for os.Stdin.
func readConsoleLine(h windows.Handle) ([]byte, error) {
	buf := make([]uint16, maxLine)
	var n uint32
	if err := windows.ReadConsole(h, &buf[0], uint32(len(buf)), &n, nil); err != nil {
		return nil, err
	}
	if n > 0 && buf[0] == 0x1a {
		return nil, io.EOF
	}
	return []byte(string(utf16.Decode(buf[:n]))), nil
}

// readLine reads one line before deadline (zero: forever); at the deadline or when ctx ends
// the pending read is left to the reader, whose line is dropped as type-ahead.
func (t *Terminal) readLine(ctx context.Context, deadline time.Time) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	select {
	case <-t.sys.start:
	default:
		close(t.sys.start)
		go t.reader()
	}
	var expire <-chan time.Time
	if !deadline.IsZero() {
		tm := time.NewTimer(time.Until(deadline))
		defer tm.Stop()
		expire = tm.C
	}
	for {
		if !t.sys.reading {
			t.sys.reading = true
			t.sys.want <- t.sys.gen
		}
		var r lineRead
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-expire:
			return nil, &expiredError{Deadline: deadline}
		case r = <-t.sys.lines:
		}
		t.sys.reading = false
		if r.gen != t.sys.gen && r.err == nil {
			if err := t.say("\nThat line was begun at an earlier question and is dropped: type it again.\n> "); err != nil {
				return nil, err
			}
			continue
		}
		switch {
		case errors.Is(r.err, io.EOF) || (len(r.b) == 0 && r.err == nil):
			// Ctrl-Z Enter, or the console went away.
			return nil, errNoLine
		case r.err != nil:
			return nil, fmt.Errorf("reading %s: %w", t.path, r.err)
		}
		return r.b, nil
	}
}
