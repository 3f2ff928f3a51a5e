package exec_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"rfhandoff/exec"
	"rfhandoff/internal/faultkit"
	"rfhandoff/internal/gittest"
)

// A repository's own config names a signature program that would leave a
// marker; with Signatures set, git must run the runner's ssh-keygen instead,
// and a plain git log must run no signature program at all.
func TestSignaturesPinTheVerifier(t *testing.T) {
	key := faultkit.NewSSHKey(t, "alice")
	s, auditPath := gittest.Stack(t, exec.Options{Role: exec.RoleGit, Environ: gittest.Environ(gittest.Home(t))})
	repo, marker, git := markerRepo(t, s, func(evil string) [][2]string {
		return [][2]string{{"gpg.ssh.program", evil}, {"gpg.program", evil}, {"gpg.x509.program", evil},
			{"log.showSignature", "true"}, {"gpg.ssh.allowedSignersFile", "/dev/null"}}
	})
	if err := os.WriteFile(filepath.Join(repo, "f"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git("add", "f")
	ctx := context.Background()
	if _, err := s.Run(ctx, exec.Cmd{Tool: exec.Git, Dir: repo, Args: []string{"commit", "--quiet", "-S", "-m", "signed"},
		Signatures: &exec.Signatures{SigningKey: key.Private}}); err != nil {
		t.Fatalf("signed commit: %v", err)
	}
	allowed := filepath.Join(t.TempDir(), "allowed_signers")
	faultkit.WriteAllowedSigners(t, allowed, faultkit.SignerLine("alice@lab", key, ""))
	res, err := s.Run(ctx, exec.Cmd{Tool: exec.Git, Dir: repo, Args: []string{"log", "-1", "--format=%G?|%GF"},
		Signatures: &exec.Signatures{AllowedSigners: allowed}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.TrimSpace(string(res.Stdout)), "G|"+key.Fingerprint; got != want {
		t.Fatalf("verification = %q, want %q", got, want)
	}
	// A commit carrying an OpenPGP signature makes git pick gpg.program:
	// that too must be the pinned ssh-keygen, which cannot call it good.
	tree := strings.TrimSpace(git("rev-parse", "HEAD^{tree}"))
	obj := "tree " + tree + "\nauthor a <a@b> 1700000000 +0000\ncommitter a <a@b> 1700000000 +0000\n" +
		"gpgsig -----BEGIN PGP SIGNATURE-----\n \n iQEzBAABCAAdFiEE\n -----END PGP SIGNATURE-----\n\npgp signed\n"
	res, err = s.Run(ctx, exec.Cmd{Tool: exec.Git, Dir: repo, Args: []string{"hash-object", "-w", "-t", "commit", "--stdin"}, Stdin: strings.NewReader(obj)})
	if err != nil {
		t.Fatal(err)
	}
	pgp := strings.TrimSpace(string(res.Stdout))
	res, err = s.Run(ctx, exec.Cmd{Tool: exec.Git, Dir: repo, Args: []string{"log", "-1", "--format=%G?", pgp},
		Signatures: &exec.Signatures{AllowedSigners: allowed}})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(string(res.Stdout)); got == "G" || got == "U" {
		t.Fatalf("an OpenPGP-signed commit verified as %q", got)
	}
	if out := git("log", "-1", "--format=%s"); strings.TrimSpace(out) != "signed" {
		t.Fatalf("plain log = %q", out)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the repository's configured signature program ran")
	}
	// The audit line of the verifying call names the program git ran.
	entries, err := exec.ReadAuditTail(auditPath, 0)
	if err != nil {
		t.Fatal(err)
	}
	var named bool
	for _, e := range entries {
		if e.Event == exec.EventStart && slices.Contains(e.Argv, "gpg.ssh.allowedSignersFile="+allowed) {
			for _, a := range e.Argv {
				if p, ok := strings.CutPrefix(a, "gpg.ssh.program="); ok && filepath.IsAbs(p) && filepath.Base(p) == "ssh-keygen" {
					named = true
				}
			}
		}
	}
	if !named {
		t.Fatalf("no audit line names the pinned ssh-keygen: %+v", entries)
	}
}

func TestSignaturesRefused(t *testing.T) {
	s, _ := gittest.Stack(t, exec.Options{Role: exec.RoleGit, Environ: gittest.Environ(gittest.Home(t))})
	for name, c := range map[string]exec.Cmd{
		"fetch":         {Tool: exec.Git, Args: []string{"fetch", "origin"}, Signatures: &exec.Signatures{AllowedSigners: "/x"}},
		"relative":      {Tool: exec.Git, Args: []string{"log", "-1"}, Signatures: &exec.Signatures{AllowedSigners: "allowed"}},
		"newline":       {Tool: exec.Git, Args: []string{"log", "-1"}, Signatures: &exec.Signatures{SigningKey: "/k\n-c x=y"}},
		"empty":         {Tool: exec.Git, Args: []string{"log", "-1"}, Signatures: &exec.Signatures{}},
		"not git":       {Tool: exec.HackRFInfo, Signatures: &exec.Signatures{AllowedSigners: "/x"}},
		"caller config": {Tool: exec.Git, Args: []string{"-c", "gpg.ssh.program=/bin/sh", "log"}, Signatures: &exec.Signatures{AllowedSigners: "/x"}},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := s.Run(context.Background(), c)
			if !errors.Is(err, exec.ErrDenied) {
				t.Fatalf("got %v, want ErrDenied", err)
			}
		})
	}
}

// Every spelling git accepts for "sign" needs the key from Signatures, and
// only there; rfhandoff never signs a push.
func TestSigningSpellingsRefused(t *testing.T) {
	s, _ := gittest.Stack(t, exec.Options{Role: exec.RoleGit, Environ: gittest.Environ(gittest.Home(t))})
	allowed, key := filepath.Join(t.TempDir(), "allowed_signers"), filepath.Join(t.TempDir(), "key")
	const noKey, bare, push = "without a signing key", "sign with a bare -S", "does not sign pushes"
	for name, c := range map[string]struct {
		args []string
		sig  *exec.Signatures
		want string
	}{
		"no key":              {[]string{"commit", "-S", "-m", "x"}, nil, noKey},
		"verify key only":     {[]string{"commit", "--gpg-sign", "-m", "x"}, &exec.Signatures{AllowedSigners: allowed}, noKey},
		"abbreviated":         {[]string{"commit", "--gpg", "-m", "x"}, nil, noKey},
		"bundled":             {[]string{"commit", "-qS", "-m", "x"}, &exec.Signatures{SigningKey: key}, bare},
		"key on argv":         {[]string{"commit", "--gpg-sign=" + key, "-m", "x"}, &exec.Signatures{SigningKey: key}, bare},
		"commit-tree, no key": {[]string{"commit-tree", "-S", "-m", "x", "--end-of-options", "HEAD^{tree}"}, nil, noKey},
		"signed push":         {[]string{"push", "--signed", "origin", "HEAD:refs/heads/x"}, nil, push},
		"signed push, short":  {[]string{"push", "--sig", "origin", "HEAD:refs/heads/x"}, nil, push},
	} {
		_, err := s.Run(t.Context(), exec.Cmd{Tool: exec.Git, Args: c.args, Signatures: c.sig})
		if !errors.Is(err, exec.ErrDenied) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want ErrDenied saying %q", name, err, c.want)
		}
	}
}

// A signing call must name its key: without one git asks the repository's
// config for the program that gives it (gpg.ssh.defaultKeyCommand) or
// signs (gpg.program). Here both are a program that leaves a marker.
func TestSigningWithoutItsKeyRunsNoConfiguredProgram(t *testing.T) {
	s, _ := gittest.Stack(t, exec.Options{Role: exec.RoleGit, Environ: gittest.Environ(gittest.Home(t))})
	repo, marker, _ := markerRepo(t, s, func(evil string) [][2]string {
		return [][2]string{{"gpg.format", "ssh"}, {"gpg.ssh.defaultKeyCommand", evil}, {"gpg.ssh.program", evil}, {"gpg.program", evil}}
	})
	for name, sig := range map[string]*exec.Signatures{"no signature options": nil, "a verifier only": {AllowedSigners: filepath.Join(t.TempDir(), "allowed_signers")}} {
		_, err := s.Run(t.Context(), exec.Cmd{Tool: exec.Git, Dir: repo, Args: []string{"commit", "--quiet", "--allow-empty", "-S", "-m", "x"}, Signatures: sig})
		if !errors.Is(err, exec.ErrDenied) || !strings.Contains(err.Error(), "without a signing key") {
			t.Errorf("%s: %v, want ErrDenied naming the missing key", name, err)
		}
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the repository's configured signing program ran")
	}
}

// markerRepo is a new repository whose config (config's pairs) names evil, a
// program that leaves marker when it runs; git runs git commands in it.
func markerRepo(t *testing.T, s exec.Runner, config func(evil string) [][2]string) (repo, marker string, git func(...string) string) {
	repo, marker = t.TempDir(), filepath.Join(t.TempDir(), "ran")
	evil := filepath.Join(t.TempDir(), "evil.sh")
	if err := os.WriteFile(evil, []byte("#!/bin/sh\ntouch "+marker+"\nexit 0\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	git = func(args ...string) string { return gittest.Git(t, s, repo, args...) }
	git("init", "--quiet")
	for _, kv := range config(evil) {
		git("config", kv[0], kv[1])
	}
	return repo, marker, git
}

// A command no rule lets run is denied whether or not its program is
// installed: here hackrf_info is pinned to a path that is not there.
func TestRefusedBeforeLookup(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "hackrf_info")
	s, _ := gittest.Stack(t, exec.Options{Role: exec.RoleProbe, Environ: gittest.Environ(gittest.Home(t)),
		Tools: map[exec.Tool]string{exec.HackRFInfo: missing}})
	_, err := s.Run(context.Background(), exec.Cmd{Tool: exec.HackRFInfo, Signatures: &exec.Signatures{AllowedSigners: "/x"}})
	if !errors.Is(err, exec.ErrDenied) || errors.Is(err, exec.ErrNotInstalled) {
		t.Fatalf("signatures on a missing hackrf_info: %v, want ErrDenied", err)
	}
	_, err = s.Run(context.Background(), exec.Cmd{Tool: exec.HackRFInfo})
	if !errors.Is(err, exec.ErrNotInstalled) {
		t.Fatalf("a missing hackrf_info: %v, want ErrNotInstalled", err)
	}
}
