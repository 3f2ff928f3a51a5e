package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"rfhandoff/exec"
)

// doctor's subprocesses go to the side's audit log only when it already
// exists as a private file; otherwise to a log in the scratch directory,
// and nothing appears at the side's path.
func TestDoctorAuditOnlyAnExistingPrivateLog(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, ".local", "audit.jsonl")
	run := func(log *exec.AuditLog) {
		t.Helper()
		hooks := t.TempDir()
		s, err := exec.New(exec.Options{Role: exec.RoleCapture, Audit: log, HooksDir: hooks})
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := s.Paths()[exec.Git]; !ok {
			t.Skip("git is not installed")
		}
		if _, err := s.Run(context.Background(), exec.Cmd{Tool: exec.Git, Args: []string{"version"}}); err != nil {
			t.Fatal(err)
		}
	}

	scratch := t.TempDir()
	log, recorded, err := doctorAudit(path, scratch)
	if err != nil || recorded || !strings.HasPrefix(log.Path(), scratch) {
		t.Fatalf("no log yet: %v, recorded %v, %v", log.Path(), recorded, err)
	}
	run(log)
	if _, err := os.Lstat(filepath.Dir(path)); !os.IsNotExist(err) {
		t.Fatalf("%s was created: %v", filepath.Dir(path), err)
	}
	if got := ranTools(log.Path()); got != "git" {
		t.Errorf("ranTools = %q, want git", got)
	}

	// A log another account could change is not appended to.
	if err := os.Mkdir(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, nil, 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o666); err != nil {
		t.Fatal(err)
	}
	if _, recorded, err := doctorAudit(path, t.TempDir()); err != nil || (recorded && runtimeJudgesModes()) {
		t.Fatalf("a world-writable log: recorded %v, %v", recorded, err)
	}

	// The side's own private log is appended to.
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
	log, recorded, err = doctorAudit(path, t.TempDir())
	if err != nil || !recorded || log.Path() != path {
		t.Fatalf("an existing private log: %v, recorded %v, %v", log.Path(), recorded, err)
	}
	run(log)
	if data, err := os.ReadFile(path); err != nil || !strings.Contains(string(data), `"version"`) {
		t.Fatalf("the side's log lacks the call: %v\n%s", err, data)
	}
}

// runtimeJudgesModes: Unix file modes say who may write (on Windows an
// access list does, which a chmod does not set).
func runtimeJudgesModes() bool { return os.PathSeparator == '/' }
