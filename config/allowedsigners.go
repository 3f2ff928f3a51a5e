package config

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"slices"
	"strings"
	"time"

	"rfhandoff/errlist"
	"rfhandoff/gitcli/sshsig"
	"rfhandoff/localfile/private"
)

// Signer is one line of an allowed-signers file (ssh-keygen(1) ALLOWED SIGNERS).
type Signer struct {
	Line          int      // 1-based
	Principals    []string // patterns, as written
	Namespaces    []string // nil means every namespace
	CertAuthority bool
	KeyType       string // e.g. "ssh-ed25519"
	Fingerprint   string // "SHA256:..." as ssh-keygen -l prints it
	// Zero: no limit; the Text fields are the values as written.
	ValidAfter, ValidBefore         time.Time
	ValidAfterText, ValidBeforeText string
}

// validAt is ssh-keygen's rule: valid-after ≤ t ≤ valid-before, in whole seconds.
func (s Signer) validAt(t time.Time) bool {
	u := t.Unix()
	return (s.ValidAfter.IsZero() || u >= s.ValidAfter.Unix()) && (s.ValidBefore.IsZero() || u <= s.ValidBefore.Unix())
}

// window says, for people, when the line's key may sign, or "no limit".
func (s Signer) window() string {
	var w []string
	if !s.ValidAfter.IsZero() {
		w = append(w, fmt.Sprintf("valid-after=%q (%s)", s.ValidAfterText, s.ValidAfter.UTC().Format(time.RFC3339)))
	}
	if !s.ValidBefore.IsZero() {
		w = append(w, fmt.Sprintf("valid-before=%q (%s)", s.ValidBeforeText, s.ValidBefore.UTC().Format(time.RFC3339)))
	}
	if len(w) == 0 {
		return "no limit"
	}
	return strings.Join(w, " ")
}

func (s Signer) allowsGit() bool { return s.Namespaces == nil || slices.Contains(s.Namespaces, "git") }

// parseSignerTime reads a valid-after/valid-before value as ssh-keygen
// does: local time unless it ends in Z (UTC); a date alone is its midnight.
func parseSignerTime(v string) (time.Time, error) {
	loc := time.Local
	digits := v
	if strings.HasSuffix(v, "Z") || strings.HasSuffix(v, "z") {
		loc, digits = time.UTC, v[:len(v)-1]
	}
	layout := map[int]string{8: "20060102", 12: "200601021504", 14: "20060102150405"}[len(digits)]
	if layout == "" || strings.Trim(digits, "0123456789") != "" {
		return time.Time{}, fmt.Errorf("%q is not YYYYMMDD, YYYYMMDDHHMM or YYYYMMDDHHMMSS (with Z for UTC)", v)
	}
	t, err := time.ParseInLocation(layout, digits, loc)
	if err != nil {
		return time.Time{}, fmt.Errorf("%q is not a valid time: %v", v, err)
	}
	return t, nil
}

// KeyTime is a moment a key must be valid at, named for the refusal ("now").
type KeyTime struct {
	What string
	At   time.Time
}

// CheckKeyWindow says why the key git found signing as principal may not
// sign at each of times (PROTOCOL#trust): git checks only at the committer
// date, which the signer chose. One matching line must be valid at every
// time, and so must a certificate (under a cert-authority line only).
func CheckKeyWindow(file, principal, fingerprint string, cert *sshsig.Certificate, times ...KeyTime) error {
	signers, err := readAllowedSigners(file)
	if err != nil {
		return err
	}
	var lines []Signer
	for _, s := range signers {
		switch {
		case !s.allowsGit() || s.CertAuthority != (cert != nil):
		// A plain key's line lists principal as written: git's %GS is the principal
		// ssh-keygen -Y find-principals printed, one entry (a pattern as written).
		case cert == nil && slices.Contains(s.Principals, principal) && s.Fingerprint == fingerprint,
			cert != nil && s.matches(principal) && s.Fingerprint == cert.CA:
			lines = append(lines, s)
		}
	}
	outside := func(valid func(time.Time) bool) []string {
		var why []string
		for _, t := range times {
			if !valid(t.At) {
				why = append(why, fmt.Sprintf("%s (%s)", t.What, t.At.UTC().Format(time.RFC3339)))
			}
		}
		return why
	}
	var errs []error
	if cert != nil {
		if !slices.Contains(cert.Principals, principal) || cert.Type != sshsig.UserCert {
			errs = append(errs, fmt.Errorf("certificate %q (serial %d) of key %s is not a user certificate naming %s", cert.KeyID, cert.Serial, fingerprint, principal))
		}
		if why := outside(cert.ValidAt); len(why) > 0 {
			errs = append(errs, fmt.Errorf("certificate %q (serial %d) of key %s for %s is outside its validity at %s: it is %s",
				cert.KeyID, cert.Serial, fingerprint, principal, strings.Join(why, " and "), cert.Window()))
		}
	}
	var lineErrs []error
	for _, s := range lines {
		why := outside(s.validAt)
		if len(why) == 0 {
			lineErrs = nil
			break
		}
		what := "key " + fingerprint
		if cert != nil {
			what = "certificate authority " + s.Fingerprint
		}
		lineErrs = append(lineErrs, fmt.Errorf("%s for %s is outside its window at %s: %s line %d says %s",
			what, principal, strings.Join(why, " and "), file, s.Line, s.window()))
	}
	switch {
	case len(lines) == 0 && cert == nil:
		lineErrs = append(lineErrs, fmt.Errorf("no line of %s lists key %s for principal %s and namespace git (the file changed?)", file, fingerprint, principal))
	case len(lines) == 0:
		lineErrs = append(lineErrs, fmt.Errorf("no cert-authority line of %s lists authority %s (which signed the certificate of key %s) for principal %s and namespace git (the file changed?)",
			file, cert.CA, fingerprint, principal))
	}
	return errlist.List(append(errs, lineErrs...)...)
}

// CertAuthorityFor reports whether a cert-authority line matches principal:
// a good signature may then have used a certificate, for CheckKeyWindow.
func CertAuthorityFor(file, principal string) (bool, error) {
	signers, err := readAllowedSigners(file)
	if err != nil {
		return false, err
	}
	return slices.ContainsFunc(signers, func(s Signer) bool { return s.CertAuthority && s.allowsGit() && s.matches(principal) }), nil
}

func readAllowedSigners(file string) ([]Signer, error) {
	data, err := private.Read(file, maxTrustFileBytes)
	var signers []Signer
	if err == nil {
		signers, err = parseAllowedSigners(data)
	}
	if err != nil {
		return nil, fmt.Errorf("allowed signers %s: %w", file, err)
	}
	return signers, nil
}

// matches is ssh-keygen's match_pattern_list for a certificate's
// principal: a matching '!' pattern excludes.
func (s Signer) matches(principal string) bool {
	matched := false
	for _, p := range s.Principals {
		neg := strings.HasPrefix(p, "!")
		if matchPattern(principal, strings.TrimPrefix(p, "!")) {
			if neg {
				return false
			}
			matched = true
		}
	}
	return matched
}

// matchPattern is OpenSSH's match_pattern ('*' and '?' over bytes).
func matchPattern(s, p string) bool {
	for len(p) > 0 {
		switch p[0] {
		case '*':
			for p = p[1:]; len(p) > 0 && p[0] == '*'; p = p[1:] {
			}
			if p == "" {
				return true
			}
			for i := range len(s) + 1 {
				if matchPattern(s[i:], p) {
					return true
				}
			}
			return false
		case '?':
			if s == "" {
				return false
			}
		default:
			if s == "" || s[0] != p[0] {
				return false
			}
		}
		s, p = s[1:], p[1:]
	}
	return s == ""
}

var sshKeyTypes = map[string]bool{
	"ssh-ed25519": true, "ssh-rsa": true, "ssh-dss": true,
	"ecdsa-sha2-nistp256": true, "ecdsa-sha2-nistp384": true, "ecdsa-sha2-nistp521": true,
	"sk-ssh-ed25519@openssh.com": true, "sk-ecdsa-sha2-nistp256@openssh.com": true,
}

// signerOptions: the bool says whether the option takes a quoted value.
var signerOptions = map[string]bool{
	"cert-authority": false, "namespaces": true, "valid-after": true, "valid-before": true,
}

// parseAllowedSigners reports every malformed line at once; a file without
// a key is malformed too (it would refuse everything while looking configured).
func parseAllowedSigners(data []byte) ([]Signer, error) {
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
	if s.Principals = strings.Split(principals, ","); slices.Contains(s.Principals, "") {
		return s, fmt.Errorf("empty principal in %q", principals)
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
	s.Fingerprint = sshsig.Fingerprint(blob)
	return s, nil
}

// nextField splits off the first field; double quotes may protect spaces.
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

// parseOptions reads opt[,opt...], each name or name="value".
func (s *Signer) parseOptions(field string) error {
	for field != "" {
		i := strings.IndexAny(field, "=,")
		if i < 0 {
			i = len(field)
		}
		name, val, hasVal := field[:i], "", false
		field = field[i:]
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
		case "valid-after", "valid-before":
			t, err := parseSignerTime(val)
			if err != nil {
				return fmt.Errorf("option %s: %v", name, err)
			}
			if strings.ToLower(name) == "valid-after" {
				s.ValidAfter, s.ValidAfterText = t, val
			} else {
				s.ValidBefore, s.ValidBeforeText = t, val
			}
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
