package faultkit

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cli/safeexec"

	"rfhandoff/internal/prompttest"
)

// Bin is the rfhandoff binary on PATH (package e2e's TestMain puts it
// there while its tests run). The test is skipped when it is missing.
func Bin(t testing.TB) string {
	t.Helper()
	p, err := safeexec.LookPath("rfhandoff")
	if err != nil {
		t.Skipf("rfhandoff is not on PATH (run from package e2e's tests): %v", err)
	}
	return p
}

// Output is how a finished rfhandoff run ended.
type Output struct {
	Code           int // exit status; -1 when killed by a signal
	Stdout, Stderr string
}

// All is stdout and stderr together, for "never printed" checks.
func (o Output) All() string { return o.Stdout + o.Stderr }

func (o Output) String() string {
	return fmt.Sprintf("exit %d\nstdout:\n%s\nstderr:\n%s", o.Code, o.Stdout, o.Stderr)
}

// Run runs rfhandoff with args without a terminal (new session, stdin
// piped from stdin, outputs captured), as cron or an agent's subprocess
// would, and waits at most timeout for it to end.
func Run(t testing.TB, env []string, dir string, timeout time.Duration, stdin string, args ...string) Output {
	t.Helper()
	s := Start(t, env, dir, stdin, args...)
	st := s.Wait(timeout)
	return Output{Code: st.ExitCode(), Stdout: s.Stdout.String(), Stderr: s.Stderr.String()}
}

// Start starts rfhandoff with args without a terminal and returns the
// session (killed when the test ends if still running).
func Start(t testing.TB, env []string, dir, stdin string, args ...string) *prompttest.Session {
	t.Helper()
	return prompttest.StartDetached(t, Bin(t), args, prompttest.Options{Dir: dir, Env: env, Stdin: stdin})
}

// Eventually polls cond every 20ms until it holds or timeout passes, then
// fails the test with what.
func Eventually(t testing.TB, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("faultkit: after %v: %s", timeout, what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// RSSKiB reads VmRSS of a live process from /proc (Linux).
func RSSKiB(pid int) (int64, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			f := strings.Fields(v)
			if len(f) >= 1 {
				return strconv.ParseInt(f[0], 10, 64)
			}
		}
	}
	return 0, fmt.Errorf("no VmRSS in /proc/%d/status", pid)
}

// Holders lists the processes with an open descriptor on path, as
// "pid cmdline" lines (for failure messages).
func Holders(path string) []string {
	var out []string
	procs, _ := os.ReadDir("/proc")
	for _, p := range procs {
		pid, err := strconv.Atoi(p.Name())
		if err != nil {
			continue
		}
		fds, _ := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
		for _, fd := range fds {
			if target, err := os.Readlink(fmt.Sprintf("/proc/%d/fd/%s", pid, fd.Name())); err == nil && target == path {
				cmd, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
				out = append(out, fmt.Sprintf("%d %s", pid, strings.ReplaceAll(string(cmd), "\x00", " ")))
				break
			}
		}
	}
	return out
}

// ProcsMentioning lists the live processes whose command line holds s.
func ProcsMentioning(s string) []int {
	var out []int
	procs, _ := os.ReadDir("/proc")
	for _, p := range procs {
		pid, err := strconv.Atoi(p.Name())
		if err != nil {
			continue
		}
		cmd, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		if err == nil && strings.Contains(string(cmd), s) {
			out = append(out, pid)
		}
	}
	return out
}

// SimulatorPath is the HackRF simulator the package's TestMain put on
// PATH under the tool's name (name.exe on Windows); never the real tool.
func SimulatorPath(t testing.TB, name string) string {
	t.Helper()
	bin := Bin(t)
	sim, err := safeexec.LookPath(name)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(sim) != filepath.Dir(bin) {
		t.Fatalf("%s on PATH is %s, not the simulator beside %s", name, sim, bin)
	}
	return sim
}
