package faultkit

import (
	"crypto/subtle"
	"fmt"
	"io"
	"net/http"
	"net/http/cgi"
	"net/http/httptest"
	"net/url"
	"os"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/cli/safeexec"
)

// HTTPRemote is an authenticated smart-HTTP git server: `git http-backend`
// run by net/http/cgi inside an httptest server that demands Basic auth.
// Pushes work for the authenticated user (REMOTE_USER is set) and for
// repositories with http.receivepack enabled (see EnableHTTPPush).
type HTTPRemote struct {
	Root       string // GIT_PROJECT_ROOT: the directory holding the bare repositories
	User, Pass string
	Server     *httptest.Server

	// Unauthorized counts requests refused for missing or wrong credentials;
	// Served counts requests handed to git http-backend.
	Unauthorized, Served atomic.Int64

	mu     sync.Mutex
	stderr []byte // http-backend's stderr, for failure messages
}

// StartHTTP serves the bare repositories under root. It is closed when the
// test ends.
func StartHTTP(t testing.TB, root, user, pass string) *HTTPRemote {
	t.Helper()
	git, err := safeexec.LookPath("git")
	if err != nil {
		t.Skipf("git not found: %v", err)
	}
	needHTTPTransport(t, git)
	h := &HTTPRemote{Root: root, User: user, Pass: pass}
	backend := &cgi.Handler{
		Path: git,
		Args: []string{"http-backend"},
		Dir:  root,
		Env: []string{
			"GIT_PROJECT_ROOT=" + root,
			"GIT_HTTP_EXPORT_ALL=1",
			"REMOTE_USER=" + user,
			"GIT_CONFIG_NOSYSTEM=1",
			"HOME=" + root,
		},
		Stderr: writerFunc(h.logStderr),
	}
	h.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u, p, ok := r.BasicAuth()
		if !ok || subtle.ConstantTimeCompare([]byte(u), []byte(user)) != 1 ||
			subtle.ConstantTimeCompare([]byte(p), []byte(pass)) != 1 {
			h.Unauthorized.Add(1)
			w.Header().Set("WWW-Authenticate", `Basic realm="internal/faultkit"`)
			http.Error(w, "authentication required", http.StatusUnauthorized)
			return
		}
		h.Served.Add(1)
		// The backend needs no credentials: keep them out of its environment.
		r = r.Clone(r.Context())
		r.Header.Del("Authorization")
		backend.ServeHTTP(w, r)
	}))
	t.Cleanup(h.Server.Close)
	return h
}

// URL is the repository's URL with the credentials in it, as an operator
// would configure the remote (user:pass@host).
func (h *HTTPRemote) URL(repo string) string {
	u, err := url.Parse(h.Server.URL)
	if err != nil {
		panic(err)
	}
	u.User = url.UserPassword(h.User, h.Pass)
	u.Path = "/" + repo
	return u.String()
}

// AnonymousURL is the repository's URL without credentials.
func (h *HTTPRemote) AnonymousURL(repo string) string { return h.Server.URL + "/" + repo }

// BackendStderr is what git http-backend wrote to stderr so far.
func (h *HTTPRemote) BackendStderr() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return string(h.stderr)
}

func (h *HTTPRemote) logStderr(p []byte) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.stderr) < 64<<10 {
		h.stderr = append(h.stderr, p...)
	}
	return len(p), nil
}

// EnableHTTPPush sets http.receivepack=true in the bare repository's own
// config file, so git http-backend accepts pushes to it.
func EnableHTTPPush(t testing.TB, bareDir string) {
	t.Helper()
	f, err := os.OpenFile(bareDir+"/config", os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := fmt.Fprint(f, "[http]\n\treceivepack = true\n"); err != nil {
		t.Fatal(err)
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

var _ io.Writer = writerFunc(nil)
