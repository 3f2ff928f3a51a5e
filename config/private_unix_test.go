//go:build unix

package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A policy, or a file it trusts ([trust], [notify] secrets), that another
// account could change is refused, every such file at once, each named
// with its key and the command that fixes it (PROTOCOL#policy-file, PROTOCOL#local-files); the
// same files only this account can change load.
func TestLoadRefusesFilesOthersCanChange(t *testing.T) {
	dir := t.TempDir()
	signers := filepath.Join(dir, "task_signers")
	if err := os.WriteFile(signers, []byte("alice@lab "+aliceKey+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	secret := filepath.Join(dir, "hook.secret")
	if err := os.WriteFile(secret, []byte("s3cret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	policy := filepath.Join(dir, "rfhandoff.toml")
	body := "[trust]\ntask_signers = " + tomlString(signers) + "\n[notify]\nwebhook_url = \"https://hooks.example/x\"\nwebhook_secret_file = " + tomlString(secret) + "\n"
	if err := os.WriteFile(policy, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(policy); err != nil {
		t.Fatalf("private files: %v", err)
	}

	for _, f := range []string{signers, secret} {
		if err := os.Chmod(f, 0o666); err != nil {
			t.Fatal(err)
		}
	}
	_, err := Load(policy)
	for _, want := range []string{
		"trust.task_signers = " + tomlString(signers) + ": file " + signers + ": writable by every account (mode 0666)",
		"`chmod go-w " + signers + "`",
		"notify.webhook_secret_file = " + tomlString(secret) + ": file " + secret + ": writable by every account",
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Load with writable trust and secret files = %v\nwant %q", err, want)
		}
	}

	if err := os.Chmod(policy, 0o646); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(policy); err == nil || !strings.HasPrefix(err.Error(), "policy "+policy+": ") || !strings.Contains(err.Error(), "writable by every account (mode 0646)") {
		t.Errorf("Load(world-writable policy) = %v; want a refusal naming it", err)
	}
}
