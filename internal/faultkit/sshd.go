//go:build unix

package faultkit

import (
	"fmt"
	"io"
	"net"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cli/safeexec"

	"rfhandoff/internal/gittest"
)

// SSHD is a real OpenSSH server on 127.0.0.1 with its own host key and
// configuration in a temporary directory, accepting one passphrase-
// protected client key for the current user. Git runs over it as
// ssh://USER@127.0.0.1:PORT/abs/path. It can be stopped and started again
// on the same port.
//
// OpenSSH reads ~/.ssh from the password database, not $HOME, so a test
// never points ssh at a temporary ~/.ssh: the client side is a config file
// (ClientConfig) that git uses through the ssh command "ssh -F <file>"
// (see SSHCommand). The real ~/.ssh is never read.
type SSHD struct {
	t    testing.TB
	sshd string
	Dir  string // config, host key, authorized_keys, client key, known_hosts
	Port int
	User string

	Key        string // the client's private key (encrypted with Passphrase)
	Passphrase string
	KnownHosts string // holds the server's real host key
	// ClientConfig is the ssh_config the client uses (IdentityFile Key,
	// UserKnownHostsFile KnownHosts, no password or keyboard-interactive).
	ClientConfig string

	config string
	proc   *os.Process
	done   chan struct{}
}

// privsepDir is Debian's compiled-in privilege separation directory.
const privsepDir = "/run/sshd"

// StartSSHD starts sshd with a fresh host key and client key. It skips
// the test when sshd, ssh or ssh-keygen is not installed. sshd is stopped
// (by its pid) when the test ends.
func StartSSHD(t testing.TB) *SSHD {
	t.Helper()
	sshd := "/usr/sbin/sshd"
	if _, err := os.Stat(sshd); err != nil {
		if sshd, err = safeexec.LookPath("sshd"); err != nil {
			t.Skip("sshd not installed (Debian: openssh-server)")
		}
	}
	for _, tool := range []string{"ssh", "ssh-keygen", "ssh-agent", "ssh-add"} {
		if _, err := safeexec.LookPath(tool); err != nil {
			t.Skipf("%s not installed (Debian: openssh-client)", tool)
		}
	}
	u, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	if os.Geteuid() == 0 {
		// sshd run as root insists on its privilege separation directory,
		// which Debian creates at boot (tmpfiles) but a fresh container
		// may lack; it is empty and root's.
		if err := os.MkdirAll(privsepDir, 0o755); err != nil {
			t.Skipf("sshd needs %s: %v", privsepDir, err)
		}
	}
	dir := t.TempDir()
	s := &SSHD{t: t, sshd: sshd, Dir: dir, Port: gittest.FreePort(t), User: u.Username,
		Key: filepath.Join(dir, "id_ed25519"), Passphrase: "faultkit passphrase",
		KnownHosts: filepath.Join(dir, "known_hosts"), ClientConfig: filepath.Join(dir, "ssh_config"),
		config: filepath.Join(dir, "sshd_config")}
	hostKey := filepath.Join(dir, "host_ed25519")
	SSHKeyPair(t, hostKey, "")
	SSHKeyPair(t, s.Key, s.Passphrase)
	pub, err := os.ReadFile(s.Key + ".pub")
	if err != nil {
		t.Fatal(err)
	}
	writeSSHFile(t, filepath.Join(dir, "authorized_keys"), string(pub))
	hostPub, err := os.ReadFile(hostKey + ".pub")
	if err != nil {
		t.Fatal(err)
	}
	s.SetKnownHostKey(string(hostPub))

	var cfg strings.Builder
	fmt.Fprintf(&cfg, "ListenAddress 127.0.0.1:%d\nHostKey %s\nPidFile none\n", s.Port, hostKey)
	fmt.Fprintf(&cfg, "AuthorizedKeysFile %s\n", filepath.Join(dir, "authorized_keys"))
	cfg.WriteString("StrictModes no\nUsePAM no\nPubkeyAuthentication yes\nPasswordAuthentication no\n" +
		"KbdInteractiveAuthentication no\nAuthenticationMethods publickey\nAllowTcpForwarding no\n" +
		"X11Forwarding no\nPrintMotd no\nLogLevel VERBOSE\n")
	// bash reads ~/.bashrc for a command sshd starts when SHLVL says it is the
	// first shell; the account's startup files are not the lab under test,
	// and some images run seconds of setup there on every git call.
	cfg.WriteString("SetEnv SHLVL=1\n")
	fmt.Fprintf(&cfg, "AllowUsers %s\n", u.Username)
	if os.Geteuid() == 0 {
		cfg.WriteString("PermitRootLogin yes\n")
	}
	writeSSHFile(t, s.config, cfg.String())

	// The client: only this key, only this known_hosts, nothing that could
	// prompt for a password.
	writeSSHFile(t, s.ClientConfig, fmt.Sprintf("Host *\n  IdentityFile %s\n  IdentitiesOnly yes\n  UserKnownHostsFile %s\n"+
		"  GlobalKnownHostsFile /dev/null\n  PasswordAuthentication no\n  KbdInteractiveAuthentication no\n"+
		"  ConnectTimeout 10\n", s.Key, s.KnownHosts))
	s.Start()
	t.Cleanup(s.Stop)
	return s
}

// URL is the ssh:// URL of the repository at the absolute path repo.
func (s *SSHD) URL(repo string) string {
	return fmt.Sprintf("ssh://%s@127.0.0.1:%d%s", s.User, s.Port, repo)
}

// Addr is host:port.
func (s *SSHD) Addr() string { return net.JoinHostPort("127.0.0.1", strconv.Itoa(s.Port)) }

// SSHCommand is the ssh command that makes git's ssh use ClientConfig:
// the policy's tools.ssh_command (exec.Options.SSHCommand), as an operator
// names it (PROTOCOL#subprocesses; git's own core.sshCommand is never used).
func (s *SSHD) SSHCommand() string {
	return "ssh -F " + s.ClientConfig
}

// SetKnownHostKey replaces known_hosts with one line for the server's
// address holding pub (an "<type> <base64>" public key); a key other than
// the server's plays a host key that changed.
func (s *SSHD) SetKnownHostKey(pub string) {
	s.t.Helper()
	f := strings.Fields(pub)
	if len(f) < 2 {
		s.t.Fatalf("faultkit: bad public key %q", pub)
	}
	writeSSHFile(s.t, s.KnownHosts, fmt.Sprintf("[127.0.0.1]:%d %s %s\n", s.Port, f[0], f[1]))
}

// Running reports whether sshd is up.
func (s *SSHD) Running() bool { return s.proc != nil }

// Start (re)starts sshd on its port and waits until it accepts connections.
func (s *SSHD) Start() {
	s.t.Helper()
	if s.proc != nil {
		s.t.Fatal("faultkit: sshd already running")
	}
	logf, err := os.OpenFile(filepath.Join(s.Dir, "sshd.log"), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		s.t.Fatal(err)
	}
	defer logf.Close()
	devnull, err := os.Open(os.DevNull)
	if err != nil {
		s.t.Fatal(err)
	}
	defer devnull.Close()
	// -D: stay in the foreground (its pid is the one stopped); -e: log to
	// stderr (the log file). Its own group, so Stop ends the per-connection
	// children too.
	proc, err := os.StartProcess(s.sshd, []string{s.sshd, "-D", "-e", "-f", s.config}, &os.ProcAttr{
		Dir: s.Dir, Env: []string{"PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin"},
		Files: []*os.File{devnull, logf, logf},
		Sys:   &syscall.SysProcAttr{Setpgid: true},
	})
	if err != nil {
		s.t.Fatalf("faultkit: starting sshd: %v", err)
	}
	s.proc, s.done = proc, make(chan struct{})
	go func(done chan struct{}) { _, _ = proc.Wait(); close(done) }(s.done)
	deadline := time.Now().Add(30 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", s.Addr(), time.Second)
		if err == nil {
			c.Close()
			return
		}
		select {
		case <-s.done:
			s.proc = nil
			s.t.Fatalf("faultkit: sshd exited at start:\n%s", s.Log())
		default:
		}
		if time.Now().After(deadline) {
			s.Stop()
			s.t.Fatalf("faultkit: sshd not listening on %s: %v\n%s", s.Addr(), err, s.Log())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Stop kills sshd's process group and waits for it; later connections are
// refused until Start.
func (s *SSHD) Stop() {
	if s.proc == nil {
		return
	}
	_ = syscall.Kill(-s.proc.Pid, syscall.SIGKILL)
	select {
	case <-s.done:
	case <-time.After(30 * time.Second):
		s.t.Errorf("faultkit: sshd %d did not exit", s.proc.Pid)
	}
	s.proc = nil
}

// Log is what sshd logged so far (for failure messages).
func (s *SSHD) Log() string {
	b, _ := os.ReadFile(filepath.Join(s.Dir, "sshd.log"))
	return string(b)
}

// SSHAgent is a real ssh-agent on a socket in a temporary directory.
type SSHAgent struct {
	t    testing.TB
	Sock string
	proc *os.Process
	done chan struct{}
}

// StartSSHAgent starts ssh-agent in the foreground (-D) on a private socket
// and waits for the socket. It is stopped (by its pid) when the test ends.
func StartSSHAgent(t testing.TB) *SSHAgent {
	t.Helper()
	bin, err := safeexec.LookPath("ssh-agent")
	if err != nil {
		t.Skip("ssh-agent not installed (Debian: openssh-client)")
	}
	// A short path: a unix socket's path is limited to about 100 bytes.
	dir, err := os.MkdirTemp("", "fk-agent-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	a := &SSHAgent{t: t, Sock: filepath.Join(dir, "agent.sock")}
	devnull, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer devnull.Close()
	proc, err := os.StartProcess(bin, []string{bin, "-D", "-a", a.Sock}, &os.ProcAttr{
		Dir: dir, Env: []string{"PATH=/usr/bin:/bin"}, Files: []*os.File{devnull, devnull, devnull},
		Sys: &syscall.SysProcAttr{Setpgid: true},
	})
	if err != nil {
		t.Fatalf("faultkit: starting ssh-agent: %v", err)
	}
	a.proc, a.done = proc, make(chan struct{})
	go func() { _, _ = proc.Wait(); close(a.done) }()
	t.Cleanup(a.Stop)
	// Listening, not only bound: ssh-agent binds the socket before it
	// listens, and a connection in between is refused (a flake seen on a
	// loaded machine).
	Eventually(t, 10*time.Second, "ssh-agent listening on "+a.Sock, func() bool {
		c, err := net.Dial("unix", a.Sock)
		if err != nil {
			return false
		}
		c.Close()
		return true
	})
	return a
}

// Add loads the encrypted key into the agent, giving ssh-add the
// passphrase through a one-line askpass script (no terminal involved).
func (a *SSHAgent) Add(key, passphrase string) {
	a.t.Helper()
	askpass := filepath.Join(a.t.TempDir(), "askpass")
	gittest.WriteScript(a.t, askpass, "#!/bin/sh\nprintf '%s\\n' '"+strings.ReplaceAll(passphrase, "'", `'\''`)+"'\n")
	out := runSSHTool(a.t, []string{"SSH_AUTH_SOCK=" + a.Sock, "SSH_ASKPASS=" + askpass, "SSH_ASKPASS_REQUIRE=force", "DISPLAY=none"},
		"ssh-add", "-q", key)
	if out != "" {
		a.t.Logf("ssh-add: %s", out)
	}
}

// Stop kills the agent and waits for it: its socket then points at
// nothing (a dead agent).
func (a *SSHAgent) Stop() {
	if a.proc == nil {
		return
	}
	_ = syscall.Kill(-a.proc.Pid, syscall.SIGKILL)
	select {
	case <-a.done:
	case <-time.After(30 * time.Second):
		a.t.Errorf("faultkit: ssh-agent %d did not exit", a.proc.Pid)
	}
	a.proc = nil
}

// SSHKeyPair writes a new ed25519 key pair at path (and path.pub), encrypted
// with passphrase when it is not empty.
func SSHKeyPair(t testing.TB, path, passphrase string) {
	t.Helper()
	runSSHTool(t, nil, "ssh-keygen", "-q", "-t", "ed25519", "-N", passphrase, "-C", "internal/faultkit", "-f", path)
}

// runSSHTool runs an OpenSSH client tool without a terminal (its own
// session) and fails the test on a non-zero exit.
func runSSHTool(t testing.TB, env []string, name string, args ...string) string {
	t.Helper()
	bin, err := safeexec.LookPath(name)
	if err != nil {
		t.Skipf("%s not installed (Debian: openssh-client)", name)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	devnull, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer devnull.Close()
	proc, err := os.StartProcess(bin, append([]string{bin}, args...), &os.ProcAttr{
		Env: append([]string{"PATH=/usr/bin:/bin"}, env...), Files: []*os.File{devnull, w, w},
		Sys: &syscall.SysProcAttr{Setsid: true},
	})
	w.Close()
	if err != nil {
		r.Close()
		t.Fatalf("faultkit: %s: %v", name, err)
	}
	out, _ := io.ReadAll(r)
	r.Close()
	st, err := proc.Wait()
	if err != nil || !st.Success() {
		t.Fatalf("faultkit: %s %s: %v %v\n%s", name, strings.Join(args, " "), st, err, out)
	}
	return strings.TrimSpace(string(out))
}

func writeSSHFile(t testing.TB, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
}
