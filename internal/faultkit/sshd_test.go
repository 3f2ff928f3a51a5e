//go:build unix

package faultkit

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"rfhandoff/exec"
	"rfhandoff/internal/gittest"
)

// sshRunner is a git runner over ssh whose ssh command uses the server's
// client config and whose environment holds extra (SSH_AUTH_SOCK).
func sshRunner(t *testing.T, s *SSHD, extra ...string) *exec.Stack {
	t.Helper()
	home := gittest.Home(t)
	var env []string
	for _, kv := range gittest.Environ(home) {
		if !strings.HasPrefix(kv, "SSH_AUTH_SOCK=") && !strings.HasPrefix(kv, "SSH_AGENT_PID=") {
			env = append(env, kv)
		}
	}
	r, _ := gittest.Stack(t, exec.Options{Role: exec.RoleGit, GitProtocols: gittest.Transports("ssh"),
		SSHCommand: s.SSHCommand(), Environ: append(env, extra...)})
	return r
}

// The server accepts the key from the agent and refuses without it; the
// known_hosts decides whether the client trusts it; a stopped server
// refuses connections. Every failure is quick: nothing prompts.
func TestSSHDAgentAndFailures(t *testing.T) {
	t.Parallel()
	s := StartSSHD(t)
	agent := StartSSHAgent(t)
	agent.Add(s.Key, s.Passphrase)
	empty := StartSSHAgent(t)
	rem := gittest.NewBareRemote(t, "main")
	url := s.URL(rem.Dir)
	tip := gittest.Tip(t, rem, "main")

	out, err := lsRemote(t, sshRunner(t, s, "SSH_AUTH_SOCK="+agent.Sock), url, time.Minute)
	if err != nil || !strings.HasPrefix(out, tip) {
		t.Fatalf("ls-remote over ssh with the key in the agent: %q, %v\nsshd log:\n%s", out, err, s.Log())
	}

	fail := func(name, want string, r exec.Runner) {
		t.Helper()
		start := time.Now()
		_, err := lsRemote(t, r, url, time.Minute)
		if err == nil {
			t.Fatalf("%s: ls-remote succeeded", name)
		}
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("%s: took %v (a prompt nobody sees?)", name, d)
		}
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error does not say %q:\n%v", name, want, err)
		}
	}
	fail("key not in the agent", "Permission denied (publickey)", sshRunner(t, s, "SSH_AUTH_SOCK="+empty.Sock))
	fail("no agent", "Permission denied (publickey)", sshRunner(t, s))
	dead := StartSSHAgent(t)
	dead.Stop()
	fail("dead agent", "Permission denied (publickey)", sshRunner(t, s, "SSH_AUTH_SOCK="+dead.Sock))

	withAgent := sshRunner(t, s, "SSH_AUTH_SOCK="+agent.Sock)
	other := filepath.Join(t.TempDir(), "other")
	SSHKeyPair(t, other, "")
	pub, err := os.ReadFile(other + ".pub")
	if err != nil {
		t.Fatal(err)
	}
	real, err := os.ReadFile(s.KnownHosts)
	if err != nil {
		t.Fatal(err)
	}
	s.SetKnownHostKey(string(pub))
	fail("host key changed", "REMOTE HOST IDENTIFICATION HAS CHANGED", withAgent)
	writeSSHFile(t, s.KnownHosts, "")
	fail("host key unknown", "Host key verification failed", withAgent)
	writeSSHFile(t, s.KnownHosts, string(real))

	s.Stop()
	fail("sshd down", "Connection refused", withAgent)
	s.Start()
	if out, err := lsRemote(t, withAgent, url, time.Minute); err != nil || !strings.HasPrefix(out, tip) {
		t.Fatalf("ls-remote after restarting sshd: %q, %v", out, err)
	}
}
