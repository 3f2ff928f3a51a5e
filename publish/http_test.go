package publish_test

import (
	"bytes"
	"crypto/subtle"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/cgi"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"rfhandoff/exec"
	"rfhandoff/gitcli/gittest"
	"rfhandoff/publish"
	"rfhandoff/publish/publishtest"
)

// httpBackend finds git's smart-HTTP CGI program.
func httpBackend(t *testing.T) string {
	t.Helper()
	for _, p := range []string{"/usr/lib/git-core/git-http-backend", "/usr/libexec/git-core/git-http-backend", "/usr/local/libexec/git-core/git-http-backend"} {
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			return p
		}
	}
	t.Skip("git-http-backend not found")
	return ""
}

// TestPublishOverCredentialedHTTP publishes to a smart-HTTP remote that
// demands Basic auth, with the credentials in the remote URL (as some
// operators configure them). It works, and the password appears nowhere:
// not in the audit log, not in the logs, not in the outcome.
func TestPublishOverCredentialedHTTP(t *testing.T) {
	t.Parallel()
	const user, password = "rx", "s3cret-Pa55word"
	backend := httpBackend(t)

	r, auditPath := gittest.Stack(t, exec.Options{Role: exec.RoleRX, GitProtocols: []string{"file", "http"},
		Environ: gittest.Environ(gittest.Home(t))})
	f := publishtest.New(t, publishtest.Options{Runner: r})

	var (
		mu             sync.Mutex
		denied, served int
	)
	cgiHandler := &cgi.Handler{
		Path: backend,
		Env: []string{
			"GIT_PROJECT_ROOT=" + filepath.Dir(f.Remote.Dir),
			"GIT_HTTP_EXPORT_ALL=1",
			"REMOTE_USER=" + user, // only authenticated requests get here; enables receive-pack
		},
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		u, p, ok := req.BasicAuth()
		ok = ok && subtle.ConstantTimeCompare([]byte(u+":"+p), []byte(user+":"+password)) == 1
		mu.Lock()
		if ok {
			served++
		} else {
			denied++
		}
		mu.Unlock()
		if !ok {
			w.Header().Set("WWW-Authenticate", `Basic realm="rfhandoff test"`)
			http.Error(w, "authentication required", http.StatusUnauthorized)
			return
		}
		cgiHandler.ServeHTTP(w, req)
	}))
	defer srv.Close()
	url := fmt.Sprintf("http://%s:%s@%s/%s", user, password, strings.TrimPrefix(srv.URL, "http://"), filepath.Base(f.Remote.Dir))
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
	mu.Lock()
	if served == 0 {
		t.Error("the HTTP remote served nothing: the test did not go over http")
	}
	mu.Unlock()
	if got := f.Snapshot(t); got != snap {
		t.Errorf("RX checkout changed:\n%s\nwant:\n%s", got, snap)
	}

	// Without credentials the same remote refuses: the auth is real.
	bare := strings.Replace(url, user+":"+password+"@", "", 1)
	gittest.Git(t, r, f.Checkout, "remote", "set-url", "--", "origin", bare)
	_, noAuthErr := publish.Publish(t.Context(), d, publishtest.Encode(t, f.Ready()))
	if noAuthErr == nil {
		t.Fatal("publish without credentials succeeded")
	}
	t.Logf("without credentials: %v", noAuthErr)
	mu.Lock()
	if denied == 0 {
		t.Error("the remote never refused a request without credentials")
	}
	mu.Unlock()

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
