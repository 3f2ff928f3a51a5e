package prompt

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"golang.org/x/sys/windows"

	"rfhandoff/errlist"
)

// ttyPath is the console's input. Answers come from it, never from stdin,
// which may be redirected; questions go to its output, conoutPath.
const (
	ttyPath    = "CONIN$"
	conoutPath = "CONOUT$"
)

// sysTerm is the console: its input handle and a reader goroutine. Console
// reads cannot be given a deadline, so one goroutine reads lines and a
// question waits for the next one, for its deadline or for its context;
// a line that arrives when no question waits is type-ahead and dropped.
type sysTerm struct {
	in    *os.File
	lines chan lineRead
	start chan struct{} // closed once the reader runs
}

type lineRead struct {
	b   []byte
	err error
}

// Open opens the console (CONIN$ and CONOUT$). Without one (a service, a
// Task Scheduler job, a process started detached, an agent's pipe) it
// returns a *NoTerminalError, which matches ErrNoTerminal.
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
		in.Close()
		return nil, err
	}
	t := &Terminal{path: path, f: out, tick: time.Second}
	t.sys = sysTerm{in: in, lines: make(chan lineRead), start: make(chan struct{})}
	for _, o := range opts {
		o(t)
	}
	return t, nil
}

// openConsole opens a console device and checks it is one: NUL, a file or
// a pipe has no console mode.
func openConsole(path string) (*os.File, error) {
	p, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return nil, &NoTerminalError{Path: path, Err: err}
	}
	h, err := windows.CreateFile(p, windows.GENERIC_READ|windows.GENERIC_WRITE,
		windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE, nil, windows.OPEN_EXISTING, 0, 0)
	if err != nil {
		return nil, &NoTerminalError{Path: path, Err: err}
	}
	var mode uint32
	if err := windows.GetConsoleMode(h, &mode); err != nil {
		windows.CloseHandle(h)
		return nil, &NoTerminalError{Path: path}
	}
	return os.NewFile(uintptr(h), path), nil
}

func (t *Terminal) closeSys() error {
	// A reader blocked in ReadConsole fails once its handle is closed.
	return errlist.Join(t.sys.in.Close(), t.f.Close())
}

// lineMode puts the console into the mode the prompts rely on, whatever an
// earlier program left: line input (Enter ends the line, the console
// handles editing), echo, Ctrl-C processed by the system, and escape
// sequences interpreted on output (the countdown). It returns a function
// restoring the previous modes.
func (t *Terminal) lineMode() (restore func(), err error) {
	in, out := windows.Handle(t.sys.in.Fd()), windows.Handle(t.f.Fd())
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
// the console holds and a line the reader already took.
func (t *Terminal) discardTypeAhead() error {
	if err := windows.FlushConsoleInputBuffer(windows.Handle(t.sys.in.Fd())); err != nil {
		return fmt.Errorf("discarding type-ahead on %s: %w", t.path, err)
	}
	select {
	case <-t.sys.lines:
	default:
	}
	return nil
}

// reader reads lines for as long as the console is open. A line is handed
// over only to a question waiting for it.
func (t *Terminal) reader() {
	for {
		buf := make([]byte, maxLine)
		n, err := t.sys.in.Read(buf)
		t.sys.lines <- lineRead{b: buf[:n], err: err}
		if err != nil {
			return
		}
	}
}

// readLine reads one line. A zero deadline waits forever. It returns
// *ExpiredError when the deadline passes and ctx.Err() when ctx ends; in
// both cases the pending read is left to the reader, whose line goes to
// the next question or is dropped as type-ahead.
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
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-expire:
		return nil, &ExpiredError{Deadline: deadline}
	case r := <-t.sys.lines:
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
