package config

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"strings"

	"rfhandoff/errlist"
)

// Signer is one line of an allowed-signers file (ssh-keygen(1) ALLOWED
// SIGNERS): who may sign, with which key, for which namespaces.
type Signer struct {
	Line          int      // 1-based line number
	Principals    []string // comma-separated patterns, as written
	Namespaces    []string // from namespaces="..."; nil means every namespace
	CertAuthority bool
	KeyType       string // e.g. "ssh-ed25519"
	Fingerprint   string // "SHA256:..." as ssh-keygen -l prints it
}

// sshKeyTypes are the public key types ssh-keygen accepts in the file.
var sshKeyTypes = map[string]bool{
	"ssh-ed25519": true, "ssh-rsa": true, "ssh-dss": true,
	"ecdsa-sha2-nistp256": true, "ecdsa-sha2-nistp384": true, "ecdsa-sha2-nistp521": true,
	"sk-ssh-ed25519@openssh.com": true, "sk-ecdsa-sha2-nistp256@openssh.com": true,
}

// signerOptions are the options ssh-keygen knows; the bool says whether the
// option takes a quoted value.
var signerOptions = map[string]bool{
	"cert-authority": false, "namespaces": true, "valid-after": true, "valid-before": true,
}

// ParseAllowedSigners reads an allowed-signers file. Blank lines and
// '#' comments are skipped. Every malformed line is reported at once, named
// by its number; a file without a single key is malformed too (it would
// refuse everything while looking configured).
func ParseAllowedSigners(data []byte) ([]Signer, error) {
	var signers []Signer
	var errs []error
	for i, raw := range bytes.Split(data, []byte("\n")) {
		line := strings.TrimSpace(strings.TrimSuffix(string(raw), "\r"))
		if line == "" || line[0] == '#' {
			continue
		}
		s, err := parseSignerLine(line)
		if err != nil {
			errs = append(errs, fmt.Errorf("line %d: %w", i+1, err))
			continue
		}
		s.Line = i + 1
		signers = append(signers, s)
	}
	if len(errs) == 0 && len(signers) == 0 {
		errs = append(errs, fmt.Errorf("no signer lines (principals, then a public key)"))
	}
	return signers, errlist.List(errs...)
}

func parseSignerLine(line string) (Signer, error) {
	var s Signer
	if err := checkText(line); err != nil {
		return s, err
	}
	principals, rest, err := nextField(line)
	if err != nil {
		return s, fmt.Errorf("principals: %w", err)
	}
	principals = strings.Trim(principals, `"`)
	for _, p := range strings.Split(principals, ",") {
		if p == "" {
			return s, fmt.Errorf("empty principal in %q", principals)
		}
		s.Principals = append(s.Principals, p)
	}
	field, rest, err := nextField(rest)
	if err != nil {
		return s, err
	}
	if field == "" {
		return s, fmt.Errorf("no public key after the principals")
	}
	if !sshKeyTypes[field] {
		if err := s.parseOptions(field); err != nil {
			return s, err
		}
		if field, rest, err = nextField(rest); err != nil {
			return s, err
		}
	}
	if !sshKeyTypes[field] {
		return s, fmt.Errorf("key type %q is not an SSH public key type (e.g. ssh-ed25519)", field)
	}
	s.KeyType = field
	blob64, _, _ := nextField(rest)
	if blob64 == "" {
		return s, fmt.Errorf("no key after %s", field)
	}
	blob, err := base64.StdEncoding.DecodeString(blob64)
	if err != nil {
		return s, fmt.Errorf("%s key is not base64: %v", field, err)
	}
	if name, ok := blobKeyType(blob); !ok || name != field {
		return s, fmt.Errorf("key data does not hold a %s key", field)
	}
	sum := sha256.Sum256(blob)
	s.Fingerprint = "SHA256:" + base64.RawStdEncoding.EncodeToString(sum[:])
	return s, nil
}

// nextField splits off the first whitespace-separated field; double quotes
// may protect spaces inside it (principals, option values).
func nextField(s string) (field, rest string, err error) {
	s = strings.TrimLeft(s, " \t")
	quoted := false
	for i, r := range s {
		switch {
		case r == '"':
			quoted = !quoted
		case (r == ' ' || r == '\t') && !quoted:
			return s[:i], s[i:], nil
		}
	}
	if quoted {
		return "", "", fmt.Errorf("unterminated quote in %q", s)
	}
	return s, "", nil
}

// parseOptions reads opt[,opt...] where opt is name or name="value".
func (s *Signer) parseOptions(field string) error {
	for field != "" {
		name, val, hasVal := field, "", false
		if i := strings.IndexAny(field, "=,"); i >= 0 {
			name = field[:i]
			field = field[i:]
		} else {
			field = ""
		}
		if strings.HasPrefix(field, "=") {
			if len(field) < 2 || field[1] != '"' {
				return fmt.Errorf("option %s: the value must be in double quotes", name)
			}
			end := strings.IndexByte(field[2:], '"')
			if end < 0 {
				return fmt.Errorf("option %s: unterminated quote", name)
			}
			val, hasVal = field[2:2+end], true
			field = field[2+end+1:]
		}
		takesVal, known := signerOptions[strings.ToLower(name)]
		switch {
		case !known:
			return fmt.Errorf("%q is neither an SSH key type nor a known option (cert-authority, namespaces, valid-after, valid-before)", name)
		case takesVal != hasVal:
			return fmt.Errorf("option %s: a value is %s", name, map[bool]string{true: "required", false: "not allowed"}[takesVal])
		}
		switch strings.ToLower(name) {
		case "cert-authority":
			s.CertAuthority = true
		case "namespaces":
			s.Namespaces = strings.Split(val, ",")
		}
		if field == "" {
			break
		}
		if field[0] != ',' {
			return fmt.Errorf("options: expected ',' before %q", field)
		}
		field = field[1:]
		if field == "" {
			return fmt.Errorf("options end with ','")
		}
	}
	return nil
}

// blobKeyType reads the key type name an SSH public key blob starts with.
func blobKeyType(blob []byte) (string, bool) {
	if len(blob) < 4 {
		return "", false
	}
	n := binary.BigEndian.Uint32(blob)
	if uint64(n) > uint64(len(blob)-4) {
		return "", false
	}
	return string(blob[4 : 4+n]), true
}
