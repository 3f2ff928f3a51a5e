//go:build unix

package prompt

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
	"time"

	"golang.org/x/term"
)

const ttyPath = "/dev/tty" // the controlling terminal of the calling process

// sysTerm is the raw descriptor of /dev/tty, for termios calls.
type sysTerm struct {
	rc syscall.RawConn
}

// Open opens the controlling terminal (/dev/tty). Without one (a cron job, a detached
// service, an agent's subprocess) it returns an error matching ErrNoTerminal.
func Open(opts ...Option) (*Terminal, error) {
	return open(ttyPath, opts...)
}

func open(path string, opts ...Option) (*Terminal, error) {
	// O_NOCTTY: opening a terminal must never make it ours by accident.
	f, err := os.OpenFile(path, os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		return nil, &noTerminalError{Path: path, Err: err}
	}
	t := &Terminal{path: path, f: f, tick: time.Second}
	for _, o := range opts {
		o(t)
	}
	// SyscallConn, not Fd: Fd would switch the file to blocking mode and
	// read deadlines (expiry, cancellation) would stop working.
	t.sys.rc, err = f.SyscallConn()
	isTTY := false
	if err == nil {
		err = t.sys.rc.Control(func(fd uintptr) { isTTY = term.IsTerminal(int(fd)) })
	}
	if err != nil || !isTTY { // Err nil: it is not a terminal
		f.Close()
		return nil, &noTerminalError{Path: path, Err: err}
	}
	return t, nil
}

func (t *Terminal) closeSys() error { return t.f.Close() }

// readLine reads one canonical line before deadline (zero: forever); at the deadline or when
// ctx ends the pending read is abandoned.
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
		return nil, &expiredError{Deadline: deadline}
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
