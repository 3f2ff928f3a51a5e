package publish_test

import (
	"bytes"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"rfhandoff/exec"
	"rfhandoff/internal/faultkit"
	"rfhandoff/internal/gittest"
	"rfhandoff/internal/publishtest"
	"rfhandoff/publish"
)

// TestPublishOverCredentialedHTTP publishes to a smart-HTTP remote that
// demands Basic auth, with the credentials in the remote URL (as some
// operators configure them). It works, and the password appears nowhere:
// not in the audit log, not in the logs, not in the outcome.
func TestPublishOverCredentialedHTTP(t *testing.T) {
	t.Parallel()
	const user, password = "rx", "s3cret-Pa55word"
	r, auditPath := gittest.Stack(t, exec.Options{Role: exec.RoleCapture, GitProtocols: gittest.Transports("http"),
		Environ: gittest.Environ(gittest.Home(t))})
	f := publishtest.New(t, publishtest.Options{Runner: r})
	h := faultkit.StartHTTP(t, filepath.Dir(f.Remote.Dir), user, password)
	url := h.URL(filepath.Base(f.Remote.Dir))
	gittest.Git(t, r, f.Checkout, "remote", "set-url", "--", "origin", url)

	var logs bytes.Buffer
	d := f.Deps()
	d.Logger = slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	snap := f.Snapshot(t)
	out, err := publish.Publish(t.Context(), d, publishtest.Encode(t, f.Ready()))
	if err != nil {
		t.Fatalf("publish over http: %v", err)
	}
	if tip := f.ResultTip(t); tip != out.Commit {
		t.Errorf("result branch tip %s, want %s", tip, out.Commit)
	}
	if h.Served.Load() == 0 {
		t.Error("the HTTP remote served nothing: the test did not go over http")
	}
	if got := f.Snapshot(t); got != snap {
		t.Errorf("RX checkout changed:\n%s\nwant:\n%s", got, snap)
	}

	// Without credentials the same remote refuses: the auth is real.
	bare := h.AnonymousURL(filepath.Base(f.Remote.Dir))
	gittest.Git(t, r, f.Checkout, "remote", "set-url", "--", "origin", bare)
	_, noAuthErr := publish.Publish(t.Context(), d, publishtest.Encode(t, f.Ready()))
	if noAuthErr == nil {
		t.Fatal("publish without credentials succeeded")
	}
	t.Logf("without credentials: %v", noAuthErr)
	if h.Unauthorized.Load() == 0 {
		t.Error("the remote never refused a request without credentials")
	}

	log, err := os.ReadFile(auditPath)
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{
		"audit log": string(log), "logs": logs.String(),
		"outcome": fmt.Sprintf("%+v", out), "error": noAuthErr.Error(),
	} {
		if strings.Contains(text, password) {
			t.Errorf("the password appears in the %s", name)
		}
	}
	if !strings.Contains(string(log), "http://"+user+":"+exec.Redacted+"@") {
		t.Error("the audit log does not show the redacted remote URL: the clone's argv was not logged as expected")
	}
}
