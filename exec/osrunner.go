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
	"sync/atomic"
	"syscall"
	"time"
)

// osRunner is the only implementation that starts processes, each the root
// of its own process tree (procTree).
type osRunner struct {
	environ   []string
	timeout   time.Duration
	grace     time.Duration
	maxOutput int64
}

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
	tree     procTree
}

func (r *osRunner) start(ctx context.Context, path string, c Cmd, timeout time.Duration) (*started, error) {
	// Before the timeout starts: a timed-out call never reports less.
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
	cmd.Env = buildEnv(r.environ, c.Env)
	cmd.Stdin = c.Stdin
	cmd.SysProcAttr = sysProcAttr(c.Tool)
	setParentDeathSignal(cmd.SysProcAttr)
	s := &started{cmd: cmd, tool: c.Tool, argv: cmd.Args, secrets: c.Secrets, timeout: timeout, cancel: cancel, ctx: ctx, start: begin}
	// Interrupt first: hackrf_transfer and git both clean up on it.
	// WaitDelay later kills the leader; the whole tree is killed after.
	cmd.Cancel = func() error { return s.tree.interrupt() }
	cmd.WaitDelay = r.grace
	s.counter = &countWriter{}
	s.stderr = &tailWriter{max: stderrTailBytes}
	stdout := c.Stdout
	if stdout == nil {
		s.stdout = &capWriter{max: positiveOr(c.MaxOutput, r.maxOutput), onOverflow: cancel}
		stdout = s.stdout
	}
	cmd.Stdout = io.MultiWriter(stdout, s.counter)
	cmd.Stderr = io.MultiWriter(s.stderr, s.counter)
	if c.Stderr != nil {
		cmd.Stderr = io.MultiWriter(c.Stderr, s.stderr, s.counter)
	}
	// cmd.Cancel may run as soon as the process exists: the tree is
	// locked until it is complete (on Windows: in its Job Object).
	s.tree.mu.Lock()
	err := startOnStableThread(cmd)
	if err == nil {
		err = s.tree.adopt(cmd.Process, cmd.SysProcAttr)
		if err != nil {
			_ = cmd.Process.Kill()
			s.tree.mu.Unlock()
			_ = cmd.Wait()
			cancel()
			return nil, err
		}
	}
	s.tree.mu.Unlock()
	if err != nil {
		cancel()
		return nil, err
	}
	return s, nil
}

func (s *started) Pid() int { return s.cmd.Process.Pid }

func (s *started) Interrupt() error { return s.tree.interrupt() }

func (s *started) Wait() (Result, error) {
	s.waitOnce.Do(func() { s.res, s.err = s.wait() })
	return s.res, s.err
}

func (s *started) wait() (Result, error) {
	werr := s.cmd.Wait()
	cancelled := s.ctx.Err()
	// Once cancelled, grandchildren (ssh, git-remote-https) die too.
	if cancelled != nil {
		_ = s.tree.kill()
	}
	s.tree.release()
	s.cancel()
	res := Result{
		Path:     s.argv[0],
		Argv:     s.argv,
		Pid:      s.cmd.Process.Pid,
		Stderr:   s.stderr.Bytes(),
		Duration: time.Since(s.start),
		OutBytes: s.counter.n.Load(),
	}
	if s.stdout != nil {
		res.Stdout = s.stdout.buf.Bytes()
	}
	res.ExitCode, res.Signal = exitStatus(s.cmd.ProcessState)
	red, stderr := Redact(s.argv, s.secrets), redactString(string(res.Stderr), s.secrets)
	exit := &ExitError{Tool: s.tool, Argv: red, Code: res.ExitCode, Signal: res.Signal, StderrTail: stderr}
	switch {
	case s.stdout != nil && s.stdout.overflow:
		return res, &outputLimitError{Tool: s.tool, Argv: red, Limit: s.stdout.max}
	// A killed child's exit code can be 0 (seen under Wine); os/exec's
	// ctx error then says the timeout ended it.
	case cancelled == context.DeadlineExceeded && s.timeout > 0 && (res.ExitCode != 0 || errors.Is(werr, context.DeadlineExceeded)):
		return res, &timeoutError{Tool: s.tool, Argv: red, After: s.timeout, StderrTail: stderr}
	case cancelled != nil && res.ExitCode != 0:
		return res, fmt.Errorf("%w (%w)", exit, cancelled)
	}
	var ee *osexec.ExitError
	if werr != nil && !errors.As(werr, &ee) && !errors.Is(werr, osexec.ErrWaitDelay) {
		return res, werr
	}
	if res.ExitCode != 0 {
		return res, exit
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

type countWriter struct{ n atomic.Int64 }

func (w *countWriter) Write(p []byte) (int, error) {
	w.n.Add(int64(len(p)))
	return len(p), nil
}
