package exec

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	osexec "os/exec"
	"sync"
	"syscall"
	"time"
)

// osRunner is the only implementation that starts processes. It runs an
// already-resolved absolute path in its own session (and so its own
// process group).
type osRunner struct {
	environ   []string
	timeout   time.Duration
	grace     time.Duration
	maxOutput int64
}

// started is a running child with its bookkeeping.
type started struct {
	cmd      *osexec.Cmd
	tool     Tool
	argv     []string
	secrets  []string
	start    time.Time
	timeout  time.Duration
	stdout   *capWriter
	stderr   *tailWriter
	counter  *countWriter
	cancel   context.CancelFunc
	ctx      context.Context
	waitOnce sync.Once
	res      Result
	err      error
}

func (r *osRunner) start(ctx context.Context, path string, c Cmd, timeout time.Duration) (*started, error) {
	// The duration is measured from before the timeout starts, so a call
	// that timed out never reports less than its timeout.
	begin := time.Now()
	var cancel context.CancelFunc
	if timeout > 0 {
		ctx, cancel = context.WithTimeout(ctx, timeout)
	} else {
		ctx, cancel = context.WithCancel(ctx)
	}
	cmd := osexec.CommandContext(ctx, path, c.Args...)
	cmd.Args[0] = path
	cmd.Dir = c.Dir
	cmd.Env = BuildEnv(r.environ, c.Env)
	cmd.Stdin = c.Stdin
	// Every child starts a new session: it has no controlling terminal, so
	// ssh under git cannot open /dev/tty to ask for a passphrase or a host
	// key from a background group (it would be stopped, and the operator
	// would see nothing): it fails at once. No child needs a terminal
	// (hackrf_transfer neither), and prompts are rfhandoff's own. A session
	// leader is also its group's leader, so signalGroup(-pid) still works.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	// SIGINT to the child when rfhandoff dies (Linux; see spawn_linux.go).
	setParentDeathSignal(cmd.SysProcAttr)
	// Interrupt first, as Ctrl-C would: hackrf_transfer and git both clean up
	// on SIGINT. WaitDelay later kills the leader; the group is killed after.
	cmd.Cancel = func() error { return signalGroup(cmd.Process, syscall.SIGINT) }
	cmd.WaitDelay = r.grace

	s := &started{cmd: cmd, tool: c.Tool, argv: cmd.Args, secrets: c.Secrets, timeout: timeout, cancel: cancel, ctx: ctx}
	s.counter = &countWriter{}
	s.stderr = &tailWriter{max: StderrTailBytes}
	limit := c.MaxOutput
	if limit <= 0 {
		limit = r.maxOutput
	}
	if c.Stdout != nil {
		cmd.Stdout = io.MultiWriter(c.Stdout, s.counter)
	} else {
		s.stdout = &capWriter{max: limit, onOverflow: cancel}
		cmd.Stdout = io.MultiWriter(s.stdout, s.counter)
	}
	if c.Stderr != nil {
		cmd.Stderr = io.MultiWriter(c.Stderr, s.stderr, s.counter)
	} else {
		cmd.Stderr = io.MultiWriter(s.stderr, s.counter)
	}
	s.start = begin
	if err := startOnStableThread(cmd); err != nil {
		cancel()
		return nil, err
	}
	return s, nil
}

func (s *started) Pid() int { return s.cmd.Process.Pid }

func (s *started) Interrupt() error { return signalGroup(s.cmd.Process, syscall.SIGINT) }

func (s *started) Wait() (Result, error) {
	s.waitOnce.Do(func() { s.res, s.err = s.wait() })
	return s.res, s.err
}

func (s *started) wait() (Result, error) {
	werr := s.cmd.Wait()
	cancelled := s.ctx.Err()
	// Whatever the leader did, nothing of its group outlives it once it was
	// cancelled: grandchildren (ssh, git-remote-https) are killed too.
	if cancelled != nil {
		_ = signalGroup(s.cmd.Process, syscall.SIGKILL)
	}
	s.cancel()
	res := Result{
		Path:     s.argv[0],
		Argv:     s.argv,
		Pid:      s.cmd.Process.Pid,
		Stderr:   s.stderr.Bytes(),
		Duration: time.Since(s.start),
		OutBytes: s.counter.n,
	}
	if s.stdout != nil {
		res.Stdout = s.stdout.buf.Bytes()
	}
	res.ExitCode, res.Signal = exitStatus(s.cmd.ProcessState)
	red := Redact(s.argv, s.secrets)
	switch {
	case s.stdout != nil && s.stdout.overflow:
		return res, &OutputLimitError{Tool: s.tool, Argv: red, Limit: s.stdout.max}
	case cancelled == context.DeadlineExceeded && s.timeout > 0 && res.ExitCode != 0:
		return res, &TimeoutError{Tool: s.tool, Argv: red, After: s.timeout, StderrTail: redactString(string(res.Stderr), s.secrets)}
	case cancelled != nil && res.ExitCode != 0:
		// The caller's context ended (Ctrl-C, shutdown): both the exit and
		// the cancellation stay visible to errors.As / errors.Is.
		return res, fmt.Errorf("%w (%w)", &ExitError{Tool: s.tool, Argv: red, Code: res.ExitCode, Signal: res.Signal,
			StderrTail: redactString(string(res.Stderr), s.secrets)}, cancelled)
	}
	var ee *osexec.ExitError
	if werr != nil && !errors.As(werr, &ee) && !errors.Is(werr, osexec.ErrWaitDelay) {
		return res, werr
	}
	if res.ExitCode != 0 {
		return res, &ExitError{Tool: s.tool, Argv: red, Code: res.ExitCode, Signal: res.Signal,
			StderrTail: redactString(string(res.Stderr), s.secrets)}
	}
	return res, nil
}

func exitStatus(ps *os.ProcessState) (int, string) {
	if ps == nil {
		return -1, ""
	}
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return -1, ws.Signal().String()
	}
	return ps.ExitCode(), ""
}

func signalGroup(p *os.Process, sig syscall.Signal) error {
	if p == nil {
		return nil
	}
	// The child leads its own session and group (Setsid), so -pid is its group.
	err := syscall.Kill(-p.Pid, sig)
	if errors.Is(err, syscall.ESRCH) {
		return os.ErrProcessDone
	}
	return err
}

// capWriter keeps at most max bytes and calls onOverflow once past that.
type capWriter struct {
	buf        bytes.Buffer
	max        int64
	overflow   bool
	onOverflow func()
}

func (w *capWriter) Write(p []byte) (int, error) {
	if w.overflow {
		return len(p), nil
	}
	if int64(w.buf.Len()+len(p)) > w.max {
		w.overflow = true
		w.onOverflow()
		return len(p), nil
	}
	return w.buf.Write(p)
}

// tailWriter keeps the last max bytes written.
type tailWriter struct {
	mu  sync.Mutex
	buf []byte
	max int
}

func (w *tailWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = append(w.buf, p...)
	if len(w.buf) > w.max {
		w.buf = append([]byte(nil), w.buf[len(w.buf)-w.max:]...)
	}
	return len(p), nil
}

func (w *tailWriter) Bytes() []byte {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]byte(nil), w.buf...)
}

type countWriter struct {
	mu sync.Mutex
	n  int64
}

func (w *countWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	w.n += int64(len(p))
	w.mu.Unlock()
	return len(p), nil
}
