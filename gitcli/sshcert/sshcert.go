// Package sshcert is what rfhandoff knows of an OpenSSH certificate
// (PROTOCOL.certkeys) without running anything: its fields, its validity
// window, and the certificate key types read. gitcli parses one out of a
// commit's signature; config checks a key's window against the policy.
package sshcert

import (
	"math"
	"time"
)

// Certificate is an OpenSSH certificate (PROTOCOL.certkeys): for whom,
// when, and which authority signed it.
type Certificate struct {
	Type       uint32 // 1 user, 2 host
	Serial     uint64
	KeyID      string
	Principals []string
	// ValidAfter and ValidBefore are seconds since the epoch; the
	// largest ValidBefore means forever.
	ValidAfter, ValidBefore uint64
	// CA is the SHA256 fingerprint of the authority's key.
	CA string
}

// UserCert is Certificate.Type for a user certificate.
const UserCert = 1

// ValidAt reports whether the certificate is valid at t by ssh-keygen's
// rule: valid-after ≤ t < valid-before, in whole seconds.
func (c Certificate) ValidAt(t time.Time) bool {
	u := t.Unix()
	return u >= 0 && uint64(u) >= c.ValidAfter && uint64(u) < c.ValidBefore
}

// Window says, for people, when the certificate is valid: "valid from
// 2020-01-01T00:00:00Z, valid before 2021-01-01T00:00:00Z", "forever" for
// the open ends.
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

// KeyTypes are the certificate key types: the plain key type each
// certifies and how many wire strings that key's public part has.
var KeyTypes = map[string]struct {
	Plain string
	Parts int
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

// CertKeyType reports whether name is an OpenSSH certificate key type
// rfhandoff reads ("ssh-ed25519-cert-v01@openssh.com", ...).
func CertKeyType(name string) bool {
	_, ok := KeyTypes[name]
	return ok
}
