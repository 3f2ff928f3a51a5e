package gittest

import (
	"fmt"
	"net"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/cli/safeexec"
)

// Daemon is a `git daemon` on 127.0.0.1 serving every repository under
// Base, with receive-pack enabled so pushes work too. A test stops it and
// starts it again on the same port to play a remote that goes away and
// comes back.
//
// It is started with os.StartProcess, not through rfhandoff's exec runner:
// `daemon` is not (and must not be) an allowlisted git subcommand.
type Daemon struct {
	t    testing.TB
	git  string
	Base string
	env  []string
	Port int

	proc *os.Process
	done chan struct{}
}

// StartDaemon serves the repositories under base on a free port and waits
// until it accepts connections. env is the daemon's whole environment (use
// Environ(home)). It is stopped when the test ends.
func StartDaemon(t testing.TB, base string, env []string) *Daemon {
	t.Helper()
	git, err := safeexec.LookPath("git")
	if err != nil {
		t.Skipf("git not found: %v", err)
	}
	d := &Daemon{t: t, git: git, Base: base, env: env, Port: FreePort(t)}
	d.Start()
	t.Cleanup(d.Stop)
	return d
}

// Addr is host:port.
func (d *Daemon) Addr() string { return net.JoinHostPort("127.0.0.1", strconv.Itoa(d.Port)) }

// URL is the git:// URL of repo (a path under Base).
func (d *Daemon) URL(repo string) string { return fmt.Sprintf("git://%s/%s", d.Addr(), repo) }

// Running reports whether the daemon is up.
func (d *Daemon) Running() bool { return d.proc != nil }

// Start (re)starts the daemon on its port and waits until it listens.
func (d *Daemon) Start() {
	d.t.Helper()
	if d.proc != nil {
		d.t.Fatal("gittest: git daemon already running")
	}
	prog, args := daemonCommand(d.git)
	args = append(args, "--listen=127.0.0.1", "--port="+strconv.Itoa(d.Port),
		"--reuseaddr", "--export-all", "--enable=receive-pack", "--informative-errors",
		"--base-path="+d.Base, d.Base)
	devnull, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		d.t.Fatal(err)
	}
	defer devnull.Close()
	// Its own process group, so Stop also ends the per-connection children
	// (killing only the daemon would leave transfers in progress running).
	proc, err := os.StartProcess(prog, args, &os.ProcAttr{
		Dir: d.Base, Env: d.env, Files: []*os.File{devnull, devnull, devnull},
		Sys: groupAttr(),
	})
	if err != nil {
		d.t.Fatalf("faultkit: starting git daemon: %v", err)
	}
	d.proc, d.done = proc, make(chan struct{})
	go func(done chan struct{}) { _, _ = proc.Wait(); close(done) }(d.done)

	deadline := time.Now().Add(30 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", d.Addr(), time.Second)
		if err == nil {
			c.Close()
			return
		}
		select {
		case <-d.done:
			d.proc = nil
			d.t.Fatalf("gittest: git daemon on port %d exited at start", d.Port)
		default:
		}
		if time.Now().After(deadline) {
			d.Stop()
			d.t.Fatalf("gittest: git daemon not listening on %s: %v", d.Addr(), err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Stop kills the daemon's process group and waits for it to exit; later
// connections are refused until Start.
func (d *Daemon) Stop() {
	if d.proc == nil {
		return
	}
	killGroup(d.proc)
	select {
	case <-d.done:
	case <-time.After(30 * time.Second):
		d.t.Errorf("gittest: git daemon %d did not exit", d.proc.Pid)
	}
	d.proc = nil
}

// Restart is Stop then Start on the same port.
func (d *Daemon) Restart() {
	d.t.Helper()
	d.Stop()
	d.Start()
}

// FreePort asks the kernel for a free TCP port on 127.0.0.1.
func FreePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}
