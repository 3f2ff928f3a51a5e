package config

import (
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"rfhandoff/errlist"
	"rfhandoff/gitcli/sshsig"
	"rfhandoff/localfile/private"
)

// Trust names who may speak on each branch (PROTOCOL#trust); empty means no
// signature is required or made.
type Trust struct {
	TaskSigners   string `toml:"task_signers"`
	ResultSigners string `toml:"result_signers"`
	SigningKey    string `toml:"signing_key"`
}

const maxTrustFileBytes = 1 << 20

// The [trust] files made absolute (git runs in other directories), or "".
func (p Policy) TaskSignersPath() string   { return p.Resolve(p.Trust.TaskSigners) }
func (p Policy) ResultSignersPath() string { return p.Resolve(p.Trust.ResultSigners) }
func (p Policy) SigningKeyPath() string    { return p.Resolve(p.Trust.SigningKey) }

// trustKeys are the policy's key files, [[nodes]]' result_signers included.
func (p Policy) trustKeys() []struct{ key, v string } {
	keys := []struct{ key, v string }{
		{"trust.task_signers", p.Trust.TaskSigners},
		{"trust.result_signers", p.Trust.ResultSigners},
		{"trust.signing_key", p.Trust.SigningKey},
	}
	for i, n := range p.Nodes {
		keys = append(keys, struct{ key, v string }{nodeKey(i, "result_signers"), n.ResultSigners})
	}
	return keys
}

func (p Policy) validateTrust(ps *problems) {
	for _, k := range p.trustKeys() {
		if k.v != "" {
			ps.check(k.key, k.v, checkLocalPath(k.v))
		}
	}
}

func (p Policy) checkTrustFiles() error {
	var ps problems
	for _, k := range p.trustKeys() {
		check := checkSigningKey
		if k.key != "trust.signing_key" {
			check = func(data []byte) error { _, err := parseAllowedSigners(data); return err }
		}
		p.readKeyFile(&ps, k.key, k.v, maxTrustFileBytes, check)
	}
	return errlist.List(ps...)
}

// readKeyFile gives the file key names to check; a problem names the key,
// the value and the file. An unset value, or one Validate refuses, is not read.
func (p Policy) readKeyFile(ps *problems, key, v string, limit int64, check func([]byte) error) {
	if v == "" || checkLocalPath(v) != nil {
		return
	}
	path := p.Resolve(v)
	data, err := private.Read(path, limit)
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err // the path is named below
	}
	if err == nil {
		err = check(data)
	}
	if err != nil {
		ps.add(key, v, "file %s: %v", path, err)
	}
}

// checkSigningKey accepts what git's user.signingkey takes as a file for gpg.format=ssh.
func checkSigningKey(data []byte) error {
	text := strings.TrimSpace(string(data))
	if strings.HasPrefix(text, "-----BEGIN OPENSSH PRIVATE KEY-----") {
		if !strings.HasSuffix(text, "-----END OPENSSH PRIVATE KEY-----") {
			return fmt.Errorf("truncated OpenSSH private key")
		}
		return nil
	}
	if strings.Contains(text, "\n") {
		return fmt.Errorf("neither one public key line nor an OpenSSH private key")
	}
	if f := strings.Fields(text); len(f) >= 2 && sshsig.CertKeyType(f[0]) {
		blob, err := base64.StdEncoding.DecodeString(f[1])
		if name, ok := blobKeyType(blob); err != nil || !ok || name != f[0] {
			return fmt.Errorf("not a %s certificate line", f[0])
		}
		return nil
	}
	// A public key line is an allowed-signers line without principals.
	if _, err := parseSignerLine("signer " + text); err != nil {
		return fmt.Errorf("not a public key line: %v", strings.TrimPrefix(err.Error(), "principals: "))
	}
	return nil
}

// DescribeSigners lists, as TOML comments for config check, every key of
// the allowed-signers files with its window (PROTOCOL#trust). An unreadable
// file is skipped: checkTrustFiles reports it.
func (p Policy) DescribeSigners() string {
	var b strings.Builder
	for _, k := range p.trustKeys() {
		if k.v == "" || k.key == "trust.signing_key" || checkLocalPath(k.v) != nil {
			continue
		}
		path := p.Resolve(k.v)
		signers, err := readAllowedSigners(path)
		if err != nil {
			continue
		}
		fmt.Fprintf(&b, "# %s %s: %d key(s), each valid (checked at the present time) within:\n", k.key, path, len(signers))
		for _, s := range signers {
			what := ""
			if s.CertAuthority {
				what = " (cert-authority)"
			}
			fmt.Fprintf(&b, "#   line %d: %s %s%s: %s\n", s.Line, strings.Join(s.Principals, ","), s.Fingerprint, what, s.window())
		}
	}
	return b.String()
}
