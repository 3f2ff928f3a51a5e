//go:build !windows

package hostclock

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"rfhandoff/exec"
	"rfhandoff/internal/gittest"
)

// standIn writes a timedatectl that prints out (and exits with code) into
// a directory of its own and returns a stack whose PATH has only it.
func standIn(t *testing.T, script string) (*exec.Stack, string) {
	t.Helper()
	dir := t.TempDir()
	if script != "" {
		if err := os.WriteFile(filepath.Join(dir, "timedatectl"), []byte("#!/bin/sh\n"+script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	env := []string{"PATH=" + dir + string(os.PathListSeparator) + os.Getenv("PATH")}
	if script == "" {
		env = []string{"PATH=" + dir}
	}
	// git pinned: the stand-in's PATH may hold nothing else.
	paths, _ := exec.ResolveTools(nil, os.Environ())
	return gittest.Stack(t, exec.Options{Role: exec.RoleCapture, Environ: env, Tools: map[exec.Tool]string{exec.Git: paths[exec.Git]}})
}

func TestCheckWithStandIn(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name, script string
		required     bool
		want         Sync
		refused      bool
	}{
		{"yes", `[ "$*" = "show -p NTPSynchronized --value" ] || exit 9; echo yes`, true, Synced, false},
		{"no", `[ "$*" = "show -p NTPSynchronized --value" ] || exit 9; echo no`, true, NotSynced, true},
		{"no, waived", `echo no`, false, NotSynced, false},
		{"no systemd", `echo "System has not been booted with systemd as init system (PID 1). Can't operate." >&2; exit 1`, true, Unknown, false},
		{"missing", "", true, Unknown, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, auditPath := standIn(t, c.script)
			rep, err := Require(ctx, s, c.required, "publishing a READY result")
			if rep.Sync != c.want {
				t.Fatalf("report %v, want %v", rep, c.want)
			}
			var ns *notSyncedError
			if got := errors.As(err, &ns); got != c.refused {
				t.Fatalf("refused %v (%v), want %v", got, err, c.refused)
			}
			if c.name == "missing" && !strings.Contains(rep.Said, "timedatectl is not installed") {
				t.Fatalf("said %q", rep.Said)
			}
			// The query is on record like every subprocess.
			log, err := os.ReadFile(auditPath)
			if err != nil {
				t.Fatal(err)
			}
			if c.script != "" && !strings.Contains(string(log), `"NTPSynchronized"`) {
				t.Fatalf("audit log lacks the query:\n%s", log)
			}
		})
	}
}
