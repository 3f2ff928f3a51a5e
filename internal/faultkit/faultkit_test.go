package faultkit

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"rfhandoff/exec"
	"rfhandoff/internal/gittest"
)

func lsRemote(t *testing.T, r exec.Runner, url string, timeout time.Duration) (string, error) {
	t.Helper()
	res, err := r.Run(context.Background(), exec.Cmd{Tool: exec.Git, Dir: t.TempDir(), Timeout: timeout,
		Args: []string{"ls-remote", "--end-of-options", url, "refs/heads/main"}})
	return string(res.Stdout), err
}

// The daemon serves the remote, refuses while stopped and serves again
// after a restart on the same port.
func TestDaemonStopRestart(t *testing.T) {
	t.Parallel()
	home := gittest.Home(t)
	r := gittest.RunnerWithHome(t, home, "git")
	rem := gittest.NewBareRemoteWith(t, r, "main")
	d := gittest.StartDaemon(t, filepath.Dir(rem.Dir), gittest.Environ(home))
	url := d.URL(filepath.Base(rem.Dir))
	tip := gittest.Tip(t, rem, "main")

	out, err := lsRemote(t, r, url, time.Minute)
	if err != nil || !strings.HasPrefix(out, tip) {
		t.Fatalf("ls-remote through the daemon: %q, %v", out, err)
	}
	port := d.Port
	d.Stop()
	if _, err := lsRemote(t, r, url, time.Minute); err == nil {
		t.Fatal("ls-remote succeeded with the daemon stopped")
	}
	d.Start()
	if d.Port != port {
		t.Fatalf("restart moved the daemon from port %d to %d", port, d.Port)
	}
	if out, err := lsRemote(t, r, url, time.Minute); err != nil || !strings.HasPrefix(out, tip) {
		t.Fatalf("ls-remote after restart: %q, %v", out, err)
	}
}

// The smart-HTTP remote refuses without credentials and serves fetch,
// clone and push with them.
func TestHTTPRemoteAuth(t *testing.T) {
	t.Parallel()
	home := gittest.Home(t)
	r := gittest.RunnerWithHome(t, home, "http")
	rem := gittest.NewBareRemoteWith(t, r, "main")
	EnableHTTPPush(t, rem.Dir)
	h := StartHTTP(t, filepath.Dir(rem.Dir), "operator", "s3cret-"+randHex(t))
	repo := filepath.Base(rem.Dir)

	if _, err := lsRemote(t, r, h.AnonymousURL(repo), time.Minute); err == nil {
		t.Fatal("anonymous ls-remote succeeded")
	}
	if h.Unauthorized.Load() == 0 {
		t.Error("no request was refused for missing credentials")
	}
	out, err := lsRemote(t, r, h.URL(repo), time.Minute)
	if err != nil || !strings.HasPrefix(out, gittest.Tip(t, rem, "main")) {
		t.Fatalf("authenticated ls-remote: %q, %v\n%s", out, err, h.BackendStderr())
	}
	work := filepath.Join(t.TempDir(), "clone")
	gittest.Git(t, r, filepath.Dir(work), "clone", "--quiet", "--end-of-options", h.URL(repo), work)
	gittest.Git(t, r, work, "commit", "--quiet", "--allow-empty", "-m", "over http")
	gittest.Git(t, r, work, "push", "--quiet", "--end-of-options", "origin", "HEAD:refs/heads/main")
	want := strings.TrimSpace(gittest.Git(t, r, work, "rev-parse", "HEAD"))
	if got := gittest.Tip(t, rem, "main"); got != want {
		t.Fatalf("after push over http the remote is at %s, want %s\n%s", got, want, h.BackendStderr())
	}
}

// Git against the black hole hangs until its timeout; the hole saw it.
func TestBlackHoleTimesOut(t *testing.T) {
	t.Parallel()
	home := gittest.Home(t)
	r := gittest.RunnerWithHome(t, home, "git")
	b := StartBlackHole(t)
	// A loaded machine (git.exe under Wine beside other tests) can spend
	// the whole timeout starting git: then the hole saw nothing, and the
	// run is tried again with a longer one.
	for timeout := 1500 * time.Millisecond; ; timeout *= 4 {
		start := time.Now()
		_, err := lsRemote(t, r, b.URL("remote.git"), timeout)
		// The runner's own timeout (Cmd.Timeout) stopped it: its error
		// matches context.DeadlineExceeded and says after how long.
		if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), ": timed out after "+timeout.String()) {
			t.Fatalf("ls-remote against a black hole: %v, want the runner's timeout after %s", err, timeout)
		}
		if d := time.Since(start); d > timeout+time.Minute {
			t.Errorf("the timeout of %s took %v", timeout, d)
		}
		if b.Accepted.Load() > 0 {
			return
		}
		if timeout > 20*time.Second {
			t.Fatal("the black hole accepted no connection")
		}
		t.Logf("git did not reach the black hole within %s on this loaded machine; again with a longer timeout", timeout)
	}
}

// A fetch cut mid-transfer fails and creates no ref; the same fetch
// without the cut succeeds.
func TestProxyCutsMidFetch(t *testing.T) {
	t.Parallel()
	home := gittest.Home(t)
	r := gittest.RunnerWithHome(t, home, "git")
	rem := gittest.NewBareRemoteWith(t, r, "main")
	// Incompressible content makes a pack far bigger than the cut.
	tip := gittest.Seed(t, rem, "main", map[string]string{"blob.bin": bigRandom(t, 256<<10)})
	d := gittest.StartDaemon(t, filepath.Dir(rem.Dir), gittest.Environ(home))
	p := StartProxy(t, d.Addr())
	url := p.URL(filepath.Base(rem.Dir))

	local := filepath.Join(t.TempDir(), "local")
	gittest.Git(t, r, filepath.Dir(local), "init", "--quiet", local)
	fetch := func() error {
		_, err := r.Run(context.Background(), exec.Cmd{Tool: exec.Git, Dir: local, Timeout: time.Minute,
			Args: []string{"fetch", "--no-tags", "--end-of-options", url, "refs/heads/main:refs/remotes/origin/main"}})
		return err
	}
	p.CutAfter(8 << 10)
	if err := fetch(); err == nil {
		t.Fatal("a fetch cut after 8 KiB succeeded")
	}
	if p.Cuts.Load() == 0 {
		t.Fatal("the proxy cut nothing")
	}
	if refs := gittest.Git(t, r, local, "for-each-ref"); refs != "" {
		t.Fatalf("a cut fetch left refs: %q", refs)
	}
	p.CutAfter(0)
	if err := fetch(); err != nil {
		t.Fatalf("fetch without the cut: %v", err)
	}
	if got := strings.TrimSpace(gittest.Git(t, r, local, "rev-parse", "refs/remotes/origin/main")); got != tip {
		t.Fatalf("fetched %s, want %s", got, tip)
	}
}

func randHex(t testing.TB) string {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b[:])
}

func bigRandom(t testing.TB, n int) string {
	b := make([]byte, n/2)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}
