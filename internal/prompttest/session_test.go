package prompttest

import (
	"bufio"
	"fmt"
	"os"
	"os/signal"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"rfhandoff/exec"
)

const childEnv = "PROMPTTEST_CHILD"

const long = 30 * time.Second

func TestMain(m *testing.M) {
	Serve()
	exec.ServeHelper() // the Ctrl-C helper, for Type("\x03") on Windows
	if mode := os.Getenv(childEnv); mode != "" {
		os.Exit(child(mode))
	}
	os.Exit(m.Run())
}

// child is the program the tests run.
func child(mode string) int {
	tty, err := openTTY()
	switch mode {
	case "echo": // ask on the terminal, answer on stdout
		if err != nil {
			fmt.Println("open:", err)
			return 1
		}
		fmt.Fprint(tty, "x1 x2 x3 ping\n")
		line, _ := bufio.NewReader(tty).ReadString('\n')
		fmt.Print(line)
		return 0
	case "pid": // say who reads the terminal
		if err != nil {
			fmt.Println("open:", err)
			return 1
		}
		fmt.Fprintf(tty, "pid %d\n", os.Getpid())
		return 0
	case "bytes": // read bytes from the terminal up to CR or LF, print them quoted
		if err != nil {
			fmt.Println("open:", err)
			return 1
		}
		fmt.Fprint(tty, "ready\n")
		var got []byte
		b := make([]byte, 1)
		for len(got) < 64 {
			if n, err := tty.Read(b); n == 0 || err != nil {
				break
			}
			got = append(got, b[0])
			if b[0] == '\r' || b[0] == '\n' {
				break
			}
		}
		fmt.Printf("%q", got)
		return 0
	case "interrupt": // wait for SIGINT (exit 0) while reading the terminal (a byte read: exit 2)
		if err != nil {
			fmt.Println("open:", err)
			return 1
		}
		sig := make(chan os.Signal, 1)
		signal.Notify(sig, os.Interrupt)
		read := make(chan byte, 1)
		go func() {
			b := make([]byte, 1)
			if n, _ := tty.Read(b); n == 1 {
				read <- b[0]
			}
		}()
		fmt.Fprint(tty, "ready\n")
		select {
		case <-sig:
			fmt.Print("interrupted")
			return 0
		case b := <-read:
			fmt.Printf("read %q", b)
			return 2
		}
	case "hangup": // wait for SIGHUP, then say what a write to the terminal returns
		if err != nil {
			fmt.Println("open:", err)
			return 1
		}
		return childHangup(tty)
	case "detached": // report why there is no terminal, exit 7
		fmt.Println(noTerminal(err))
		return 7
	}
	return 2
}

func start(t *testing.T, mode string, detached bool) *Session {
	return startWith(t, mode, detached, false)
}

func startWith(t *testing.T, mode string, detached, raw bool) *Session {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{Env: append(os.Environ(), childEnv+"="+mode), CaptureOutput: true, Stdin: "keep\n", Raw: raw}
	if detached {
		return StartDetached(t, exe, nil, opts)
	}
	return Start(t, exe, nil, opts)
}

func TestStartGivesControllingTerminal(t *testing.T) {
	s := start(t, "echo", false)
	for _, want := range []string{"1", "2", "3"} {
		// Each WaitFor resumes after the previous match.
		if m := s.WaitFor(regexp.MustCompile(`x(\d)`), long); m[1] != want {
			t.Fatalf("WaitFor matched x%s, want x%s", m[1], want)
		}
	}
	s.WaitForText("ping", long)
	s.Send("pong")
	if st := s.Wait(long); st.ExitCode() != 0 {
		t.Fatalf("child exited %v: %s", st, s.Stdout.String())
	}
	if got := s.Stdout.String(); got != "pong"+lineEnd {
		t.Fatalf("child read %q from its terminal, want %q", got, "pong"+lineEnd)
	}
}

// The session is the child's own: its pid is the one on the terminal (on
// Windows, not the launcher's).
func TestStartSessionIsTheChild(t *testing.T) {
	s := start(t, "pid", false)
	m := s.WaitFor(regexp.MustCompile(`pid (\d+)`), long)
	if m[1] != fmt.Sprint(s.Pid()) {
		t.Fatalf("the terminal's reader is pid %s, the session's is %d", m[1], s.Pid())
	}
	if st := s.Wait(long); st.ExitCode() != 0 {
		t.Fatalf("child exited %v", st)
	}
}

// With Raw the child reads the bytes typed, Enter as CR, and nothing is
// echoed; cooked, the line discipline turns Enter into LF and echoes it.
func TestRawTerminalPassesEnterAsCR(t *testing.T) {
	needLineDiscipline(t)
	for _, c := range []struct {
		raw       bool
		read      string
		echoShown bool
	}{{raw: true, read: `"ab\r"`}, {raw: false, read: `"ab\n"`, echoShown: true}} {
		t.Run(fmt.Sprintf("raw=%v", c.raw), func(t *testing.T) {
			s := startWith(t, "bytes", false, c.raw)
			s.WaitForText("ready", long)
			s.Send("ab")
			if st := s.Wait(long); st.ExitCode() != 0 {
				t.Fatalf("child exited %v: %s", st, s.Stdout.String())
			}
			if got := s.Stdout.String(); got != c.read {
				t.Errorf("child read %s, want %s", got, c.read)
			}
			if shown := strings.Contains(s.TTY.String(), "ab"); shown != c.echoShown {
				t.Errorf("terminal shows the typed text: %v, want %v (%q)", shown, c.echoShown, s.TTY.String())
			}
		})
	}
}

// With Raw, Ctrl-C typed is still the terminal's interrupt, as a terminal
// emulator leaves it: the child gets SIGINT and does not read the byte
// (Wine's console stops a program only this way).
func TestRawTerminalCtrlCInterrupts(t *testing.T) {
	s := startWith(t, "interrupt", false, true)
	s.WaitForText("ready", long)
	s.Type("\x03")
	if st := s.Wait(long); st.ExitCode() != 0 || s.Stdout.String() != "interrupted" {
		t.Fatalf("child exited %v: %q, want 0 and interrupted", st, s.Stdout.String())
	}
}

func TestStartDetachedHasNoTerminal(t *testing.T) {
	s := start(t, "detached", true)
	if st := s.Wait(long); st.ExitCode() != 7 {
		t.Fatalf("exit %v, want 7", st)
	}
	if got := s.Stdout.String(); got != "true\n" {
		t.Fatalf("opening /dev/tty without a terminal: ENXIO=%q", got)
	}
	if left := s.StdinLeft(); left != "keep\n" {
		t.Fatalf("stdin left %q", left)
	}
}

// recorder stands in for *testing.T to see WaitFor give up.
type recorder struct {
	testing.TB
	mu  sync.Mutex
	msg string
}

func (r *recorder) Helper() {}
func (r *recorder) Fatalf(format string, args ...any) {
	r.mu.Lock()
	r.msg = fmt.Sprintf(format, args...)
	r.mu.Unlock()
	runtime.Goexit()
}

// The child has exited: waiting for text it never printed must fail at
// once, not after the (hour-long) timeout.
func TestWaitForFailsFastWhenOutputEnds(t *testing.T) {
	s := start(t, "detached", true)
	s.Wait(long)
	if msg := waitFailure(t, s.Stdout); !strings.Contains(msg, "output ended without") {
		t.Fatalf("WaitFor on ended output: %q", msg)
	}
}

// waitFailure waits on st for text that never comes, with an hour's
// timeout, and returns the failure WaitFor reported.
func waitFailure(t *testing.T, st *Stream) string {
	rec := &recorder{TB: t}
	st.t = rec
	done := make(chan struct{})
	go func() {
		defer close(done)
		st.WaitFor(regexp.MustCompile("never printed"), time.Hour)
	}()
	<-done
	return rec.msg
}

// A terminal that ends says how its child exited: the one clue when a
// program dies before printing anything.
func TestWaitForNamesTheExitWhenTheTerminalEnds(t *testing.T) {
	s := start(t, "no such mode", false) // the child exits 2 at once
	if msg := waitFailure(t, s.TTY); !strings.Contains(msg, "output ended without") || !strings.Contains(msg, "exited: exit status 2") {
		t.Fatalf("WaitFor on an ended terminal: %q", msg)
	}
}
