package security

import (
	"crypto/rand"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"rfhandoff/internal/faultkit"
	"rfhandoff/internal/gittest"
	"rfhandoff/internal/tasktest"
)

// grepTree returns the files under dir whose content holds secret.
func grepTree(t *testing.T, dir, secret string) []string {
	t.Helper()
	var hits []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if strings.Contains(string(b), secret) {
			hits = append(hits, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return hits
}

// Invariant: credentials in the remote URL work for fetch, clone and push
// against a smart-HTTP remote that demands them, and the password appears
// nowhere rfhandoff writes: not in either audit log, not in the state
// directories, not in any output (debug JSON logs included), not on the
// result branch. The canary is first shown to be where the operator put
// it, so the search could find it.
func TestSecurityCredentialsNeverLeak(t *testing.T) {
	t.Parallel()
	lab := faultkit.NewLab(t)
	var b [12]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	password := "CANARY" + hex.EncodeToString(b[:])
	h := faultkit.StartHTTP(t, lab.Srv, "rxop", password)
	faultkit.EnableHTTPPush(t, lab.Remote.Dir)
	url := h.URL("remote.git")
	lab.UseURL(url)
	for _, s := range []*faultkit.Side{lab.RX, lab.Main} {
		if hits := grepTree(t, filepath.Join(s.Dir, ".git"), password); len(hits) == 0 {
			t.Fatalf("the canary is not in the %s checkout's git config: the search below would prove nothing", s.Name)
		}
	}
	var outputs []faultkit.Output
	run := func(s *faultkit.Side, want int, args ...string) faultkit.Output {
		t.Helper()
		out := s.Run(faultkit.Wait, append([]string{"-v", "--log-format=json"}, args...)...)
		outputs = append(outputs, out)
		if out.Code != want {
			t.Fatalf("%s: exit %d, want %d\n%s\nhttp-backend:\n%s", strings.Join(args, " "), out.Code, want, out, h.BackendStderr())
		}
		return out
	}

	// Fetch (rx check), clone and push (rx publish-result), fetch (tx watch).
	commit, data := lab.PushTask(tasktest.Capture("SEC_CRED_0001"))
	run(lab.RX, 10, "rx", "check")
	lab.Approve("SEC_CRED_0001", data, commit)
	before := lab.Tip(tasktest.ResultBranch)
	run(lab.RX, 0, "rx", "publish-result", lab.WriteResult(lab.Encode(lab.Ready("SEC_CRED_0001"))))
	after := lab.Tip(tasktest.ResultBranch)
	if after == before {
		t.Fatal("publish over authenticated HTTP did not move the result branch")
	}
	w := lab.Main.Start("-v", "--log-format=json", "tx", "watch")
	w.Stdout.WaitForText("READY result for task SEC_CRED_0001 awaiting authorization", faultkit.Wait)
	w.Signal(syscall.SIGTERM)
	w.Wait(faultkit.Wait)
	outputs = append(outputs, faultkit.Output{Stdout: w.Stdout.String(), Stderr: w.Stderr.String()})

	// A wrong password fails, and its error output names neither password.
	wrong := "WRONG" + password
	lab.RX.SetRemoteURL(strings.Replace(url, password, wrong, 1))
	bad := run(lab.RX, 1, "rx", "check")
	if strings.Contains(bad.All(), wrong) {
		t.Errorf("the wrong password is in the output:\n%s", bad)
	}
	if h.Unauthorized.Load() == 0 || h.Served.Load() == 0 {
		t.Fatalf("the server saw %d refused and %d served requests: credentials were not exercised", h.Unauthorized.Load(), h.Served.Load())
	}

	for i, o := range outputs {
		if strings.Contains(o.All(), password) {
			t.Errorf("run %d printed the password:\n%s", i, o)
		}
	}
	for _, s := range []*faultkit.Side{lab.RX, lab.Main} {
		if hits := grepTree(t, s.StateDir(), password); len(hits) != 0 {
			t.Errorf("the password is in %v", hits)
		}
		if hits := grepTree(t, s.StateDir(), wrong); len(hits) != 0 {
			t.Errorf("the wrong password is in %v", hits)
		}
		faultkit.CheckAuditChain(t, s.AuditPath())
	}
	// The clone's URL was logged, redacted.
	redacted := false
	for _, c := range faultkit.GitCalls(faultkit.AuditEntries(t, lab.RX.AuditPath()), "clone") {
		redacted = redacted || strings.Contains(strings.Join(c.Start.Argv, " "), "rxop:REDACTED@")
	}
	if !redacted {
		t.Error("no clone line with the redacted URL in the RX audit log")
	}
	// Nothing pushed carries it either: commit message, trailers, files.
	pushed := gittest.Git(t, lab.R, lab.Remote.Dir, "log", "-p", "--format=%H%n%B", before+".."+after)
	if strings.Contains(pushed, password) {
		t.Errorf("the password was pushed to the result branch:\n%s", pushed)
	}
	if hits := grepTree(t, lab.Tmp, password); len(hits) != 0 {
		t.Errorf("the password is left in TMPDIR: %v", hits)
	}
}
