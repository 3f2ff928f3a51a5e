package e2e

import (
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/cli/safeexec"

	"rfhandoff/config"
	"rfhandoff/internal/faultkit"
	"rfhandoff/internal/prompttest"
	"rfhandoff/internal/rxtest"
	"rfhandoff/state"
)

// rxWait bounds every wait in the RX end-to-end tests: generous, for a
// loaded 2-core CI machine. Tests poll for conditions; they never sleep a
// fixed time.
const rxWait = 3 * time.Minute

// rfhandoffBin is the real binary on PATH (TestMain puts it there).
func rfhandoffBin(t *testing.T) string {
	t.Helper()
	p, err := safeexec.LookPath("rfhandoff")
	if err != nil {
		t.Fatalf("rfhandoff not on PATH: %v", err)
	}
	return p
}

// run runs the built rfhandoff with args as a command in a script would:
// no terminal, empty stdin, this process's environment (t.Setenv included)
// and directory. It returns the exit code and outputs.
func run(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	o := faultkit.Run(t, nil, "", rxWait, "", args...)
	return o.Code, o.Stdout, o.Stderr
}

// rxMain runs rfhandoff (no terminal is involved in these commands)
// against the fixture's policy and returns the exit code and outputs.
// Its environment is the fixture's with RFHANDOFF_CONFIG empty (the
// policy comes from --config), given to the child, never set in this
// process: the tests that use it run in parallel.
func rxMain(t *testing.T, rx *rxtest.RX, args ...string) (int, string, string) {
	t.Helper()
	var env []string
	for _, kv := range rx.Environ() {
		if !strings.HasPrefix(kv, config.EnvVar+"=") {
			env = append(env, kv)
		}
	}
	env = append(env, config.EnvVar+"=")
	o := faultkit.Run(t, env, "", rxWait, "", append([]string{"--config", rx.PolicyFile}, args...)...)
	return o.Code, o.Stdout, o.Stderr
}

// rxTerminal starts `rfhandoff <args>` with a pseudo-terminal as its
// controlling terminal (the operator's side is the test), stdout and stderr
// captured.
func rxTerminal(t *testing.T, rx *rxtest.RX, args ...string) *prompttest.Session {
	t.Helper()
	return prompttest.Start(t, rfhandoffBin(t), args, prompttest.Options{Dir: rx.Dir, Env: rx.Environ(), CaptureOutput: true})
}

// rxDetached starts `rfhandoff <args>` with no controlling terminal and
// stdin a pipe holding stdin: how cron or an agent would run it.
func rxDetached(t *testing.T, rx *rxtest.RX, stdin string, args ...string) *prompttest.Session {
	t.Helper()
	return prompttest.StartDetached(t, rfhandoffBin(t), args, prompttest.Options{Dir: rx.Dir, Env: rx.Environ(), Stdin: stdin})
}

// exitOf waits for s and returns its exit code.
func exitOf(t *testing.T, s *prompttest.Session) int {
	t.Helper()
	return s.Wait(rxWait).ExitCode()
}

// loadRX reads the fixture's RX state.
func loadRX(t *testing.T, rx *rxtest.RX) state.RX {
	t.Helper()
	st, err := state.LoadRX(rx.StateDir())
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// waitFor polls cond until it holds, failing the test after rxWait.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(rxWait)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(25 * time.Millisecond)
	}
}

// waitRunning waits until the state says a watcher runs and returns its PID.
func waitRunning(t *testing.T, rx *rxtest.RX) int {
	t.Helper()
	var pid int
	waitFor(t, "the watcher to record running", func() bool {
		st, err := state.LoadRX(rx.StateDir())
		pid = st.WatcherPID
		return err == nil && st.Running && pid > 0
	})
	return pid
}

var fetchStartRE = regexp.MustCompile(`"event":"start".*"fetch"`)

// fetches counts the git fetch subprocesses in the checkout's audit log.
func fetches(t *testing.T, auditLog string) int {
	t.Helper()
	data, err := os.ReadFile(auditLog)
	if err != nil {
		if os.IsNotExist(err) {
			return 0
		}
		t.Fatal(err)
	}
	return len(fetchStartRE.FindAll(data, -1))
}

// menu is how the approval prompt's question starts (faultkit.ApprovalMenu).
const menu = faultkit.ApprovalMenu
