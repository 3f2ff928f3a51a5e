package gitcli_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"rfhandoff/gitcli"
	"rfhandoff/internal/faultkit"
	"rfhandoff/internal/gittest"
)

// VerifyTip speaks only for a tip that is a signed single-parent commit
// which changed the file itself; a merge (either parent order) that
// brings an old signed version back, a later commit that leaves the file
// alone, an unsigned or a foreign commit do not, and the next signed
// commit on top speaks again.
func TestVerifyTip(t *testing.T) {
	w := newSignedWorld(t)
	ctx := t.Context()
	const file = "docs/handoff/results/RX_RESULT.json"
	fetch := func() { gittest.Git(t, w.rem.R, w.dir, "fetch", "--quiet", "origin") }
	verify := func(tip string) (gitcli.Signature, error) {
		t.Helper()
		fetch()
		return w.c.VerifyTip(ctx, tip, file, w.allowed)
	}
	wantTip := func(tip string, parents int, lastChange string) {
		t.Helper()
		_, err := verify(tip)
		var te *gitcli.TipError
		if !errors.As(err, &te) || te.Tip != tip || te.LastChange != lastChange || (lastChange == "" && te.Parents != parents) {
			t.Fatalf("verify %s: err = %v, want a *TipError with %d parents, last change %q", tip, err, parents, lastChange)
		}
	}
	wantSig := func(tip string, status byte) {
		t.Helper()
		_, err := verify(tip)
		var se *gitcli.SignatureError
		if !errors.As(err, &se) || se.Sig.Commit != tip || se.Sig.Status != status {
			t.Fatalf("verify %s: err = %v, want a *SignatureError with status %c", tip, err, status)
		}
	}
	treeOf := func(c string) string {
		return strings.TrimSpace(gittest.Git(t, w.rem.R, w.rem.Dir, "rev-parse", c+"^{tree}"))
	}

	if _, err := verify(strings.TrimSpace(gittest.Git(t, w.rem.R, w.rem.Dir, "rev-parse", "refs/heads/"+taskBranch))); !errors.Is(err, gitcli.ErrNotFound) {
		t.Fatalf("before any result: err = %v, want ErrNotFound", err)
	}
	ready := w.push(t, map[string]string{file: `{"state":"READY"}`}, w.alice.Private)
	sig, err := verify(ready)
	if err != nil || sig.Commit != ready || sig.Fingerprint != w.alice.Fingerprint || sig.Principal != "main@lab" {
		t.Fatalf("verify the signed tip %s: %+v, %v", ready, sig, err)
	}
	if since := time.Since(sig.CommittedAt); since < -time.Hour || since > time.Hour {
		t.Errorf("CommittedAt %s is not the commit's date", sig.CommittedAt)
	}
	complete := w.push(t, map[string]string{file: `{"state":"COMPLETE"}`}, w.alice.Private)

	// The replay: the old READY's tree, merged, either parent first.
	wantTip(faultkit.CommitTree(t, w.rem, taskBranch, treeOf(ready), []string{complete, ready}, ""), 2, ready)
	wantTip(faultkit.CommitTree(t, w.rem, taskBranch, treeOf(ready), []string{ready, complete}, ""), 2, ready)
	// A signed merge whose result differs from both parents is a merge all the same.
	side := faultkit.CommitTree(t, w.rem, "side", treeOf(ready), []string{ready}, "")
	third := w.push(t, map[string]string{file: `{"state":"THIRD"}`}, w.alice.Private)
	wantTip(faultkit.CommitTree(t, w.rem, taskBranch, treeOf(third), []string{side, complete}, w.alice.Private), 2, "")
	// A root commit that writes the file.
	wantTip(faultkit.CommitTree(t, w.rem, taskBranch, treeOf(third), nil, w.alice.Private), 0, "")

	// Back on a line of single-parent commits.
	gittest.Git(t, w.rem.R, w.rem.Dir, "update-ref", "refs/heads/"+taskBranch, third)
	wantTip(w.push(t, map[string]string{"README.md": "note\n"}, w.alice.Private), 0, third)
	wantSig(w.push(t, map[string]string{file: `{"state":"UNSIGNED"}`}, ""), 'N')
	wantSig(w.push(t, map[string]string{file: `{"state":"MALLORY"}`}, w.mallory.Private), 'U')
	next := w.push(t, map[string]string{file: `{"state":"NEXT"}`}, w.alice.Private)
	if sig, err := verify(next); err != nil || sig.Commit != next {
		t.Fatalf("the next signed publish %s: %+v, %v", next, sig, err)
	}
}
