package rxtest

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/cli/safeexec"
)

// Daemon is a `git daemon` serving one directory's repositories over
// git://127.0.0.1:<Port>, which a test stops and starts again on the same
// port to play a remote that goes away and comes back.
//
// It is started with os.StartProcess, not through rfhandoff's exec runner:
// `daemon` is not (and must not be) an allowlisted git subcommand.
type Daemon struct {
	t    testing.TB
	git  string
	base string
	env  []string
	Port int
	proc *os.Process
	done chan struct{}
}

// StartDaemon serves the repositories under base (e.g. the directory that
// holds remote.git) on a free port of 127.0.0.1 and waits until it accepts
// connections. It is stopped when the test ends.
func StartDaemon(t testing.TB, base string, env []string) *Daemon {
	t.Helper()
	git, err := safeexec.LookPath("git")
	if err != nil {
		t.Skipf("git not found: %v", err)
	}
	d := &Daemon{t: t, git: git, base: base, env: env, Port: freePort(t)}
	d.Start()
	t.Cleanup(d.Stop)
	return d
}

// URL is the git:// URL of repo (a path under base).
func (d *Daemon) URL(repo string) string {
	return fmt.Sprintf("git://127.0.0.1:%d/%s", d.Port, repo)
}

// RemoteURL is the URL of the fixture's remote, served by a daemon whose
// base is the remote's parent directory.
func (rx *RX) RemoteURL(d *Daemon) string { return d.URL(filepath.Base(rx.Remote.Dir)) }

// Start (re)starts the daemon on its port and waits until it listens.
func (d *Daemon) Start() {
	d.t.Helper()
	if d.proc != nil {
		d.t.Fatal("rxtest: daemon already running")
	}
	args := []string{d.git, "daemon", "--listen=127.0.0.1", "--port=" + strconv.Itoa(d.Port),
		"--reuseaddr", "--export-all", "--informative-errors", "--base-path=" + d.base, d.base}
	devnull, err := os.Open(os.DevNull)
	if err != nil {
		d.t.Fatal(err)
	}
	defer devnull.Close()
	// Its own process group, so Stop also ends the upload-pack children.
	proc, err := os.StartProcess(d.git, args, &os.ProcAttr{
		Dir: d.base, Env: d.env, Files: []*os.File{devnull, devnull, devnull},
		Sys: &syscall.SysProcAttr{Setpgid: true},
	})
	if err != nil {
		d.t.Fatalf("rxtest: starting git daemon: %v", err)
	}
	d.proc, d.done = proc, make(chan struct{})
	go func(done chan struct{}) { _, _ = proc.Wait(); close(done) }(d.done)

	deadline := time.Now().Add(30 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(d.Port)), time.Second)
		if err == nil {
			c.Close()
			return
		}
		select {
		case <-d.done:
			d.proc = nil
			d.t.Fatalf("rxtest: git daemon on port %d exited at start", d.Port)
		default:
		}
		if time.Now().After(deadline) {
			d.Stop()
			d.t.Fatalf("rxtest: git daemon not listening on port %d: %v", d.Port, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Stop kills the daemon's process group and waits for it to exit. Later
// connections are refused until Start.
func (d *Daemon) Stop() {
	if d.proc == nil {
		return
	}
	_ = syscall.Kill(-d.proc.Pid, syscall.SIGKILL)
	select {
	case <-d.done:
	case <-time.After(30 * time.Second):
		d.t.Errorf("rxtest: git daemon %d did not exit", d.proc.Pid)
	}
	d.proc = nil
}

// freePort asks the kernel for a free TCP port on 127.0.0.1.
func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}
