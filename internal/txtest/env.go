package txtest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"rfhandoff/config"
	"rfhandoff/exec"
	"rfhandoff/internal/gittest"
	"rfhandoff/prompt"
)

// WaitLong bounds every wait for the watcher: generous for a 2-core
// machine running a second test suite beside this one, or Wine (a wait
// ends as soon as its condition holds; 3 minutes ran out under Wine on a
// loaded machine), and short of go test's 10-minute default.
const WaitLong = 6 * time.Minute

// NoHackRF pins hackrf_transfer to a path that does not exist, so no test
// using an Env can ever start a real one.
const NoHackRF = "/nonexistent/rfhandoff-test/hackrf_transfer"

// WaitFor polls cond until it holds or WaitLong passes.
func WaitFor(t *testing.T, what string, cond func() bool, out *gittest.SyncBuffer) {
	t.Helper()
	deadline := time.Now().Add(WaitLong)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s; output so far:\n%s", what, out)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Contains is a WaitFor condition: s holds text.
func Contains(s *gittest.SyncBuffer, text string) func() bool {
	return func() bool { return strings.Contains(s.String(), text) }
}

// Answer is one scripted reply to a phrase prompt.
type Answer struct {
	Typed  string        // compared exactly with the phrase, as the terminal would
	Err    error         // returned instead (prompt.ErrExpired, ...)
	Before func()        // runs while the prompt "waits", before the answer
	Gate   chan struct{} // when set, the answer waits until it is closed
}

// ScriptAsker plays the operator at the prompt (it is a txwatch.Asker).
// The prompt's own terminal handling is tested in package prompt and
// through the real binary on a pty (package main); here it stands in so
// the MAIN side's decisions can be driven precisely.
type ScriptAsker struct {
	mu        sync.Mutex
	Answers   []Answer
	Phrases   []string
	Deadlines []time.Time
	opened    int
}

// Opener is s as the function that opens the terminal, returning it as
// the asker type A (txwatch.Asker).
func Opener[A any](s *ScriptAsker) func() (A, error) {
	return func() (A, error) {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.opened++
		return any(s).(A), nil
	}
}

// Phrase plays the next answer; with none left nobody types, and it waits
// until ctx ends like a terminal would.
func (s *ScriptAsker) Phrase(ctx context.Context, phrase string, deadline time.Time) (bool, error) {
	s.mu.Lock()
	s.Phrases = append(s.Phrases, phrase)
	s.Deadlines = append(s.Deadlines, deadline)
	if len(s.Answers) == 0 {
		s.mu.Unlock()
		<-ctx.Done() // nobody types: wait like a terminal would
		return false, ctx.Err()
	}
	a := s.Answers[0]
	s.Answers = s.Answers[1:]
	s.mu.Unlock()
	if a.Before != nil {
		a.Before()
	}
	if a.Gate != nil {
		<-a.Gate
	}
	if a.Err != nil {
		return false, a.Err
	}
	return a.Typed == phrase, nil
}

// Close closes nothing.
func (s *ScriptAsker) Close() error { return nil }

// Opens is how many times the terminal was opened.
func (s *ScriptAsker) Opens() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.opened
}

// Calls is how many times the phrase was asked.
func (s *ScriptAsker) Calls() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.Phrases)
}

// NoTerminal opens no terminal, as a failed open of /dev/tty says.
func NoTerminal[A any]() (A, error) {
	var zero A
	return zero, fmt.Errorf("%w: no such device or address", prompt.ErrNoTerminal)
}

// Env is one test's world: a remote, a MAIN checkout, its policy and an
// audited RoleTransmit runner whose hackrf_transfer cannot exist.
type Env struct {
	F     *Fixture
	Pol   config.Policy
	R     *exec.Stack
	Audit string
}

// NewEnv builds an Env on a New fixture.
func NewEnv(t testing.TB) *Env {
	t.Helper()
	f := New(t)
	r, audit := f.TXRunner(t, NoHackRF)
	return &Env{F: f, Pol: f.Policy(), R: r, Audit: audit}
}

// Files lists dir (nil when it does not exist).
func Files(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, en := range entries {
		out = append(out, en.Name())
	}
	return out
}

// HackRFStarts counts the hackrf_transfer starts of the env's runner.
func (e *Env) HackRFStarts(t *testing.T) int {
	return ToolStarts(t, e.Audit, exec.HackRFTransfer)
}

// Log is the env's audit log for decision lines: the runner's file,
// appended to under its lock like a second process's.
func (e *Env) Log() *exec.AuditLog {
	l, err := exec.OpenAuditLog(e.Audit)
	if err != nil {
		panic(err)
	}
	return l
}

// Decisions returns the decision lines of the env's audit log, as "kind"
// or "kind:check:verdict" for an execute check, after checking the chain.
func (e *Env) Decisions(t *testing.T) ([]string, []exec.Entry) {
	t.Helper()
	if _, err := exec.VerifyAuditLog(e.Audit); err != nil {
		t.Fatalf("audit verify: %v", err)
	}
	es, err := exec.ReadAuditTail(e.Audit, 0)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	var out []exec.Entry
	for _, en := range es {
		if en.Event != exec.EventDecision {
			continue
		}
		k := en.Kind
		if en.Check != "" {
			k += ":" + en.Check + ":" + en.Verdict
		}
		kinds, out = append(kinds, k), append(out, en)
	}
	return kinds, out
}

// GitStarts counts the audited git subcommands started so far.
func (e *Env) GitStarts(t testing.TB) map[string]int {
	t.Helper()
	entries, err := exec.ReadAuditTail(e.Audit, 0)
	if err != nil {
		t.Fatal(err)
	}
	n := map[string]int{}
	for _, en := range entries {
		if en.Tool != exec.Git || en.Event != exec.EventStart {
			continue
		}
		// argv: path, the runner's -c pairs, then the subcommand.
		for i := 1; i < len(en.Argv); i++ {
			if en.Argv[i] == "-c" {
				i++
				continue
			}
			n[en.Argv[i]]++
			break
		}
	}
	return n
}

// WaitPolls waits until the watcher has started n more fetches than it
// had when called: "several polls later" counted, not slept, so a loaded
// machine cannot make it zero polls.
func (e *Env) WaitPolls(t *testing.T, n int, out *gittest.SyncBuffer) {
	t.Helper()
	start := e.GitStarts(t)["fetch"]
	WaitFor(t, fmt.Sprintf("%d more polls", n), func() bool { return e.GitStarts(t)["fetch"] >= start+n }, out)
}

// Run starts w.Run (a watcher) and returns a stop function that cancels
// it and returns Run's error.
func Run(t *testing.T, w interface{ Run(context.Context) error }) (stop func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- w.Run(ctx) }()
	var once sync.Once
	var runErr error
	stop = func() error {
		once.Do(func() {
			cancel()
			select {
			case runErr = <-done:
			case <-time.After(WaitLong):
				t.Fatalf("the watcher did not stop")
			}
		})
		return runErr
	}
	t.Cleanup(func() { _ = stop() })
	return stop
}
