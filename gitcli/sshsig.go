package gitcli

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"strings"
)

// claimedKey reads the SSH signature (OpenSSH's PROTOCOL.sshsig) in a raw
// commit object's gpgsig header and returns the fingerprint of the key it
// names and the namespace it was made for. Nothing here is verified: it
// only lets a refusal name the key a bad signature claims (git reports no
// fingerprint for those). ok is false when there is no readable SSH
// signature.
func claimedKey(commit []byte) (fingerprint, namespace string, ok bool) {
	head, _, _ := bytes.Cut(commit, []byte("\n\n"))
	var armored []string
	in := false
	for _, line := range strings.Split(string(head), "\n") {
		switch {
		case strings.HasPrefix(line, "gpgsig ") || strings.HasPrefix(line, "gpgsig-sha256 "):
			_, v, _ := strings.Cut(line, " ")
			armored, in = []string{v}, true
		case in && strings.HasPrefix(line, " "):
			armored = append(armored, line[1:])
		default:
			in = false
		}
	}
	if len(armored) < 2 || armored[0] != "-----BEGIN SSH SIGNATURE-----" || armored[len(armored)-1] != "-----END SSH SIGNATURE-----" {
		return "", "", false
	}
	blob, err := base64.StdEncoding.DecodeString(strings.Join(armored[1:len(armored)-1], ""))
	if err != nil || !bytes.HasPrefix(blob, []byte("SSHSIG")) || len(blob) < 10 {
		return "", "", false
	}
	rest := blob[10:] // magic and version
	pub, rest, ok := sshString(rest)
	if !ok {
		return "", "", false
	}
	ns, _, ok := sshString(rest)
	if !ok || !printableLine(string(ns)) {
		return "", "", false
	}
	sum := sha256.Sum256(pub)
	return "SHA256:" + base64.RawStdEncoding.EncodeToString(sum[:]), string(ns), true
}

// sshString splits an SSH wire-format string (uint32 length, bytes) off b.
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
