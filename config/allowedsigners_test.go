package config

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Keys made by ssh-keygen; their fingerprints are what ssh-keygen -l prints.
const (
	aliceKey = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAICUyyNsx7ICVh4x9gSDBHR7HEM28fPOo27bgWN6hY5Vx alice"
	aliceFP  = "SHA256:jjwEBVxzyM+X59mDGwDuCmLLMTzMJQXXyt0yu5RIdaI"
	bobKey   = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAILL0gOeAKKJVMfy9K5YysVASkPz2CoNVnLVbawSHMaFY bob"
	bobFP    = "SHA256:nxSB03y2zy5RhEqwgrpeIDUY0YjWwJbzwtZodgRdfY0"
	rsaKey   = "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAAAgQC2JgNAgd+9S70GPq0VX0V6J4NZtwx4mUK24TaiarVNBhXwebpE+RWZuDk1SzYmXEyDqE7OnqmnjKmKaiqLy6Hv9qPVo0jg/EamNcDSaVbAjuIuzmzB3/vwumbOxr66a86nwkMAcP/VMvD/axUVJwjXLmXiAP6waGB9b8orseBrSw=="
)

func TestParseAllowedSigners(t *testing.T) {
	cases := []struct {
		name       string
		in         string
		principals [][]string
		namespaces [][]string
		fps        []string
		err        string // substring of the error, "" for none
	}{
		{name: "one key", in: "alice@lab " + aliceKey, principals: [][]string{{"alice@lab"}}, namespaces: [][]string{nil}, fps: []string{aliceFP}},
		{name: "comments, blanks, CRLF", in: "# main pc\n\nalice@lab " + aliceKey + "\r\n  # x\n", principals: [][]string{{"alice@lab"}}, namespaces: [][]string{nil}, fps: []string{aliceFP}},
		{name: "namespaces option", in: `alice@lab,main@lab namespaces="git" ` + aliceKey + "\nbob@lab namespaces=\"file,git\",valid-after=\"20260101\" " + bobKey,
			principals: [][]string{{"alice@lab", "main@lab"}, {"bob@lab"}}, namespaces: [][]string{{"git"}, {"file", "git"}}, fps: []string{aliceFP, bobFP}},
		{name: "quoted principals", in: `"alice@lab,x" ` + rsaKey, principals: [][]string{{"alice@lab", "x"}}, namespaces: [][]string{nil}, fps: nil},
		{name: "cert-authority", in: `*@lab cert-authority ` + aliceKey, principals: [][]string{{"*@lab"}}, namespaces: [][]string{nil}, fps: []string{aliceFP}},
		{name: "empty file", in: "# nothing\n", err: "no signer lines"},
		{name: "key without principal", in: aliceKey, err: `"AAAAC3`},
		{name: "no key", in: "alice@lab", err: "line 1: no public key"},
		{name: "unknown type", in: "alice@lab ssh-foo AAAA", err: `"ssh-foo" is neither`},
		{name: "unknown option", in: `alice@lab no-touch-required ` + aliceKey, err: `"no-touch-required"`},
		{name: "unquoted value", in: `alice@lab namespaces=git ` + aliceKey, err: "double quotes"},
		{name: "value missing", in: `alice@lab namespaces ` + aliceKey, err: "a value is required"},
		{name: "bad base64", in: "alice@lab ssh-ed25519 !!!!", err: "not base64"},
		{name: "type mismatch", in: "alice@lab ssh-rsa " + strings.Fields(aliceKey)[1], err: "does not hold a ssh-rsa key"},
		{name: "truncated blob", in: "alice@lab ssh-ed25519 AAAA", err: "does not hold"},
		{name: "unterminated quote", in: `"alice@lab ` + aliceKey, err: "unterminated quote"},
		{name: "every bad line at once", in: "a ssh-foo x\nalice@lab " + aliceKey + "\nb\n", err: "line 1: "},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseAllowedSigners([]byte(tc.in))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want one containing %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tc.principals) {
				t.Fatalf("got %d signers, want %d: %+v", len(got), len(tc.principals), got)
			}
			for i, s := range got {
				if !slices.Equal(s.Principals, tc.principals[i]) || !slices.Equal(s.Namespaces, tc.namespaces[i]) {
					t.Errorf("signer %d = %+v, want principals %v namespaces %v", i, s, tc.principals[i], tc.namespaces[i])
				}
				if tc.fps != nil && s.Fingerprint != tc.fps[i] {
					t.Errorf("signer %d fingerprint = %s, want %s", i, s.Fingerprint, tc.fps[i])
				}
			}
		})
	}
	// Both bad lines of the last case are named.
	_, err := parseAllowedSigners([]byte("a ssh-foo x\nalice@lab " + aliceKey + "\nb\n"))
	if err == nil || !strings.Contains(err.Error(), "line 1:") || !strings.Contains(err.Error(), "line 3:") {
		t.Fatalf("err = %v, want lines 1 and 3 named", err)
	}
}

func TestTrustFilesAreCheckedOnLoad(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("good_signers", "alice@lab "+aliceKey+"\n")
	write("bad_signers", "alice@lab ssh-ed25519 no!pe\n")
	write("key.pub", aliceKey+"\n")
	write("key", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----\n")
	write("notakey", "hello\n")
	// An ed25519 certificate made by ssh-keygen -s.
	write("key-cert.pub", "ssh-ed25519-cert-v01@openssh.com AAAAIHNzaC1lZDI1NTE5LWNlcnQtdjAxQG9wZW5zc2guY29tAAAAIOfFm64bzx7KSYKQYkrmK+uP199avBYsDGOpbugWeEyNAAAAIBwhPw0RiO37LrtV3bKzOgdi4/RacHupIs9zuJNVc7KdAAAAAAAAAAAAAAABAAAABHRlc3QAAAAMAAAACG1haW5AbGFiAAAAAF4L4QAAAAAAX+5mAAAAAAAAAACCAAAAFXBlcm1pdC1YMTEtZm9yd2FyZGluZwAAAAAAAAAXcGVybWl0LWFnZW50LWZvcndhcmRpbmcAAAAAAAAAFnBlcm1pdC1wb3J0LWZvcndhcmRpbmcAAAAAAAAACnBlcm1pdC1wdHkAAAAAAAAADnBlcm1pdC11c2VyLXJjAAAAAAAAAAAAAAAzAAAAC3NzaC1lZDI1NTE5AAAAICF2aTTK0wA2CkpF0tQLb/o5vxDD/PvwXxesEf0Rl0/fAAAAUwAAAAtzc2gtZWQyNTUxOQAAAEBal2zhPaTiTrYk7sw4KLYzSLu2GZuwEbcYaUMUKOl01csa8SjmMYg9DqHv+PbOoqIVtBucKACzvoRDwsKvFzEK user\n")
	write("badcert.pub", "ssh-ed25519-cert-v01@openssh.com "+strings.Fields(aliceKey)[1]+"\n")
	policy := func(body string) string {
		p := filepath.Join(t.TempDir(), "rfhandoff.toml")
		if err := os.WriteFile(p, []byte("[repo]\npath = "+quote(dir)+"\n[trust]\n"+body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, body := range []string{
		"task_signers = \"good_signers\"\nresult_signers = " + quote(filepath.Join(dir, "good_signers")) + "\nsigning_key = \"key.pub\"\n",
		"signing_key = \"key\"\n",
		"signing_key = \"key-cert.pub\"\n",
	} {
		p, err := Load(policy(body))
		if err != nil {
			t.Fatalf("%s: %v", body, err)
		}
		if p.Trust.TaskSigners != "" && p.TaskSignersPath() != filepath.Join(dir, "good_signers") {
			t.Fatalf("task signers resolved to %s", p.TaskSignersPath())
		}
	}
	if _, err := Load(policy("signing_key = \"badcert.pub\"\n")); err == nil || !strings.Contains(err.Error(), "not a ssh-ed25519-cert-v01@openssh.com certificate line") {
		t.Errorf("a certificate line holding a plain key: err = %v", err)
	}
	_, err := Load(policy("task_signers = \"missing\"\nresult_signers = \"bad_signers\"\nsigning_key = \"notakey\"\n[limits]\npublish_attempts = 99\n"))
	if err == nil {
		t.Fatal("bad trust files accepted")
	}
	// The OS's own words for a missing file ("no such file or directory" on
	// Unix, "The system cannot find the file specified." on Windows).
	_, statErr := os.Stat(filepath.Join(dir, "missing"))
	var pe *fs.PathError
	if !errors.As(statErr, &pe) {
		t.Fatalf("stat of a missing file: %v", statErr)
	}
	for _, want := range []string{
		"trust.task_signers", filepath.Join(dir, "missing"), pe.Err.Error(),
		"trust.result_signers", filepath.Join(dir, "bad_signers") + ": line 1", "not base64",
		"trust.signing_key", "not a public key line",
		"limits.publish_attempts",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	if _, err := Load(policy("task_signers = \"../outside\"\n")); err == nil || !strings.Contains(err.Error(), `".."`) {
		t.Fatalf("err = %v, want the '..' refused", err)
	}
}

func quote(s string) string { return `"` + strings.ReplaceAll(s, `\`, `\\`) + `"` }
