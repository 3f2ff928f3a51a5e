package sshsig

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"rfhandoff/gitcli/gitname"
	"strings"
	"time"
)

// sigHeader is the header a commit's signature is kept in, in a SHA-1
// repository (the only kind rfhandoff reads: object IDs are 40 hex digits).
const sigHeader = "gpgsig"

// Split splits a raw commit object the way git does before it hands the
// signature to ssh-keygen (commit.c, parse_buffer_signed_by_header).
// payload drops every header starting with "gpgsig" (gpgsig-sha256, ...):
// a signed commit copied with such a header added or changed has a new ID
// and still a good signature (PROTOCOL#trust).
func Split(raw []byte) (payload, signature []byte) {
	inSig, other := false, false
	for rest := raw; len(rest) > 0; {
		line := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line = rest[:i+1]
		}
		sig, isSig := []byte(nil), false
		switch {
		case inSig && line[0] == ' ':
			sig, isSig = line[1:], true
		case bytes.HasPrefix(line, []byte(sigHeader+" ")):
			sig, isSig, other = line[len(sigHeader)+1:], true, false
		case bytes.HasPrefix(line, []byte(sigHeader)):
			other = true
		case other && line[0] != ' ':
			other = false
		}
		if isSig {
			signature = append(signature, sig...)
			inSig = true
			rest = rest[len(line):]
			continue
		}
		inSig = false
		if line[0] == '\n' { // the message: the whole rest
			payload = append(payload, rest...)
			break
		}
		if !other {
			payload = append(payload, line...)
		}
		rest = rest[len(line):]
	}
	return payload, signature
}

const (
	armorBegin = "-----BEGIN SSH SIGNATURE-----"
	armorEnd   = "-----END SSH SIGNATURE-----"
)

// Dearmor decodes an armored SSH signature in its only canonical form.
// ssh-keygen reads more forms; one of those is refused rather than read
// another way than the verifier read it.
func Dearmor(text []byte) ([]byte, error) {
	lines := strings.Split(strings.TrimSuffix(string(text), "\n"), "\n")
	if len(lines) < 3 || lines[0] != armorBegin || lines[len(lines)-1] != armorEnd {
		return nil, errors.New("not an armored SSH signature (its begin line, base64 and end line, and nothing else)")
	}
	body := strings.Join(lines[1:len(lines)-1], "")
	blob, err := base64.StdEncoding.Strict().DecodeString(body)
	if err != nil || strings.ContainsAny(body, "\r\n") {
		return nil, errors.New("the armored SSH signature is not base64")
	}
	return blob, nil
}

// SignatureKey reads an armored SSH signature (OpenSSH's PROTOCOL.sshsig):
// the public key blob it names and its namespace. Nothing is verified.
func SignatureKey(text []byte) (pub []byte, namespace string, err error) {
	blob, err := Dearmor(text)
	if err != nil {
		return nil, "", err
	}
	if !bytes.HasPrefix(blob, []byte("SSHSIG")) || len(blob) < 10 || binary.BigEndian.Uint32(blob[6:]) != 1 {
		return nil, "", errors.New("not an SSHSIG signature of version 1")
	}
	pub, rest, ok := sshString(blob[10:])
	if !ok {
		return nil, "", errors.New("SSHSIG: truncated public key")
	}
	ns, _, ok := sshString(rest)
	if !ok || !gitname.PrintableLine(string(ns)) {
		return nil, "", errors.New("SSHSIG: unreadable namespace")
	}
	return pub, string(ns), nil
}

// ClaimedKey returns the fingerprint of the key a raw commit's SSH
// signature names and its namespace, unverified: it only lets a refusal
// name the key a bad signature claims (git reports no fingerprint for those).
func ClaimedKey(commit []byte) (fingerprint, namespace string, ok bool) {
	_, text := Split(commit)
	pub, ns, err := SignatureKey(text)
	if err != nil {
		return "", "", false
	}
	return Fingerprint(pub), ns, true
}

func Fingerprint(blob []byte) string {
	sum := sha256.Sum256(blob)
	return "SHA256:" + base64.RawStdEncoding.EncodeToString(sum[:])
}

func sshString(b []byte) (s, rest []byte, ok bool) {
	if len(b) < 4 {
		return nil, nil, false
	}
	n := binary.BigEndian.Uint32(b)
	if uint64(n) > uint64(len(b)-4) {
		return nil, nil, false
	}
	return b[4 : 4+n], b[4+n:], true
}

// SigningKey is the key a commit's SSH signature names, unverified:
// Fingerprint binds this reading to git's and ssh-keygen's verification.
type SigningKey struct {
	// Fingerprint is the SHA256 fingerprint of the key that signed; for
	// a certificate, of the key it certifies (git's %GF either way).
	Fingerprint string
	Namespace   string
	Cert        *Certificate // nil for a plain key
}

// Certificate is an OpenSSH certificate (PROTOCOL.certkeys).
type Certificate struct {
	Type                    uint32 // 1 user, 2 host
	Serial                  uint64
	KeyID                   string
	Principals              []string
	ValidAfter, ValidBefore uint64 // seconds since the epoch; the largest ValidBefore is forever
	CA                      string // the SHA256 fingerprint of the authority's key
}

const UserCert = 1 // Certificate.Type of a user certificate

// ValidAt reports whether the certificate is valid at t by ssh-keygen's
// rule: valid-after ≤ t < valid-before, in whole seconds.
func (c Certificate) ValidAt(t time.Time) bool {
	u := t.Unix()
	return u >= 0 && uint64(u) >= c.ValidAfter && uint64(u) < c.ValidBefore
}

func (c Certificate) Window() string {
	at := func(s uint64) string {
		if s > math.MaxInt64 {
			return "forever"
		}
		return time.Unix(int64(s), 0).UTC().Format(time.RFC3339)
	}
	from := "always"
	if c.ValidAfter > 0 {
		from = at(c.ValidAfter)
	}
	return "valid from " + from + ", valid before " + at(c.ValidBefore)
}

// certKeys are the certificate key types: the plain key type each
// certifies and how many wire strings that key's public part has.
var certKeys = map[string]struct {
	plain string
	parts int
}{
	"ssh-ed25519-cert-v01@openssh.com":            {"ssh-ed25519", 1},
	"ssh-rsa-cert-v01@openssh.com":                {"ssh-rsa", 2},
	"ssh-dss-cert-v01@openssh.com":                {"ssh-dss", 4},
	"ecdsa-sha2-nistp256-cert-v01@openssh.com":    {"ecdsa-sha2-nistp256", 2},
	"ecdsa-sha2-nistp384-cert-v01@openssh.com":    {"ecdsa-sha2-nistp384", 2},
	"ecdsa-sha2-nistp521-cert-v01@openssh.com":    {"ecdsa-sha2-nistp521", 2},
	"sk-ssh-ed25519-cert-v01@openssh.com":         {"sk-ssh-ed25519@openssh.com", 2},
	"sk-ecdsa-sha2-nistp256-cert-v01@openssh.com": {"sk-ecdsa-sha2-nistp256@openssh.com", 3},
}

// CertKeyType reports whether name is a certificate key type rfhandoff reads.
func CertKeyType(name string) bool {
	_, ok := certKeys[name]
	return ok
}

// ParseKey reads a public key blob: a plain key (only its fingerprint), or
// a certificate, read whole (nothing may follow it).
func ParseKey(pub []byte) (SigningKey, error) {
	name, rest, ok := sshString(pub)
	if !ok {
		return SigningKey{}, errors.New("unreadable public key")
	}
	ck, isCert := certKeys[string(name)]
	if !isCert {
		if strings.Contains(string(name), "-cert-") {
			return SigningKey{}, fmt.Errorf("certificate type %q is not one rfhandoff reads", name)
		}
		return SigningKey{Fingerprint: Fingerprint(pub)}, nil
	}
	bad := func(what string) (SigningKey, error) {
		return SigningKey{}, fmt.Errorf("%s certificate: unreadable %s", name, what)
	}
	var c Certificate
	if _, rest, ok = sshString(rest); !ok { // nonce
		return bad("nonce")
	}
	keyStart := rest
	for range ck.parts {
		if _, rest, ok = sshString(rest); !ok {
			return bad("key")
		}
	}
	plain := binary.BigEndian.AppendUint32(nil, uint32(len(ck.plain)))
	plain = append(append(plain, ck.plain...), keyStart[:len(keyStart)-len(rest)]...)
	if len(rest) < 12 {
		return bad("serial")
	}
	c.Serial, c.Type, rest = binary.BigEndian.Uint64(rest), binary.BigEndian.Uint32(rest[8:]), rest[12:]
	id, rest, ok := sshString(rest)
	if !ok {
		return bad("key ID")
	}
	c.KeyID = string(id)
	principals, rest, ok := sshString(rest)
	if !ok {
		return bad("principals")
	}
	for len(principals) > 0 {
		var p []byte
		if p, principals, ok = sshString(principals); !ok {
			return bad("principals")
		}
		c.Principals = append(c.Principals, string(p))
	}
	if len(rest) < 16 {
		return bad("validity")
	}
	c.ValidAfter, c.ValidBefore, rest = binary.BigEndian.Uint64(rest), binary.BigEndian.Uint64(rest[8:]), rest[16:]
	for _, what := range []string{"critical options", "extensions", "reserved field"} {
		if _, rest, ok = sshString(rest); !ok {
			return bad(what)
		}
	}
	ca, rest, ok := sshString(rest)
	if !ok {
		return bad("signature key")
	}
	c.CA = Fingerprint(ca)
	if _, rest, ok = sshString(rest); !ok || len(rest) != 0 {
		return bad("signature")
	}
	return SigningKey{Fingerprint: Fingerprint(plain), Cert: &c}, nil
}
