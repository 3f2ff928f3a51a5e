package gitcli_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"rfhandoff/exec"
	"rfhandoff/gitcli"
	"rfhandoff/internal/faultkit"
	"rfhandoff/internal/gittest"
)

// signedWorld is a bare remote, keys made by ssh-keygen, an allowed-signers
// file listing alice for git and bob for another namespace only, and an RX
// checkout fetching from the remote.
type signedWorld struct {
	rem          *gittest.Remote
	alice, bob   faultkit.SSHKey
	mallory      faultkit.SSHKey // listed nowhere
	allowed, dir string
	c            *gitcli.Client
}

func newSignedWorld(t *testing.T) *signedWorld {
	t.Helper()
	w := &signedWorld{rem: gittest.NewBareRemote(t, taskBranch),
		alice: faultkit.NewSSHKey(t, "alice"), bob: faultkit.NewSSHKey(t, "bob"), mallory: faultkit.NewSSHKey(t, "mallory")}
	w.allowed = filepath.Join(t.TempDir(), "allowed_signers")
	faultkit.WriteAllowedSigners(t, w.allowed,
		"# MAIN PC",
		faultkit.SignerLine("main@lab", w.alice, `namespaces="git"`),
		faultkit.SignerLine("bob@lab", w.bob, `namespaces="file"`))
	w.dir = gittest.Clone(t, w.rem, taskBranch)
	w.c = &gitcli.Client{R: w.rem.R, Dir: w.dir}
	return w
}

// push commits files signed with key ("" unsigned) and fetches the result.
func (w *signedWorld) push(t *testing.T, files map[string]string, key string) string {
	t.Helper()
	id := faultkit.SignedSeed(t, w.rem, taskBranch, files, key)
	gittest.Git(t, w.rem.R, w.dir, "fetch", "--quiet", "origin")
	return id
}

func TestVerifyLastChange(t *testing.T) {
	w := newSignedWorld(t)
	ctx := t.Context()
	verify := func(commit string) (gitcli.Signature, error) {
		return w.c.VerifyLastChange(ctx, commit, taskFile, w.allowed)
	}
	wantRefused := func(commit string, status byte, fp string) {
		t.Helper()
		sig, err := verify(commit)
		var se *gitcli.SignatureError
		if !errors.As(err, &se) {
			t.Fatalf("verify %s: err = %v, want *SignatureError", commit, err)
		}
		if se.Sig.Status != status || se.Sig.Fingerprint != fp || sig.Good() {
			t.Fatalf("verify %s: %+v, want status %c fingerprint %q", commit, se.Sig, status, fp)
		}
		if fp != "" && !strings.Contains(err.Error(), fp) {
			t.Fatalf("error %q does not name the key", err)
		}
	}

	good := w.push(t, map[string]string{taskFile: "task 1\n"}, w.alice.Private)
	sig, err := verify(good)
	if err != nil {
		t.Fatalf("signed by a listed key: %v", err)
	}
	if sig.Principal != "main@lab" || sig.Fingerprint != w.alice.Fingerprint || sig.Commit != good {
		t.Fatalf("signature = %+v, want main@lab %s on %s", sig, w.alice.Fingerprint, good)
	}
	// A later commit that leaves the task file alone does not change who
	// wrote the task.
	other := w.push(t, map[string]string{"README.md": "unsigned note\n"}, "")
	if sig, err := verify(other); err != nil || sig.Commit != good {
		t.Fatalf("unrelated unsigned commit: %+v, %v; want the signed change %s", sig, err, good)
	}
	// A later unsigned commit that changes the task file is refused.
	unsigned := w.push(t, map[string]string{taskFile: "task 2\n"}, "")
	wantRefused(unsigned, 'N', "")
	wantRefused(w.push(t, map[string]string{taskFile: "task 3\n"}, w.mallory.Private), 'U', w.mallory.Fingerprint)
	// Listed, but for namespace "file" only: git names no key, the
	// refusal names the one the signature claims.
	_, err = verify(w.push(t, map[string]string{taskFile: "task 4\n"}, w.bob.Private))
	var se *gitcli.SignatureError
	if !errors.As(err, &se) || se.Sig.Status != 'B' || se.Sig.Claimed != w.bob.Fingerprint || se.Sig.ClaimedNamespace != "git" ||
		!strings.Contains(err.Error(), w.bob.Fingerprint) {
		t.Fatalf("namespace-restricted key: err = %v (%+v), want a bad signature naming %s", err, se, w.bob.Fingerprint)
	}

	// The audit log's end lines name what each call verified.
	entries, err := exec.ReadAuditTail(w.rem.R.(*exec.Stack).AuditLog().Path(), 0)
	if err != nil {
		t.Fatal(err)
	}
	var notes []string
	for _, e := range entries {
		if e.Verified != "" {
			notes = append(notes, e.Verified)
		}
	}
	all := strings.Join(notes, "\n")
	for _, want := range []string{
		"good signature on " + good + ": main@lab " + w.alice.Fingerprint,
		"refused " + unsigned + ": unsigned",
		"not in the allowed signers (key " + w.mallory.Fingerprint + ")",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("audit notes lack %q:\n%s", want, all)
		}
	}

	if _, err := w.c.VerifyLastChange(ctx, good, "docs/never.md", w.allowed); !errors.Is(err, gitcli.ErrNotFound) {
		t.Fatalf("path never changed: err = %v, want ErrNotFound", err)
	}
	if _, err := w.c.VerifyLastChange(ctx, good, taskFile, "allowed_signers"); !errors.Is(err, gitcli.ErrInvalidArg) {
		t.Fatalf("relative allowed-signers file: err = %v, want ErrInvalidArg", err)
	}
}

// A key in an agent signs a commit through Client.SigningKey; with the
// agent gone, the commit fails and names the key.
func TestCommitSignedThroughAgent(t *testing.T) {
	key := faultkit.NewSSHKey(t, "rx")
	agent := faultkit.StartAgent(t)
	agent.Add(key)
	home := gittest.Home(t)
	r, _ := gittest.Stack(t, exec.Options{Role: exec.RoleGit, GitProtocols: []string{"file"},
		Environ: append(gittest.Environ(home), agent.Env())})
	dir := t.TempDir()
	gittest.Git(t, r, dir, "init", "--quiet")
	gittest.Git(t, r, dir, "commit", "--quiet", "--allow-empty", "-m", "root")
	c := &gitcli.Client{R: r, Dir: dir, SigningKey: key.PublicOnly(t)}
	allowed := filepath.Join(t.TempDir(), "allowed_signers")
	faultkit.WriteAllowedSigners(t, allowed, faultkit.SignerLine("rx@lab", key, ""))

	commitFile := func(content string) (string, error) {
		if err := writeFile(dir, "r.json", content); err != nil {
			t.Fatal(err)
		}
		if err := c.Add(t.Context(), "r.json"); err != nil {
			t.Fatal(err)
		}
		return c.Commit(t.Context(), "result", nil)
	}
	id, err := commitFile("1\n")
	if err != nil {
		t.Fatalf("signed commit: %v", err)
	}
	if sig, err := c.VerifyLastChange(t.Context(), id, "r.json", allowed); err != nil || sig.Fingerprint != key.Fingerprint {
		t.Fatalf("verify = %+v, %v", sig, err)
	}
	head := strings.TrimSpace(gittest.Git(t, r, dir, "rev-parse", "HEAD"))
	agent.Stop()
	if _, err := commitFile("2\n"); err == nil || !strings.Contains(err.Error(), "signing with "+c.SigningKey) {
		t.Fatalf("commit with the agent gone: err = %v, want a signing failure naming the key", err)
	}
	if now := strings.TrimSpace(gittest.Git(t, r, dir, "rev-parse", "HEAD")); now != head {
		t.Fatalf("HEAD moved to %s after a failed signed commit", now)
	}
}

func writeFile(dir, name, content string) error {
	return os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644)
}
