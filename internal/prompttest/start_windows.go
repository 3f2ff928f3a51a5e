package prompttest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"
)

// On Windows, Start gives the child a pseudo-console (ConPTY): the console
// it opens as CONIN$ and CONOUT$ is one the test types into and reads, as
// Windows Terminal does for a shell. A process is put on a pseudo-console
// only by CreateProcess with the console as an attribute, and it then takes
// its standard handles from the caller (Wine copies the caller's own; real
// Windows gives the console's only when the caller's are not redirected),
// while a test wants them to be the console, as a program started from a
// terminal has. So the test binary itself is started on the console first,
// as a launcher (Serve): it opens CONIN$ and CONOUT$ there and starts the
// child with them (or the session's pipes) as its standard handles, reports
// the child's pid, and waits. The session is the child's: its pid, its
// exit, its Ctrl-C.

// launchEnv carries a launch to the test binary started as the launcher.
const launchEnv = "PROMPTTEST_INTERNAL_CONSOLE_LAUNCH"

type launch struct {
	Argv []string
	Dir  string
	// Stdin, Stdout and Stderr are inherited handles; 0 is the console.
	Stdin, Stdout, Stderr uintptr
	// Report gets the child's pid (or "error: ..."); Ack ends when the
	// test holds the child, so its pid cannot be reused before.
	Report, Ack uintptr
}

// served: Serve ran, so this test binary can be the launcher.
var served atomic.Bool

// Serve must be the first thing TestMain does in a package whose tests
// call Start on Windows: started as the launcher, the test binary does that
// and exits; otherwise it only records that it can.
func Serve() {
	v, ok := os.LookupEnv(launchEnv)
	if !ok {
		served.Store(true)
		return
	}
	os.Exit(serveLaunch(v))
}

func serveLaunch(v string) int {
	var l launch
	if err := json.Unmarshal([]byte(v), &l); err != nil || len(l.Argv) == 0 {
		fmt.Fprintf(os.Stderr, "%s: %v\n", launchEnv, err)
		return 2
	}
	os.Unsetenv(launchEnv)
	report, ack := os.NewFile(l.Report, "report"), os.NewFile(l.Ack, "ack")
	fail := func(err error) int {
		fmt.Fprintf(report, "error: %v\n", err)
		return 1
	}
	conin, err := os.OpenFile("CONIN$", os.O_RDWR, 0)
	if err != nil {
		return fail(err)
	}
	conout, err := os.OpenFile("CONOUT$", os.O_RDWR, 0)
	if err != nil {
		return fail(err)
	}
	pick := func(h uintptr, name string, console *os.File) *os.File {
		if h == 0 {
			return console
		}
		return os.NewFile(h, name)
	}
	files := []*os.File{pick(l.Stdin, "stdin", conin), pick(l.Stdout, "stdout", conout), pick(l.Stderr, "stderr", conout)}
	// A Ctrl-C on the console reaches every process on it: the launcher
	// stays to wait (handling it is per process, not inherited).
	signal.Notify(make(chan os.Signal, 1), os.Interrupt)
	p, err := os.StartProcess(l.Argv[0], l.Argv, &os.ProcAttr{Dir: l.Dir, Env: os.Environ(), Files: files})
	for _, f := range append(files, conin, conout) {
		f.Close()
	}
	if err != nil {
		return fail(err)
	}
	fmt.Fprintf(report, "%d\n", p.Pid)
	report.Close()
	_, _ = io.Copy(io.Discard, ack)
	st, err := p.Wait()
	if err != nil {
		return 1
	}
	return st.ExitCode()
}

// conpty is a pseudo-console and the test's ends of its pipes.
type conpty struct {
	h        windows.Handle
	in, out  *os.File // the test types into in and reads the screen from out
	launcher windows.Handle
}

func startTerminal(t testing.TB, path string, args []string, opts Options) *Session {
	t.Helper()
	if !served.Load() {
		t.Fatalf("prompttest: on Windows, Start needs prompttest.Serve() as the first thing TestMain does")
	}
	rows, cols := opts.Rows, opts.Cols
	if rows == 0 {
		rows = 24
	}
	if cols == 0 {
		cols = 250
	}
	c, err := newConpty(int16(cols), int16(rows))
	if err != nil {
		t.Fatalf("prompttest: %v", err)
	}
	// Enter on a console is CR, the key's own byte, raw or not.
	s := &Session{t: t, master: c.in, enter: "\r", console: true, exited: make(chan struct{})}
	var closeAfter []*os.File
	l := launch{Argv: append([]string{path}, args...), Dir: opts.Dir}
	if opts.PipeStdin {
		f := s.stdinPipe(opts.Stdin, opts.HoldStdin)
		closeAfter = append(closeAfter, f)
		l.Stdin = f.Fd()
	}
	if opts.CaptureOutput {
		o, e := s.capture(&closeAfter)
		l.Stdout, l.Stderr = o.Fd(), e.Fd()
	}
	reportR, reportW, err := os.Pipe()
	if err != nil {
		t.Fatalf("prompttest: %v", err)
	}
	ackR, ackW, err := os.Pipe()
	if err != nil {
		t.Fatalf("prompttest: %v", err)
	}
	closeAfter = append(closeAfter, reportW, ackR)
	l.Report, l.Ack = reportW.Fd(), ackR.Fd()
	s.TTY = newFilteredStream(t, "terminal", c.out, (&conhostText{}).write)
	s.TTY.exitNote = s.exitNote
	err = c.startLauncher(l, opts.Env, closeAfter)
	for _, f := range closeAfter {
		if f != s.stdinRead {
			f.Close()
		}
	}
	if err != nil {
		c.close()
		s.closeParentEnds()
		reportR.Close()
		ackW.Close()
		t.Fatalf("prompttest: starting %s on a pseudo-console: %v", path, err)
	}
	pid, err := readReport(reportR)
	reportR.Close()
	var proc *os.Process
	if err == nil {
		proc, err = os.FindProcess(pid)
	}
	ackW.Close()
	if err != nil {
		c.close()
		s.closeParentEnds()
		t.Fatalf("prompttest: starting %s on a pseudo-console: %v", path, err)
	}
	s.proc, s.path = proc, path
	go func() {
		s.state, _ = proc.Wait()
		close(s.exited)
		// The launcher ends after the child; the console is closed once it
		// has drawn the child's last output, which ends s.TTY.
		windows.WaitForSingleObject(c.launcher, 10_000)
		s.TTY.settle(200*time.Millisecond, 2*time.Second)
		c.close()
	}()
	s.t.Cleanup(s.stop)
	return s
}

// readReport reads the launcher's one line: the child's pid or its error.
func readReport(r io.Reader) (int, error) {
	line, err := bufio.NewReader(r).ReadString('\n')
	line = strings.TrimSpace(line)
	if msg, ok := strings.CutPrefix(line, "error: "); ok {
		return 0, fmt.Errorf("the launcher: %s", msg)
	}
	pid, perr := strconv.Atoi(line)
	if perr != nil {
		return 0, fmt.Errorf("the launcher reported %q (%v)", line, err)
	}
	return pid, nil
}

func newConpty(cols, rows int16) (*conpty, error) {
	var inR, inW, outR, outW windows.Handle
	if err := windows.CreatePipe(&inR, &inW, nil, 0); err != nil {
		return nil, fmt.Errorf("console input pipe: %w", err)
	}
	if err := windows.CreatePipe(&outR, &outW, nil, 0); err != nil {
		windows.CloseHandle(inR)
		windows.CloseHandle(inW)
		return nil, fmt.Errorf("console output pipe: %w", err)
	}
	var h windows.Handle
	err := windows.CreatePseudoConsole(windows.Coord{X: cols, Y: rows}, inR, outW, 0, &h)
	// The console holds its own ends now.
	windows.CloseHandle(inR)
	windows.CloseHandle(outW)
	if err != nil {
		windows.CloseHandle(inW)
		windows.CloseHandle(outR)
		return nil, fmt.Errorf("CreatePseudoConsole: %w", err)
	}
	return &conpty{h: h, in: os.NewFile(uintptr(inW), "console input"), out: os.NewFile(uintptr(outR), "console output")}, nil
}

// startLauncher starts this test binary on the console as the launcher of
// l, inheriting exactly the handles in inherit.
func (c *conpty) startLauncher(l launch, env []string, inherit []*os.File) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	if env == nil {
		env = os.Environ()
	}
	spec, err := json.Marshal(l)
	if err != nil {
		return err
	}
	handles := make([]windows.Handle, 0, len(inherit))
	for _, f := range inherit {
		h := windows.Handle(f.Fd())
		if err := windows.SetHandleInformation(h, windows.HANDLE_FLAG_INHERIT, windows.HANDLE_FLAG_INHERIT); err != nil {
			return fmt.Errorf("making a handle inheritable: %w", err)
		}
		handles = append(handles, h)
	}
	attrs, err := windows.NewProcThreadAttributeList(2)
	if err != nil {
		return err
	}
	defer attrs.Delete()
	// The attribute's value is the console handle itself, not a pointer to
	// it: its bits, read as a pointer.
	if err := attrs.Update(windows.PROC_THREAD_ATTRIBUTE_PSEUDOCONSOLE, *(*unsafe.Pointer)(unsafe.Pointer(&c.h)), unsafe.Sizeof(c.h)); err != nil {
		return fmt.Errorf("the pseudo-console attribute: %w", err)
	}
	if err := attrs.Update(windows.PROC_THREAD_ATTRIBUTE_HANDLE_LIST, unsafe.Pointer(&handles[0]), uintptr(len(handles))*unsafe.Sizeof(handles[0])); err != nil {
		return fmt.Errorf("the handle list attribute: %w", err)
	}
	si := &windows.StartupInfoEx{ProcThreadAttributeList: attrs.List()}
	si.Cb = uint32(unsafe.Sizeof(*si))
	block, err := envBlock(append(append([]string{}, env...), launchEnv+"="+string(spec)))
	if err != nil {
		return err
	}
	app, err := windows.UTF16PtrFromString(self)
	if err != nil {
		return err
	}
	cmdline, err := windows.UTF16PtrFromString(windows.EscapeArg(self))
	if err != nil {
		return err
	}
	var pi windows.ProcessInformation
	if err := windows.CreateProcess(app, cmdline, nil, nil, true,
		windows.EXTENDED_STARTUPINFO_PRESENT|windows.CREATE_UNICODE_ENVIRONMENT, &block[0], nil, &si.StartupInfo, &pi); err != nil {
		return fmt.Errorf("CreateProcess %s: %w", self, err)
	}
	windows.CloseHandle(pi.Thread)
	c.launcher = pi.Process
	return nil
}

// envBlock is env as CreateProcess takes it: NUL-separated, NUL-ended.
func envBlock(env []string) ([]uint16, error) {
	var b []uint16
	for _, kv := range env {
		u, err := syscall.UTF16FromString(kv)
		if err != nil {
			return nil, err
		}
		b = append(b, u...)
	}
	return append(b, 0), nil
}

// close ends the console (its output then ends) and the launcher's handle.
func (c *conpty) close() {
	if c.h != 0 {
		windows.ClosePseudoConsole(c.h)
		c.h = 0
	}
	if c.launcher != 0 {
		windows.CloseHandle(c.launcher)
		c.launcher = 0
	}
}

// settle waits until nothing new has come for quiet, or max has passed.
func (s *Stream) settle(quiet, max time.Duration) {
	deadline := time.Now().Add(max)
	for time.Now().Before(deadline) {
		s.mu.Lock()
		n, notify := len(s.buf), s.notify
		s.mu.Unlock()
		select {
		case <-notify:
			continue
		case <-time.After(quiet):
			s.mu.Lock()
			same := len(s.buf) == n
			s.mu.Unlock()
			if same {
				return
			}
		}
	}
}
