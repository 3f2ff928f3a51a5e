package faultkit

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cli/safeexec"

	"rfhandoff/exec"
	"rfhandoff/internal/gittest"
)

// SSHKey is a key pair (ed25519 unless made otherwise) made by the real
// ssh-keygen in a test's temporary directory, without a passphrase.
type SSHKey struct {
	Private     string // path of the private key
	Public      string // path of the public key (Private + ".pub")
	Line        string // the public key line: "ssh-ed25519 AAAA... comment"
	Fingerprint string // "SHA256:..." as ssh-keygen -l prints it
}

// NewSSHKey makes a key pair named name (also its comment) in a fresh
// temporary directory. The test is skipped when ssh-keygen is not installed.
func NewSSHKey(t testing.TB, name string) SSHKey { return NewSSHKeyOfType(t, name, "ed25519") }

// NewSSHKeyOfType is NewSSHKey for another type of key (ssh-keygen -t:
// "rsa", "ecdsa", ...).
func NewSSHKeyOfType(t testing.TB, name, keyType string) SSHKey {
	t.Helper()
	dir := t.TempDir()
	priv := filepath.Join(dir, name)
	runTool(t, "ssh-keygen", nil, "-q", "-t", keyType, "-N", "", "-C", name, "-f", priv)
	pub, err := os.ReadFile(priv + ".pub")
	if err != nil {
		t.Fatal(err)
	}
	line := strings.TrimSpace(string(pub))
	return SSHKey{Private: priv, Public: priv + ".pub", Line: line, Fingerprint: fingerprint(t, line)}
}

// PublicOnly copies the public half alone into a fresh directory and
// returns its path: signing with it needs the private half in an agent.
func (k SSHKey) PublicOnly(t testing.TB) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), filepath.Base(k.Public))
	if err := os.WriteFile(p, []byte(k.Line+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// fingerprint is ssh-keygen's SHA256 fingerprint of a public key line:
// the unpadded base64 of the SHA-256 of the key blob.
func fingerprint(t testing.TB, line string) string {
	t.Helper()
	f := strings.Fields(line)
	if len(f) < 2 {
		t.Fatalf("faultkit: not a public key line: %q", line)
	}
	blob, err := base64.StdEncoding.DecodeString(f[1])
	if err != nil {
		t.Fatalf("faultkit: public key blob: %v", err)
	}
	sum := sha256.Sum256(blob)
	return "SHA256:" + base64.RawStdEncoding.EncodeToString(sum[:])
}

// SignerLine is one allowed-signers line for key; options (such as
// `namespaces="git"`) go between the principal and the key.
func SignerLine(principal string, key SSHKey, options string) string {
	if options != "" {
		return principal + " " + options + " " + key.Line
	}
	return principal + " " + key.Line
}

// WriteAllowedSigners writes lines as an allowed-signers file at path.
func WriteAllowedSigners(t testing.TB, path string, lines ...string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
}

// Agent is a real ssh-agent listening on a socket in a temporary directory,
// started by the test and stopped by its pid.
type Agent struct {
	t    testing.TB
	Sock string
	proc *os.Process
	done chan struct{}
}

// StartAgent starts ssh-agent in the foreground (-D) on a fresh socket and
// waits until the socket exists. It is stopped when the test ends.
func StartAgent(t testing.TB) *Agent {
	t.Helper()
	bin, err := safeexec.LookPath("ssh-agent")
	if err != nil {
		t.Skipf("ssh-agent is not installed: %v", err)
	}
	// A short directory: a unix socket path is limited to ~100 bytes.
	dir, err := os.MkdirTemp("", "rfh-agent")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	a := &Agent{t: t, Sock: filepath.Join(dir, "s"), done: make(chan struct{})}
	devnull, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer devnull.Close()
	a.proc, err = os.StartProcess(bin, []string{bin, "-D", "-a", a.Sock}, &os.ProcAttr{
		Env: []string{"PATH=" + os.Getenv("PATH")}, Files: []*os.File{devnull, devnull, devnull},
	})
	if err != nil {
		t.Fatalf("faultkit: starting ssh-agent: %v", err)
	}
	go func() { _, _ = a.proc.Wait(); close(a.done) }()
	t.Cleanup(a.Stop)
	Eventually(t, 10*time.Second, "ssh-agent socket", func() bool {
		_, err := os.Stat(a.Sock)
		return err == nil
	})
	return a
}

// Env is the variable that points ssh-keygen and ssh-add at this agent.
func (a *Agent) Env() string { return "SSH_AUTH_SOCK=" + a.Sock }

// Add loads key's private half into the agent.
func (a *Agent) Add(key SSHKey) {
	a.t.Helper()
	runTool(a.t, "ssh-add", []string{a.Env()}, "-q", key.Private)
}

// Stop ends the agent by its pid and waits for it; signing through it
// fails from then on.
func (a *Agent) Stop() {
	if a.proc == nil {
		return
	}
	_ = a.proc.Signal(syscall.SIGTERM)
	select {
	case <-a.done:
	case <-time.After(10 * time.Second):
		_ = a.proc.Kill()
		<-a.done
	}
	a.proc = nil
}

// runTool runs an ssh helper program to completion (not an rfhandoff tool,
// so not through exec: tests make keys the way an operator would).
func runTool(t testing.TB, name string, env []string, args ...string) {
	t.Helper()
	bin, err := safeexec.LookPath(name)
	if err != nil {
		t.Skipf("%s is not installed: %v", name, err)
	}
	out, err := os.CreateTemp(t.TempDir(), name)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	devnull, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer devnull.Close()
	p, err := os.StartProcess(bin, append([]string{bin}, args...), &os.ProcAttr{
		Env: append([]string{"PATH=" + os.Getenv("PATH")}, env...), Files: []*os.File{devnull, out, out},
	})
	if err != nil {
		t.Fatalf("faultkit: starting %s: %v", name, err)
	}
	st, err := p.Wait()
	if err != nil || !st.Success() {
		msg, _ := os.ReadFile(out.Name())
		t.Fatalf("faultkit: %s %s: %v %s: %s", name, strings.Join(args, " "), err, st, bytes.TrimSpace(msg))
	}
}

// SignedSeed commits files (see gittest.Seed: "" deletes a path) on top of
// branch in rem signed with signingKey (a key file; a public one needs
// agentEnv, the agent's SSH_AUTH_SOCK=...) and pushes it without force, returning the commit ID. An empty signingKey
// makes an unsigned commit, as someone without the key would.
func SignedSeed(t testing.TB, rem *gittest.Remote, branch string, files map[string]string, signingKey string, agentEnv ...string) string {
	t.Helper()
	work := filepath.Join(t.TempDir(), "signed")
	gittest.Git(t, rem.R, filepath.Dir(work), "clone", "--quiet", "--single-branch", "--branch", branch, "--end-of-options", rem.URL, work)
	gittest.WriteFiles(t, work, files)
	gittest.Git(t, rem.R, work, "add", "--all")
	c := exec.Cmd{Tool: exec.Git, Dir: work, Env: agentEnv,
		Args: []string{"commit", "--quiet", "--allow-empty", "--no-gpg-sign", "-m", "faultkit unsigned " + branch}}
	if signingKey != "" {
		c.Args = []string{"commit", "--quiet", "--allow-empty", "-S", "-m", "faultkit signed " + branch}
		c.Signatures = &exec.Signatures{SigningKey: signingKey}
	}
	if _, err := rem.R.Run(t.Context(), c); err != nil {
		t.Fatalf("faultkit: signed commit: %v", err)
	}
	id := strings.TrimSpace(gittest.Git(t, rem.R, work, "rev-parse", "HEAD"))
	gittest.Git(t, rem.R, work, "push", "--quiet", "--end-of-options", rem.URL, "HEAD:refs/heads/"+branch)
	return id
}

// String names the key in test failures.
func (k SSHKey) String() string {
	return fmt.Sprintf("%s (%s)", filepath.Base(k.Private), k.Fingerprint)
}

// CommitTree writes a commit in the bare remote with git commit-tree —
// tree and parents as given, signed with signingKey ("" unsigned), env
// added to git's (GIT_COMMITTER_DATE=... to backdate it) — and moves
// branch to it without any check, as anyone with push rights could. It
// returns the commit.
func CommitTree(t testing.TB, rem *gittest.Remote, branch, tree string, parents []string, signingKey string, env ...string) string {
	t.Helper()
	args := []string{"commit-tree", "--no-gpg-sign", "-m", "faultkit commit-tree " + branch}
	var sig *exec.Signatures
	if signingKey != "" {
		args = []string{"commit-tree", "-S", "-m", "faultkit signed commit-tree " + branch}
		sig = &exec.Signatures{SigningKey: signingKey}
	}
	for _, p := range parents {
		args = append(args, "-p", p)
	}
	res, err := rem.R.Run(t.Context(), exec.Cmd{Tool: exec.Git, Dir: rem.Dir, Env: env, Args: append(args, tree), Signatures: sig})
	if err != nil {
		t.Fatalf("faultkit: commit-tree: %v", err)
	}
	id := strings.TrimSpace(string(res.Stdout))
	gittest.Git(t, rem.R, rem.Dir, "update-ref", "refs/heads/"+branch, id)
	return id
}

// Certify has the real ssh-keygen sign key's public half with ca as a user
// certificate (ssh-keygen -s) for principals (comma-separated), valid
// within validity (ssh-keygen's -V: "20200101:20210101", "always:forever",
// with a Z for UTC), and returns the certificate's path. It sits beside a
// copy of the private key, so it is a signing key git can use as it is.
func Certify(t testing.TB, ca, key SSHKey, principals, validity string) string {
	t.Helper()
	dir := t.TempDir()
	priv := filepath.Join(dir, filepath.Base(key.Private))
	data, err := os.ReadFile(key.Private)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(priv, data, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(priv+".pub", []byte(key.Line+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	runTool(t, "ssh-keygen", nil, "-q", "-s", ca.Private, "-I", "faultkit "+principals, "-n", principals, "-V", validity, priv+".pub")
	return priv + "-cert.pub"
}
