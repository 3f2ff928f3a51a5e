package faultkit

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"rfhandoff/exec"
	"rfhandoff/gitcli/gittest"
)

// Runner is a real exec stack for fixtures, like gittest.Runner, that may
// also use the given network transports ("git", "http").
func Runner(t testing.TB, home string, protocols ...string) *exec.Stack {
	t.Helper()
	dir := t.TempDir()
	audit, err := exec.OpenAuditLog(filepath.Join(dir, "audit.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	hooks := filepath.Join(dir, "nohooks")
	if err := os.Mkdir(hooks, 0o700); err != nil {
		t.Fatal(err)
	}
	s, err := exec.New(exec.Options{
		Role:           exec.RoleNone,
		Audit:          audit,
		GitProtocols:   append([]string{"file"}, protocols...),
		HooksDir:       hooks,
		Environ:        gittest.Environ(home),
		DefaultTimeout: 2 * time.Minute,
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, missing := s.Missing()[exec.Git]; missing {
		t.Skip("git is not installed")
	}
	return s
}
