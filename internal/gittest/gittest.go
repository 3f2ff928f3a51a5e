package gittest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"rfhandoff/exec"
)

// Identity used by every fixture commit (via the private HOME's .gitconfig).
const (
	UserName  = "gittest"
	UserEmail = "gittest@example.invalid"
)

// Home creates a private HOME directory whose .gitconfig sets only a user
// identity and a default branch name, so the operator's own git
// configuration never leaks into tests.
func Home(t testing.TB) string {
	t.Helper()
	home := filepath.Join(t.TempDir(), "home")
	if err := os.MkdirAll(filepath.Join(home, ".config"), 0o700); err != nil {
		t.Fatal(err)
	}
	cfg := fmt.Sprintf("[user]\n\tname = %s\n\temail = %s\n[init]\n\tdefaultBranch = main\n[advice]\n\tdetachedHead = false\n", UserName, UserEmail)
	if err := os.WriteFile(filepath.Join(home, ".gitconfig"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	return home
}

// Environ is the parent environment for a test runner: this process's
// environment with HOME and XDG_CONFIG_HOME pointed into home, and without
// the variables unset names (a child's policy file, the simulator's
// scenario).
func Environ(home string, unset ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if k == "HOME" || k == "XDG_CONFIG_HOME" || slices.Contains(unset, k) {
			continue
		}
		env = append(env, kv)
	}
	return append(env, "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"))
}

// Runner builds a real exec stack for tests: RoleGit, an audit log in a
// temporary directory, the fixtures' transports allowed, a private HOME (see
// Home) and an empty hooks directory of its own. It skips the test when git
// is not installed.
func Runner(t testing.TB) *exec.Stack {
	t.Helper()
	return RunnerWithHome(t, Home(t))
}

// RunnerWithHome is Runner with a HOME of the caller's choosing; protocols
// adds network transports ("git", "http") to the fixtures' own (file, and
// git on Windows: see ServeURL).
func RunnerWithHome(t testing.TB, home string, protocols ...string) *exec.Stack {
	t.Helper()
	s, _ := Stack(t, exec.Options{
		Role:         exec.RoleGit,
		GitProtocols: Transports(protocols...),
		Environ:      Environ(home),
	})
	return s
}

// Transports are the git transports a runner needs to reach the fixtures'
// remotes (file, and git on Windows: see ServeURL), then extra.
func Transports(extra ...string) []string { return append(slices.Clone(transports), extra...) }

// Stack builds a real exec stack from o for a test. It gives the stack an
// audit log of its own in a temporary directory (and returns its path),
// and, where o leaves them unset, an empty hooks directory there and a
// generous default timeout. It skips the test when git is not installed.
func Stack(t testing.TB, o exec.Options) (*exec.Stack, string) {
	t.Helper()
	dir := t.TempDir()
	auditPath := filepath.Join(dir, "audit.jsonl")
	audit, err := exec.OpenAuditLog(auditPath)
	if err != nil {
		t.Fatal(err)
	}
	o.Audit = audit
	if o.HooksDir == "" {
		o.HooksDir = filepath.Join(dir, "nohooks")
		if err := os.Mkdir(o.HooksDir, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if o.DefaultTimeout == 0 {
		o.DefaultTimeout = 2 * time.Minute // generous: CI machines are slow
	}
	s, err := exec.New(o)
	if err != nil {
		t.Fatal(err)
	}
	if _, missing := s.Missing()[exec.Git]; missing {
		t.Skip("git is not installed")
	}
	if err := gitRuns(s); err != nil {
		t.Skipf("git cannot run here (under Wine a Windows program cannot wait for a Linux git): %v", err)
	}
	return s, auditPath
}

var (
	gitRunsOnce sync.Once
	gitRunsErr  error
)

// gitRuns runs `git version` once per process: a git that resolves but
// cannot be run is a reason to skip, not a failure of the test.
func gitRuns(s *exec.Stack) error {
	gitRunsOnce.Do(func() {
		_, gitRunsErr = s.Run(context.Background(), exec.Cmd{Tool: exec.Git, Args: []string{"version"}, Timeout: time.Minute})
	})
	return gitRunsErr
}

// Git runs git with args in dir through r and returns its stdout. Any
// failure ends the test.
func Git(t testing.TB, r exec.Runner, dir string, args ...string) string {
	t.Helper()
	res, err := r.Run(context.Background(), exec.Cmd{Tool: exec.Git, Args: args, Dir: dir})
	if err != nil {
		t.Fatalf("git %s (in %s): %v", strings.Join(args, " "), dir, err)
	}
	return string(res.Stdout)
}
