//go:build unix

package ssh

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"rfhandoff/exec"
	"rfhandoff/internal/faultkit"
	"rfhandoff/internal/prompttest"
	"rfhandoff/internal/tasktest"
)

// sshLab is a lab whose remote is reached over ssh: a real sshd on
// 127.0.0.1, the operator's passphrase-protected key, git's ssh pointed at
// the client config by the policy's tools.ssh_command (as an operator names
// it; git's own core.sshCommand is never used), and an agent holding the key.
// startTTY runs rfhandoff args on side on a fresh pseudo-terminal (its
// controlling terminal, as in tmux) with the agent socket sock.
func startTTY(t *testing.T, side *faultkit.Side, sock string, args ...string) *prompttest.Session {
	t.Helper()
	return prompttest.Start(t, faultkit.Bin(t), args, prompttest.Options{Dir: side.Dir, Env: faultkit.SSHEnv(side, sock)})
}

// sshCase is one row of "ssh at a terminal must never hang".
type sshCase struct {
	name  string
	sock  func(l *faultkit.SSHLab, t *testing.T) string // the agent socket the command gets
	setup func(l *faultkit.SSHLab, t *testing.T)        // breaks the server side
	want  []string                                      // what the terminal must show
}

var sshCases = []sshCase{
	{name: "key not in the agent", sock: func(l *faultkit.SSHLab, t *testing.T) string { return faultkit.StartSSHAgent(t).Sock },
		want: []string{"authentication refused", "Permission denied (publickey)", "what to do:", "ssh-add"}},
	{name: "SSH_AUTH_SOCK unset", sock: func(*faultkit.SSHLab, *testing.T) string { return "" },
		want: []string{"authentication refused", "Permission denied (publickey)", "SSH_AUTH_SOCK"}},
	{name: "dead agent", sock: func(l *faultkit.SSHLab, t *testing.T) string {
		a := faultkit.StartSSHAgent(t)
		a.Stop()
		return a.Sock
	}, want: []string{"authentication refused", "Permission denied (publickey)", "ssh-add"}},
	{name: "host key changed", setup: func(l *faultkit.SSHLab, t *testing.T) {
		other := filepath.Join(t.TempDir(), "other")
		faultkit.SSHKeyPair(t, other, "")
		pub, err := os.ReadFile(other + ".pub")
		if err != nil {
			t.Fatal(err)
		}
		l.SSHD.SetKnownHostKey(string(pub))
	}, want: []string{"host key unknown or changed", "has changed", "ssh-keygen", "-R"}},
	{name: "sshd down", setup: func(l *faultkit.SSHLab, t *testing.T) { l.SSHD.Stop() },
		want: []string{"remote unreachable", "Connection refused", "reachable"}},
}

func (c sshCase) prepare(t *testing.T, l *faultkit.SSHLab) string {
	sock := l.Agent.Sock
	if c.sock != nil {
		sock = c.sock(l, t)
	}
	if c.setup != nil {
		c.setup(l, t)
	}
	return sock
}

// endsQuickly waits for s to end non-zero within faultkit.SSHQuick, its terminal
// showing every want, and never git's footer alone.
func endsQuickly(t *testing.T, s *prompttest.Session, want []string) {
	t.Helper()
	start := time.Now()
	st := s.Wait(faultkit.SSHQuick)
	out := s.TTY.String()
	t.Logf("ended after %v with exit %d:\n%s", time.Since(start).Round(time.Millisecond), st.ExitCode(), out)
	if st.ExitCode() == 0 {
		t.Errorf("exit 0, want non-zero")
	}
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("terminal does not show %q", w)
		}
	}
}

// Invariant: with the remote over ssh, a command at a terminal never
// hangs on a prompt nobody sees (ssh under git has no controlling
// terminal), and says why it failed: `rx check` ends non-zero within
// seconds with the cause and what to do, for each way ssh can fail.
func TestSSHRxCheckAtTerminal(t *testing.T) {
	t.Parallel()
	t.Run("key in the agent", func(t *testing.T) {
		t.Parallel()
		l := faultkit.NewSSHLab(t)
		l.PushTask(tasktest.Capture("SSH_OK_0001"))
		s := startTTY(t, l.RX, l.Agent.Sock, "rx", "check")
		st := s.Wait(faultkit.Wait)
		if st.ExitCode() != 10 || !strings.Contains(s.TTY.String(), "SSH_OK_0001") {
			t.Fatalf("rx check over ssh with the key in the agent: exit %d, want 10 (a task awaits approval)\n%s\nsshd log:\n%s",
				st.ExitCode(), s.TTY.String(), l.SSHD.Log())
		}
	})
	for _, c := range sshCases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			l := faultkit.NewSSHLab(t)
			l.PushTask(tasktest.Capture("SSH_FAIL_0001"))
			sock := c.prepare(t, l)
			s := startTTY(t, l.RX, sock, "rx", "check")
			endsQuickly(t, s, c.want)
			if out := s.TTY.String(); strings.Contains(out, "/usr/bin/git -c") {
				t.Errorf("the message shows git's full argv (it belongs in the audit log and -v)")
			}
			// The audit log keeps the full argv and the cause line.
			calls := faultkit.GitCalls(faultkit.AuditEntries(t, l.RX.AuditPath()), "fetch")
			if len(calls) == 0 || !calls[len(calls)-1].Failed() {
				t.Fatalf("no failed fetch in the audit log: %+v", calls)
			}
			if e := calls[len(calls)-1].End.Error; !strings.Contains(e, c.want[1]) || !strings.Contains(e, "core.hooksPath") {
				t.Errorf("audit end line lacks the argv or the cause %q: %s", c.want[1], e)
			}
		})
	}
}

// -v shows the failed git's full argv and stderr, which the short message
// leaves out.
func TestSSHVerboseShowsArgv(t *testing.T) {
	t.Parallel()
	l := faultkit.NewSSHLab(t)
	l.PushTask(tasktest.Capture("SSH_VERBOSE_0001"))
	s := startTTY(t, l.RX, faultkit.StartSSHAgent(t).Sock, "-v", "rx", "check")
	endsQuickly(t, s, []string{"authentication refused", "failed subprocess", "core.hooksPath", "Permission denied (publickey)"})
}

// Invariant: `tx watch` checks at start that the result branch can be read
// with the operator's credentials: a refused key or a changed host key
// ends it at once (non-zero, with what to do) and leaves no watcher
// recorded as running; a remote that is down is left to the polls, which
// report the cause once and keep watching.
func TestSSHTxWatchStartAtTerminal(t *testing.T) {
	t.Parallel()
	t.Run("key in the agent", func(t *testing.T) {
		t.Parallel()
		l := faultkit.NewSSHLab(t)
		w := startTTY(t, l.Main, l.Agent.Sock, "tx", "watch")
		faultkit.WatcherUp(t, l.Main, w.Pid(), true)
		w.TTY.WaitForText("watching origin/rx-node", faultkit.Wait)
		faultkit.WaitFetches(t, l.Main, "a successful fetch over ssh", 1, faultkit.Call.OK)
		w.Signal(syscall.SIGTERM)
		if st := w.Wait(faultkit.Wait); st.ExitCode() != 0 {
			t.Errorf("tx watch after SIGTERM: exit %d\n%s", st.ExitCode(), w.TTY.String())
		}
	})
	for _, c := range sshCases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			l := faultkit.NewSSHLab(t)
			sock := c.prepare(t, l)
			w := startTTY(t, l.Main, sock, "tx", "watch")
			if c.name == "sshd down" {
				w.TTY.WaitForText("remote unreachable", faultkit.SSHQuick)
				if strings.Count(w.TTY.String(), "remote unreachable") != 1 {
					t.Errorf("the cause was not reported exactly once:\n%s", w.TTY.String())
				}
				faultkit.WaitFetches(t, l.Main, "three failed fetches with sshd down", 3, faultkit.Call.Failed)
				l.SSHD.Start()
				w.TTY.WaitForText("recovered", faultkit.Wait)
				if n := strings.Count(w.TTY.String(), "remote unreachable"); n != 1 {
					t.Errorf("the cause was reported %d times, want once:\n%s", n, w.TTY.String())
				}
				w.Signal(syscall.SIGTERM)
				if st := w.Wait(faultkit.Wait); st.ExitCode() != 0 {
					t.Errorf("tx watch after SIGTERM: exit %d", st.ExitCode())
				}
				return
			}
			endsQuickly(t, w, append([]string{"checking that origin/rx-node can be read"}, c.want...))
			if calls := faultkit.GitCalls(faultkit.AuditEntries(t, l.Main.AuditPath()), "fetch"); len(calls) != 0 {
				t.Errorf("tx watch fetched %d times after its start check failed", len(calls))
			}
		})
	}
}

// Invariant: `rx capture` with a key the remote refuses fails before
// any HackRF tool starts: a dead agent is found before a capture, not at
// COMPLETE. (The host clock query may come first: it opens nothing.)
func TestSSHRxCaptureRefusedKeyBeforeHackRF(t *testing.T) {
	t.Parallel()
	l := faultkit.NewSSHLab(t)
	commit, data := l.PushTask(tasktest.Capture("SSH_CAPTURE_0001"))
	l.Approve("SSH_CAPTURE_0001", data, commit)
	dead := faultkit.StartSSHAgent(t)
	dead.Stop()
	s := startTTY(t, l.RX, dead.Sock, "rx", "capture")
	endsQuickly(t, s, []string{"authentication refused", "ssh-add"})
	for _, e := range faultkit.AuditEntries(t, l.RX.AuditPath()) {
		if e.Event == exec.EventStart && e.Tool != exec.Git && e.Tool != exec.ClockTool {
			t.Errorf("%s ran although the remote refused the key: %v", e.Tool, e.Argv)
		}
	}
}

// Invariant: `rx watch` at a terminal outlives a refused key: it reports
// the cause once (not every poll), keeps polling, and says when the key is
// back in the agent.
func TestSSHRxWatchReportsCauseOnce(t *testing.T) {
	t.Parallel()
	l := faultkit.NewSSHLab(t)
	empty := faultkit.StartSSHAgent(t)
	w := startTTY(t, l.RX, empty.Sock, "rx", "watch")
	w.TTY.WaitForText("authentication refused", faultkit.SSHQuick)
	faultkit.WaitFetches(t, l.RX, "three failed fetches with the key not in the agent", 3, faultkit.Call.Failed)
	if w.Exited() {
		t.Fatalf("rx watch died on a refused key:\n%s", w.TTY.String())
	}
	empty.Add(l.SSHD.Key, l.SSHD.Passphrase)
	w.TTY.WaitForText("polling resumed", faultkit.Wait)
	t.Logf("rx watch:\n%s", w.TTY.String())
	if n := strings.Count(w.TTY.String(), "authentication refused"); n != 1 {
		t.Errorf("the cause was reported %d times, want once:\n%s", n, w.TTY.String())
	}
	w.Signal(syscall.SIGTERM)
	if st := w.Wait(faultkit.Wait); st.ExitCode() != 0 {
		t.Errorf("rx watch after SIGTERM: exit %d\n%s", st.ExitCode(), w.TTY.String())
	}
}

// Invariant: `tx execute` at a terminal whose re-fetch meets a refused key
// ends at once with the cause, runs no action and leaves the record
// unused: after `ssh-add` the same record still works (a used one would
// be refused).
func TestSSHTxExecuteRefusedKey(t *testing.T) {
	t.Parallel()
	l := faultkit.NewSSHLab(t)
	l.PushTask(tasktest.Capture("SSH_EXEC_0001"))
	l.PushResult(l.Encode(l.Ready("SSH_EXEC_0001")))
	w := startTTY(t, l.Main, l.Agent.Sock, "tx", "watch")
	faultkit.TypePhrase(t, w)
	record := w.WaitFor(faultkit.ReAuthorized, faultkit.Wait)[1]
	w.Signal(syscall.SIGTERM)
	if st := w.Wait(faultkit.Wait); st.ExitCode() != 0 {
		t.Fatalf("tx watch after SIGTERM: exit %d\n%s", st.ExitCode(), w.TTY.String())
	}

	empty := faultkit.StartSSHAgent(t)
	x := startTTY(t, l.Main, empty.Sock, "tx", "execute", record)
	faultkit.TypePhrase(t, x)
	endsQuickly(t, x, []string{"refused at re-check", "authentication refused", "ssh-add"})

	empty.Add(l.SSHD.Key, l.SSHD.Passphrase)
	y := startTTY(t, l.Main, empty.Sock, "tx", "execute", record)
	faultkit.TypePhrase(t, y)
	if st := y.Wait(faultkit.Wait); st.ExitCode() != 0 {
		t.Errorf("tx execute with the key back in the agent: exit %d, want 0 (the record was still unused)\n%s", st.ExitCode(), y.TTY.String())
	}
}
