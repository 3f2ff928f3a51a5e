package e2e

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"rfhandoff/gate"
	"rfhandoff/internal/faultkit"
	"rfhandoff/internal/txtest"
	"rfhandoff/txwatch"
)

// Finding 9 of issue 29 (PROTOCOL#audit-log): the audit log is a regular file or
// nothing runs. With .local/audit.jsonl a symlink to /dev/null every
// write "succeeded" and hackrf_transfer -t ran with no line on record;
// now tx execute refuses before it asks for the phrase, and nothing is
// started, marked used or written.
func TestSecurityAuditLogSymlinkToDevNull(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("/dev/null and symlinks made without privileges are Unix")
	}
	t.Parallel()
	sim := faultkit.SimulatorPath(t, "hackrf_transfer")
	iq := filepath.Join(t.TempDir(), "burst.ci8")
	if err := os.WriteFile(iq, []byte(strings.Repeat("\x20\xe0\x10\xf0", 16<<10)), 0o600); err != nil {
		t.Fatal(err)
	}
	s := newTxSide(t, "[tools]\nhackrf_transfer = "+strconv.Quote(sim)+"\n\n"+
		"[tx]\nenabled = true\naction = \"hackrf_transfer\"\niq_file = "+strconv.Quote(iq)+"\nduration_s = 1\n", "HACKRF_SIM=fast")
	r := txtest.Ready(time.Now())
	commit, digest := s.f.Publish(t, r)
	record := s.writeRecord(t, commit, digest, r.CaptureStartedAt.Add(600*time.Second))
	before := s.authFiles(t)

	if err := os.MkdirAll(filepath.Dir(s.auditPath()), 0o700); err != nil {
		t.Fatal(err)
	}
	_ = os.Remove(s.auditPath())
	if err := os.Symlink(os.DevNull, s.auditPath()); err != nil {
		t.Fatal(err)
	}
	x := s.start(t, "tx", "execute", record)
	// The code as found asked for the phrase and transmitted: answer it,
	// so that the test shows what it did rather than hang.
	faultkit.Eventually(t, txWait, "tx execute to end or ask for the phrase", func() bool {
		return x.Exited() || strings.Contains(x.TTY.String(), "Type exactly: AUTHORIZE RF TX")
	})
	if !x.Exited() {
		x.Send(gate.TXPhrase)
	}
	code := exitStatus(t, x.Wait(txWait))
	if code != 1 || !strings.Contains(x.Stderr.String(), s.auditPath()) || !strings.Contains(x.Stderr.String(), "symlink") {
		t.Errorf("tx execute with the audit log a symlink to %s: want exit 1 naming the log and why\nexit %d\nstdout:\n%s\nstderr:\n%s",
			os.DevNull, code, x.Stdout, x.Stderr)
	}
	if strings.Contains(x.TTY.String(), "Type exactly") {
		t.Errorf("tx execute asked for the phrase without an audit log")
	}
	outcome := filepath.Join(s.authDir(), txwatch.OutcomeName(filepath.Base(record)))
	if data, err := os.ReadFile(outcome); err == nil {
		t.Errorf("hackrf_transfer -t ran with no line on record; outcome:\n%s", data)
	}
	if after := s.authFiles(t); !slices.Equal(after, before) {
		t.Errorf("authorization directory %v, was %v: the record was touched", after, before)
	}
	if target, err := os.Readlink(s.auditPath()); err != nil || target != os.DevNull {
		t.Errorf("the symlink was replaced: %q %v", target, err)
	}
}
