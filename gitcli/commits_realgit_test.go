package gitcli_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"rfhandoff/exec"
	"rfhandoff/gitcli"
	"rfhandoff/gitcli/sshsig"
	"rfhandoff/internal/faultkit"
	"rfhandoff/internal/gittest"
)

// writeCommit writes raw as a commit object in dir's repository.
func writeCommit(t *testing.T, r exec.Runner, dir, raw string) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), "commit")
	if err := os.WriteFile(f, []byte(raw), 0o600); err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(gittest.Git(t, r, dir, "hash-object", "-w", "-t", "commit", "--end-of-options", f))
}

// git finds a copy well signed only when it has the original's signed
// payload: a signed commit copied with a header git leaves out of the
// signed data added has the same payload, and git still says G; one with
// any other header added has another payload, and git says B. (A copy can
// keep the payload and still fail: a bogus gpgsig line before the
// signature spoils the signature's text.)
func TestSamePayloadIsWhatGitVerifies(t *testing.T) {
	w := newSignedWorld(t)
	ctx := t.Context()
	orig := w.push(t, map[string]string{taskFile: "task 1\n"}, w.alice.Private)
	raw := gittest.Git(t, w.rem.R, w.dir, "cat-file", "commit", orig)
	sigAt, end := strings.Index(raw, "\ngpgsig ")+1, strings.Index(raw, "\n\n")+1
	for _, tc := range []struct {
		name, raw  string
		good, same bool
	}{
		{"gpgsig-sha256 before the signature", raw[:sigAt] + "gpgsig-sha256 bogus\n" + raw[sigAt:], true, true},
		{"gpgsig-sha256 with lines after it", raw[:end] + "gpgsig-sha256 a\n b\n c\n" + raw[end:], true, true},
		{"a header named gpgsigx", raw[:sigAt] + "gpgsigx y\n" + raw[sigAt:], true, true},
		{"a bare gpgsig line", raw[:sigAt] + "gpgsig\n" + raw[sigAt:], true, true},
		{"a second gpgsig after the signature", raw[:end] + "gpgsig bogus\n" + raw[end:], true, true},
		{"a gpgsig before the signature", raw[:sigAt] + "gpgsig bogus\n" + raw[sigAt:], false, true},
		{"a mergetag header", raw[:sigAt] + "mergetag object " + orig + "\n" + raw[sigAt:], false, false},
		{"another header", raw[:sigAt] + "x-extra 1\n" + raw[sigAt:], false, false},
		{"another message", strings.Replace(raw, "faultkit signed", "faultkit signeD", 1), false, false},
	} {
		cp := writeCommit(t, w.rem.R, w.dir, tc.raw)
		sig, err := w.c.VerifyLastChange(ctx, cp, taskFile, w.allowed)
		objs, cerr := w.c.Commits(ctx, orig, cp)
		if cerr != nil {
			t.Fatal(cerr)
		}
		if got := err == nil && sig.Good(); got != tc.good {
			t.Fatalf("%s: git finds the copy %s good: %v (%v), want %v", tc.name, cp, got, err, tc.good)
		}
		if same := objs[1].SamePayload(objs[0]); same != tc.same {
			t.Errorf("%s: SamePayload = %v, want %v", tc.name, same, tc.same)
		}
		if objs[1].Tree != objs[0].Tree || !objs[1].CommittedAt.Equal(objs[0].CommittedAt) || strings.Join(objs[1].Parents, " ") != strings.Join(objs[0].Parents, " ") {
			t.Errorf("%s: %+v and %+v differ in tree, parents or date", tc.name, objs[1], objs[0])
		}
	}
}

// A signature made with a certificate names, through git, the key the
// certificate certifies; sshsig.SigningKey reads the certificate itself: for
// ed25519, ECDSA and RSA keys made and certified by ssh-keygen.
func TestSigningKeyCertificates(t *testing.T) {
	w := newSignedWorld(t)
	ctx := t.Context()
	ca := faultkit.NewSSHKeyOfType(t, "ca", "ecdsa")
	faultkit.WriteAllowedSigners(t, w.allowed, faultkit.SignerLine("*@lab", ca, `cert-authority,namespaces="git"`))
	after, before := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, typ := range []string{"ed25519", "ecdsa", "rsa"} {
		key := faultkit.NewSSHKeyOfType(t, "k-"+typ, typ)
		cert := faultkit.Certify(t, ca, key, "main@lab,rx@lab", "20200101Z:20300102030405Z")
		c := w.push(t, map[string]string{taskFile: "task " + typ + "\n"}, cert)
		sig, err := w.c.VerifyLastChange(ctx, c, taskFile, w.allowed)
		if err != nil || sig.Fingerprint != key.Fingerprint || sig.Principal != "main@lab" {
			t.Fatalf("%s: git's verdict %+v, %v; want main@lab with %s", typ, sig, err, key.Fingerprint)
		}
		objs, err := w.c.Commits(ctx, c)
		if err != nil {
			t.Fatal(err)
		}
		k, err := objs[0].SigningKey()
		if err != nil {
			t.Fatalf("%s: %v", typ, err)
		}
		cc := k.Cert
		if k.Fingerprint != key.Fingerprint || k.Namespace != "git" || cc == nil || cc.CA != ca.Fingerprint || cc.Type != sshsig.UserCert ||
			cc.KeyID != "faultkit main@lab,rx@lab" || strings.Join(cc.Principals, ",") != "main@lab,rx@lab" ||
			cc.ValidAfter != uint64(after.Unix()) || cc.ValidBefore != uint64(before.Unix()) {
			t.Errorf("%s: %+v %+v", typ, k, cc)
		}
	}
	plain := w.push(t, map[string]string{taskFile: "task plain\n"}, w.alice.Private)
	objs, err := w.c.Commits(ctx, plain)
	if err != nil {
		t.Fatal(err)
	}
	if k, err := objs[0].SigningKey(); err != nil || k.Cert != nil || k.Fingerprint != w.alice.Fingerprint {
		t.Errorf("a plain key: %+v, %v", k, err)
	}
	unsigned := w.push(t, map[string]string{taskFile: "task unsigned\n"}, "")
	if objs, err = w.c.Commits(ctx, unsigned); err != nil {
		t.Fatal(err)
	}
	if _, err := objs[0].SigningKey(); err == nil {
		t.Error("an unsigned commit has a signing key")
	}
}

// FileChanges lists every change of the file in the history, side
// branches, merges and the removal included, with what the file became;
// LastChange is what git log -1 follows to.
func TestFileChanges(t *testing.T) {
	w := newSignedWorld(t)
	ctx := t.Context()
	base := w.push(t, map[string]string{"README.md": "base\n"}, "")
	t1 := w.push(t, map[string]string{taskFile: "task 1\n"}, "")
	t2 := w.push(t, map[string]string{taskFile: "task 2\n"}, "")
	// A side branch from base writes task 1 again; the merge takes it.
	gittest.Git(t, w.rem.R, w.rem.Dir, "update-ref", "--end-of-options", "refs/heads/side", base)
	side := faultkit.SignedSeed(t, w.rem, "side", map[string]string{taskFile: "task 1\n"}, "")
	gittest.Git(t, w.rem.R, w.dir, "fetch", "--quiet", "origin")
	m := faultkit.CommitTree(t, w.rem, taskBranch, side+"^{tree}", []string{t2, side}, "")
	removed := w.push(t, map[string]string{taskFile: ""}, "")
	w.push(t, map[string]string{"README.md": "later\n"}, "")
	tip := gittest.Tip(t, w.rem, taskBranch)

	changes, err := w.c.FileChanges(ctx, tip, taskFile)
	if err != nil {
		t.Fatal(err)
	}
	blob1 := strings.TrimSpace(gittest.Git(t, w.rem.R, w.dir, "rev-parse", t1+":"+taskFile))
	got := map[string]gitcli.FileChange{}
	var order []string
	for _, c := range changes {
		got[c.Commit] = c
		order = append(order, c.Commit)
	}
	if len(changes) != 5 || !got[removed].Removed || got[t1].Blob != blob1 || got[side].Blob != blob1 || got[m].Blob != blob1 ||
		got[t2].Blob == blob1 || got[t2].Blob == "" || strings.Join(got[m].Parents, " ") != t2+" "+side || order[0] != removed {
		t.Fatalf("changes %+v", changes)
	}
	last, err := w.c.LastChange(ctx, m, taskFile)
	if err != nil || last.Commit != side {
		t.Fatalf("LastChange(merge) = %+v, %v; want the side branch's commit %s (git follows the merge into it)", last, err, side)
	}
	if _, err := w.c.LastChange(ctx, base, taskFile); !errors.Is(err, gitcli.ErrNotFound) {
		t.Fatalf("LastChange before the file: %v, want ErrNotFound", err)
	}
}
