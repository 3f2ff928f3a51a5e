package publish_test

import (
	"path/filepath"
	"strings"
	"testing"

	"rfhandoff/exec"
	"rfhandoff/gitcli"
	"rfhandoff/internal/faultkit"
	"rfhandoff/internal/gittest"
	"rfhandoff/internal/publishtest"
	"rfhandoff/publish"
)

// With trust.signing_key set, the result commit is signed by the key in
// the agent; with the agent gone, the publish fails with the signing
// error and nothing is pushed or changed.
func TestPublishSignsWithSigningKey(t *testing.T) {
	privateTemp(t)
	key := faultkit.NewSSHKey(t, "rx-laptop")
	agent := faultkit.StartAgent(t)
	agent.Add(key)
	r, _ := gittest.Stack(t, exec.Options{Role: exec.RoleGit, GitProtocols: gittest.Transports(),
		Environ: append(gittest.Environ(gittest.Home(t)), agent.Env())})
	f := publishtest.New(t, publishtest.Options{Runner: r})
	f.Policy.Trust.SigningKey = key.PublicOnly(t)
	allowed := filepath.Join(t.TempDir(), "allowed_signers")
	faultkit.WriteAllowedSigners(t, allowed, faultkit.SignerLine("rx@lab", key, `namespaces="git"`))

	out, err := publish.Publish(t.Context(), f.Deps(), publishtest.Encode(t, f.Ready()))
	if err != nil {
		t.Fatal(err)
	}
	bare := &gitcli.Client{R: r, Dir: f.Remote.Dir}
	jsonPath := f.Policy.Repo.ResultDir + "/" + publish.JSONName
	sig, err := bare.VerifyLastChange(t.Context(), out.Commit, jsonPath, allowed)
	if err != nil {
		t.Fatalf("published commit not signed by the key: %v", err)
	}
	if sig.Commit != out.Commit || sig.Fingerprint != key.Fingerprint || sig.Principal != "rx@lab" {
		t.Fatalf("signature %+v, want rx@lab %s on %s", sig, key.Fingerprint, out.Commit)
	}

	agent.Stop()
	refs, snap := f.Refs(t), f.Snapshot(t)
	next := f.Ready()
	next.CapturePID = 4343 // a different result, so there is something to commit
	_, err = publish.Publish(t.Context(), f.Deps(), publishtest.Encode(t, next))
	if err == nil || !strings.Contains(err.Error(), "signing with "+f.Policy.Trust.SigningKey) {
		t.Fatalf("publish with the agent gone: err = %v, want the signing failure", err)
	}
	unchanged(t, f, refs, snap)
}
