package txwatch

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"rfhandoff/internal/gittest"
	"strings"
	"sync"
	"testing"
	"time"

	"rfhandoff/config"
	"rfhandoff/exec"
	"rfhandoff/internal/txtest"
	"rfhandoff/prompt"
)

// waitLong bounds every wait for the watcher: generous for a 2-core
// machine running a second test suite beside this one (a wait ends as soon
// as its condition holds).
const waitLong = 3 * time.Minute

// noHackRF pins hackrf_transfer to a path that does not exist, so no test
// in this package can ever start a real one.
const noHackRF = "/nonexistent/rfhandoff-test/hackrf_transfer"

// waitFor polls cond until it holds or waitLong passes.
func waitFor(t *testing.T, what string, cond func() bool, out *gittest.SyncBuffer) {
	t.Helper()
	deadline := time.Now().Add(waitLong)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s; output so far:\n%s", what, out)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// waitPolls waits until the watcher has started n more fetches than it
// had when called: "several polls later" counted, not slept, so a loaded
// machine cannot make it zero polls.
func (e *env) waitPolls(t *testing.T, n int, out *gittest.SyncBuffer) {
	t.Helper()
	start := gitStarts(t, e)["fetch"]
	waitFor(t, fmt.Sprintf("%d more polls", n), func() bool { return gitStarts(t, e)["fetch"] >= start+n }, out)
}

// answer is one scripted reply to a phrase prompt.
type answer struct {
	typed  string        // compared exactly with the phrase, as the terminal would
	err    error         // returned instead (prompt.ErrExpired, ...)
	before func()        // runs while the prompt "waits", before the answer
	gate   chan struct{} // when set, the answer waits until it is closed
}

// scriptAsker plays the operator at the prompt. The prompt's own terminal
// handling is tested in package prompt and through the real binary on a
// pty (package main); here it stands in so the package's decisions can be
// driven precisely.
type scriptAsker struct {
	mu        sync.Mutex
	answers   []answer
	phrases   []string
	deadlines []time.Time
	opened    int
}

func (s *scriptAsker) open() (Asker, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.opened++
	return s, nil
}

func (s *scriptAsker) Phrase(ctx context.Context, phrase string, deadline time.Time) (bool, error) {
	s.mu.Lock()
	s.phrases = append(s.phrases, phrase)
	s.deadlines = append(s.deadlines, deadline)
	if len(s.answers) == 0 {
		s.mu.Unlock()
		<-ctx.Done() // nobody types: wait like a terminal would
		return false, ctx.Err()
	}
	a := s.answers[0]
	s.answers = s.answers[1:]
	s.mu.Unlock()
	if a.before != nil {
		a.before()
	}
	if a.gate != nil {
		<-a.gate
	}
	if a.err != nil {
		return false, a.err
	}
	return a.typed == phrase, nil
}

func (s *scriptAsker) Close() error { return nil }

func (s *scriptAsker) opens() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.opened
}

func (s *scriptAsker) calls() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.phrases)
}

func noTerminal() (Asker, error) {
	return nil, fmt.Errorf("%w: no such device or address", prompt.ErrNoTerminal) // as a failed open of /dev/tty says
}

// env is one test's world: a remote, a MAIN checkout, its policy and an
// audited RoleTransmit runner whose hackrf_transfer cannot exist.
type env struct {
	f     *txtest.Fixture
	pol   config.Policy
	r     *exec.Stack
	audit string
}

func newEnv(t testing.TB) *env {
	t.Helper()
	f := txtest.New(t)
	r, audit := f.TXRunner(t, noHackRF)
	return &env{f: f, pol: f.Policy(), r: r, audit: audit}
}

func (e *env) store(t *testing.T) Store {
	t.Helper()
	s, err := StoreOf(e.pol)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// files lists the authorization directory (nil when it does not exist).
func (e *env) files(t *testing.T) []string {
	t.Helper()
	entries, err := os.ReadDir(e.store(t).Dir)
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

func (e *env) hackrfStarts(t *testing.T) int {
	return txtest.ToolStarts(t, e.audit, exec.HackRFTransfer)
}

// watcher returns a Watcher on the env with out as its report stream.
func (e *env) watcher(out *gittest.SyncBuffer, asker func() (Asker, error)) *Watcher {
	return &Watcher{Git: e.f.Git(e.r), Policy: e.pol, Out: out, OpenAsker: asker, Audit: e.log()}
}

// log is the env's audit log for decision lines: the runner's file,
// appended to under its lock like a second process's.
func (e *env) log() *exec.AuditLog {
	l, err := exec.OpenAuditLog(e.audit)
	if err != nil {
		panic(err)
	}
	return l
}

// decisions returns the decision lines of the env's audit log, as "kind"
// or "kind:check:verdict" for an execute check, after checking the chain.
func (e *env) decisions(t *testing.T) ([]string, []exec.Entry) {
	t.Helper()
	if _, err := exec.VerifyAuditLog(e.audit); err != nil {
		t.Fatalf("audit verify: %v", err)
	}
	es, err := exec.ReadAuditTail(e.audit, 0)
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

// runWatcher starts w.Run and returns a stop function that cancels it and
// returns Run's error.
func runWatcher(t *testing.T, w *Watcher) (stop func() error) {
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
			case <-time.After(waitLong):
				t.Fatalf("the watcher did not stop")
			}
		})
		return runErr
	}
	t.Cleanup(func() { _ = stop() })
	return stop
}

func contains(s *gittest.SyncBuffer, text string) func() bool {
	return func() bool { return strings.Contains(s.String(), text) }
}

func statePath(pol config.Policy) string {
	return filepath.Join(pol.StatePath(), "tx_agent_state.json")
}
