package prompttest

import (
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Options shape the child process.
type Options struct {
	Dir string
	// Env is the child's whole environment; nil means os.Environ().
	Env []string
	// CaptureOutput sends stdout and stderr to pipes, read through
	// Session.Stdout and Session.Stderr, instead of to the terminal.
	// StartDetached always captures them.
	CaptureOutput bool
	// PipeStdin makes standard input a pipe holding Stdin (then closed)
	// instead of the terminal. StartDetached always pipes stdin.
	PipeStdin bool
	Stdin     string
	// HoldStdin keeps the stdin pipe open after Stdin is written, until
	// Session.CloseStdin: the end of input then comes when the test says,
	// not at once.
	HoldStdin bool
	// Rows and Cols size the terminal; 0 means 24 and 80 (on Windows 24
	// and 250: the pseudo-console renders its screen, so a line wider than
	// it reaches the test broken in two).
	Rows, Cols uint16
	// Raw puts the terminal in raw mode before the child starts, as a
	// terminal emulator leaves it for a program that does its own line
	// handling (a Windows console program under Wine): no line
	// discipline between the test and the child but Ctrl-C (Type("\x03")
	// is SIGINT to the terminal's foreground process group, as on any
	// terminal; Wine's console stops a program only through it), and Send
	// types Enter as CR, the key's own byte. In the default cooked mode the
	// kernel turns Enter into LF, which Wine's console echoes as ^J without
	// ending the line.
	Raw bool
	// Console, for StartDetached on Windows, gives the child a console of
	// its own that nobody types in (CREATE_NEW_CONSOLE) instead of none, so
	// that Signal can stop it as Ctrl-C does: Windows delivers Ctrl-C only
	// through a console. The child then has a terminal (CONIN$ opens), so
	// only a scenario in which it would prompt for nothing may set it. On
	// Unix it changes nothing: a child without a terminal takes signals.
	Console bool
}

// Session is a running child process and the test's ends of its terminal
// and pipes. It is stopped (killed, if still running) when the test ends.
type Session struct {
	t    testing.TB
	proc *os.Process
	path string // the program run

	// TTY is what the child writes to its terminal (prompts, echoed keys);
	// nil for StartDetached.
	TTY *Stream
	// Stdout and Stderr are the captured outputs; nil when they go to the
	// terminal.
	Stdout, Stderr *Stream

	master    *os.File // pty master; nil when detached
	ttyName   string   // the pty's terminal side (Unix), for Hangup
	enter     string   // what Send types for Enter
	stdinRead *os.File // our copy of the stdin pipe's read end, for StdinLeft
	// stdinClose ends the held stdin (Options.HoldStdin); nil otherwise.
	stdinClose func()
	console    bool // Options.Console: a console of its own (Windows), for Signal

	exited chan struct{}
	state  *os.ProcessState
}

// drainTimeout bounds the wait for a child's outputs to end after it exited
// (a grandchild could still hold them open).
const drainTimeout = 10 * time.Second

// Start runs path with args on a fresh terminal of its own: on Unix a
// pseudo-terminal that is its controlling terminal (/dev/tty in the child),
// on Windows a pseudo-console (ConPTY) that is its console (CONIN$,
// CONOUT$; start_windows.go). path is not looked up in PATH.
func Start(t testing.TB, path string, args []string, opts Options) *Session {
	t.Helper()
	return startTerminal(t, path, args, opts)
}

// StartDetached runs path with args in a new session with no controlling
// terminal (on Windows: no console), stdin a pipe holding opts.Stdin, stdout and stderr captured:
// how cron, a service manager or an agent would run it.
func StartDetached(t testing.TB, path string, args []string, opts Options) *Session {
	t.Helper()
	s := &Session{t: t, exited: make(chan struct{})}
	var closeAfter []*os.File
	stdin := s.stdinPipe(opts.Stdin, opts.HoldStdin)
	closeAfter = append(closeAfter, stdin)
	stdout, stderr := s.capture(&closeAfter)
	s.console = opts.Console
	s.start(path, args, opts, []*os.File{stdin, stdout, stderr}, detachedAttr(opts.Console), closeAfter)
	return s
}

func (s *Session) start(path string, args []string, opts Options, files []*os.File, sys *syscall.SysProcAttr, closeAfter []*os.File) {
	s.t.Helper()
	env := opts.Env
	if env == nil {
		env = os.Environ()
	}
	proc, err := os.StartProcess(path, append([]string{path}, args...), &os.ProcAttr{
		Dir: opts.Dir, Env: env, Files: files, Sys: sys,
	})
	for _, f := range closeAfter {
		if f != s.stdinRead {
			f.Close()
		}
	}
	if err != nil {
		s.closeParentEnds()
		s.t.Fatalf("prompttest: starting %s: %v", path, err)
	}
	s.proc, s.path = proc, path
	go func() {
		s.state, _ = proc.Wait()
		close(s.exited)
	}()
	s.t.Cleanup(s.stop)
}

// stdinPipe returns the child's stdin: a pipe already holding data, its
// write end closed once the data is in (or, with hold, at CloseStdin).
func (s *Session) stdinPipe(data string, hold bool) *os.File {
	s.t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		s.t.Fatalf("prompttest: stdin pipe: %v", err)
	}
	s.stdinRead = r
	written := make(chan struct{})
	go func() {
		_, _ = io.WriteString(w, data)
		close(written)
		if !hold {
			w.Close()
		}
	}()
	if hold {
		var once sync.Once
		s.stdinClose = func() { once.Do(func() { <-written; w.Close() }) }
	}
	return r
}

// CloseStdin ends the child's held standard input (Options.HoldStdin).
func (s *Session) CloseStdin() {
	if s.stdinClose == nil {
		s.t.Fatalf("prompttest: CloseStdin without Options.HoldStdin")
	}
	s.stdinClose()
}

// capture returns the write ends of two pipes for stdout and stderr and
// starts collecting from their read ends.
func (s *Session) capture(closeAfter *[]*os.File) (stdout, stderr *os.File) {
	s.t.Helper()
	outR, outW, err := os.Pipe()
	if err != nil {
		s.t.Fatalf("prompttest: stdout pipe: %v", err)
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		s.t.Fatalf("prompttest: stderr pipe: %v", err)
	}
	*closeAfter = append(*closeAfter, outW, errW)
	s.Stdout = newStream(s.t, "stdout", outR)
	s.Stderr = newStream(s.t, "stderr", errR)
	return outW, errW
}

// Pid is the child's process ID.
func (s *Session) Pid() int { return s.proc.Pid }

// WaitFor waits for re on the terminal; see Stream.WaitFor.
func (s *Session) WaitFor(re *regexp.Regexp, timeout time.Duration) []string {
	s.t.Helper()
	s.needTTY()
	return s.TTY.WaitFor(re, timeout)
}

// WaitForText waits for literal text on the terminal.
func (s *Session) WaitForText(text string, timeout time.Duration) {
	s.t.Helper()
	s.needTTY()
	s.TTY.WaitForText(text, timeout)
}

// Send types line and Enter on the terminal (LF; CR when Options.Raw).
func (s *Session) Send(line string) {
	s.t.Helper()
	s.Type(line + s.enter)
}

// Type types text on the terminal as is (no Enter added).
func (s *Session) Type(text string) {
	s.t.Helper()
	s.needTTY()
	if text == "\x03" && s.typeCtrlC() {
		return
	}
	if _, err := io.WriteString(s.master, text); err != nil {
		s.t.Fatalf("prompttest: typing %q: %v", text, err)
	}
}

func (s *Session) needTTY() {
	s.t.Helper()
	if s.master == nil {
		s.t.Fatalf("prompttest: this session has no terminal (StartDetached)")
	}
}

// Signal sends sig to the child. On Windows, which has no signals to send,
// os.Kill terminates it, and an interrupt (os.Interrupt, SIGTERM) is a
// Ctrl-C on its console (signal_windows.go).
func (s *Session) Signal(sig os.Signal) {
	s.t.Helper()
	// A child that exited since the caller's Exited check is not an error.
	if err := s.signal(sig); err != nil && !errors.Is(err, os.ErrProcessDone) {
		s.t.Fatalf("prompttest: signalling %d: %v", s.proc.Pid, err)
	}
}

// Wait waits for the child to exit and its captured outputs to end, and
// returns how it exited. It fails the test (killing the child) when timeout
// passes first.
func (s *Session) Wait(timeout time.Duration) *os.ProcessState {
	s.t.Helper()
	select {
	case <-s.exited:
	case <-time.After(timeout):
		_ = s.proc.Kill()
		<-s.exited
		s.t.Fatalf("prompttest: process %d still running after %v; killed.%s", s.proc.Pid, timeout, s.describe())
	}
	for _, st := range []*Stream{s.Stdout, s.Stderr, s.TTY} {
		if st != nil && !st.wait(drainTimeout) {
			s.t.Logf("prompttest: %s still open %v after process %d exited", st.name, drainTimeout, s.proc.Pid)
		}
	}
	return s.state
}

// Exited reports whether the child has exited, without waiting.
func (s *Session) Exited() bool {
	select {
	case <-s.exited:
		return true
	default:
		return false
	}
}

// StdinLeft returns what the child left unread on its piped stdin. Call it
// after Wait.
func (s *Session) StdinLeft() string {
	s.t.Helper()
	if s.stdinRead == nil {
		s.t.Fatalf("prompttest: stdin is not a pipe")
	}
	if !s.Exited() {
		s.t.Fatalf("prompttest: StdinLeft before the process exited")
	}
	b, err := io.ReadAll(s.stdinRead)
	if err != nil {
		s.t.Fatalf("prompttest: reading what is left on stdin: %v", err)
	}
	return string(b)
}

// exitNote says how the child exited, for a terminal that ended: waited
// for a while, since the terminal may end before the exit is seen.
func (s *Session) exitNote() string {
	select {
	case <-s.exited:
		return fmt.Sprintf(" (process %d exited: %v)", s.proc.Pid, s.state)
	case <-time.After(drainTimeout):
		return fmt.Sprintf(" (process %d still running %v later)", s.proc.Pid, drainTimeout)
	}
}

// describe lists the outputs so far, for failure messages.
func (s *Session) describe() string {
	var out string
	for _, st := range []*Stream{s.TTY, s.Stdout, s.Stderr} {
		if st != nil {
			out += "\n" + st.name + ":\n" + quoteLines(st.String())
		}
	}
	return out
}

// stop kills a child still running at the end of the test and releases
// the test's ends.
func (s *Session) stop() {
	if !s.Exited() {
		_ = s.proc.Kill()
		<-s.exited
	}
	s.closeParentEnds()
	for _, st := range []*Stream{s.Stdout, s.Stderr, s.TTY} {
		if st != nil {
			st.close()
		}
	}
}

func (s *Session) closeParentEnds() {
	if s.master != nil {
		s.master.Close()
	}
	if s.stdinRead != nil {
		s.stdinRead.Close()
	}
	if s.stdinClose != nil {
		s.stdinClose()
	}
}
