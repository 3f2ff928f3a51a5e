package state

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"rfhandoff/localfile"
)

// The test binary doubles as a helper process, started with os.StartProcess
// (rfhandoff/exec runs only allowlisted tools, and a second process is the
// point: a lock held by another process, a PID that is certainly dead, a
// writer killed mid-write).
const helperEnv = "STATE_TEST_HELPER"

func TestMain(m *testing.M) {
	if h := os.Getenv(helperEnv); h != "" {
		os.Exit(runHelper(h))
	}
	os.Exit(m.Run())
}

func runHelper(h string) int {
	mode, arg, _ := strings.Cut(h, ":")
	switch mode {
	case "exit":
		return 0
	case "hold-lock":
		l, err := localfile.Acquire(arg)
		if err != nil {
			fmt.Fprintln(os.Stderr, "helper:", err)
			return 3
		}
		fmt.Println("locked")
		io.Copy(io.Discard, os.Stdin) // hold until the parent closes stdin
		l.Release()
		return 0
	}
	fmt.Fprintln(os.Stderr, "helper: unknown mode", h)
	return 2
}

// helper is a started helper process with its stdin and stdout.
type helper struct {
	proc  *os.Process
	stdin *os.File
	out   *bufio.Reader
}

// startHelper starts the test binary in helper mode and waits until it
// prints want on its first line.
func startHelper(t *testing.T, mode, want string) *helper {
	t.Helper()
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	proc, err := os.StartProcess(os.Args[0], []string{os.Args[0], "-test.run=^$"}, &os.ProcAttr{
		Env:   append(os.Environ(), helperEnv+"="+mode),
		Files: []*os.File{inR, outW, os.Stderr},
	})
	inR.Close()
	outW.Close()
	if err != nil {
		t.Fatal(err)
	}
	h := &helper{proc: proc, stdin: inW, out: bufio.NewReader(outR)}
	t.Cleanup(func() {
		h.stdin.Close()
		h.proc.Kill()
		h.proc.Wait()
		outR.Close()
	})
	line := make(chan string, 1)
	go func() {
		s, _ := h.out.ReadString('\n')
		line <- s
	}()
	select {
	case s := <-line:
		if strings.TrimSpace(s) != want {
			t.Fatalf("helper %s said %q, want %q", mode, s, want)
		}
	case <-time.After(60 * time.Second):
		t.Fatalf("helper %s did not start", mode)
	}
	return h
}

// deadPID returns the PID of a child that has exited and been reaped.
func deadPID(t *testing.T) int {
	t.Helper()
	proc, err := os.StartProcess(os.Args[0], []string{os.Args[0], "-test.run=^$"}, &os.ProcAttr{
		Env:   append(os.Environ(), helperEnv+"=exit"),
		Files: []*os.File{nil, nil, os.Stderr},
	})
	if err != nil {
		t.Fatal(err)
	}
	pid := proc.Pid
	if _, err := proc.Wait(); err != nil {
		t.Fatal(err)
	}
	return pid
}
