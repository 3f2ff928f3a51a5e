//go:build unix

package security

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"rfhandoff/internal/faultkit"
	"rfhandoff/internal/tasktest"
)

// The same rule for every kind of file that is not one (PROTOCOL#audit-log): a
// symlink to a regular file elsewhere, a FIFO, a device named by the
// policy itself, a directory. rx check refuses before any git call: the
// tracking ref does not move, the symlink's target keeps its bytes.
func TestSecurityAuditLogNotARegularFile(t *testing.T) {
	t.Parallel()
	lab := faultkit.NewLab(t)
	lab.PushTask(tasktest.Capture("SEC_AUDIT_FILE_1"))
	elsewhere := filepath.Join(t.TempDir(), "elsewhere.jsonl")
	const kept = "not an audit log\n"
	if err := os.WriteFile(elsewhere, []byte(kept), 0o600); err != nil {
		t.Fatal(err)
	}
	log := lab.RX.AuditPath()
	for _, c := range []struct {
		name, want string
		make       func() string // returns the audit path to use
	}{
		{"symlink to a regular file", "symlink", func() string { must(t, os.Symlink(elsewhere, log)); return log }},
		{"FIFO", "FIFO", func() string { must(t, syscall.Mkfifo(log, 0o600)); return log }},
		{"directory", "directory", func() string { must(t, os.Mkdir(log, 0o700)); return log }},
		{"device named by the policy", "device", func() string { return os.DevNull }},
	} {
		must(t, os.MkdirAll(filepath.Dir(log), 0o700))
		must(t, os.RemoveAll(log))
		path := c.make()
		lab.RX.Policy.Audit.Path = path
		lab.RX.WritePolicy()
		out := lab.RX.Run(faultkit.Wait, "rx", "check")
		if out.Code != 1 || !strings.Contains(out.Stderr, path) || !strings.Contains(out.Stderr, c.want) {
			t.Errorf("%s: want exit 1 naming %s and %q\n%s", c.name, path, c.want, out)
		}
		if got := lab.RX.TrackingRef(tasktest.TaskBranch); got != "" {
			t.Errorf("%s: a fetch ran (tracking ref %s)", c.name, got)
		}
	}
	if data, err := os.ReadFile(elsewhere); err != nil || string(data) != kept {
		t.Errorf("the symlink's target changed: %q %v", data, err)
	}
	lab.RX.Policy.Audit.Path = log
	lab.RX.WritePolicy()
	must(t, os.RemoveAll(log))
	if out := lab.RX.Run(faultkit.Wait, "rx", "check"); out.Code != 10 {
		t.Errorf("rx check with a regular audit log again: want exit 10\n%s", out)
	}
}
