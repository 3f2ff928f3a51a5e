package gitcli

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"strings"
	"testing"
)

func wireString(b []byte, s string) []byte {
	b = binary.BigEndian.AppendUint32(b, uint32(len(s)))
	return append(b, s...)
}

// armoredCommit is a commit object whose gpgsig header holds blob.
func armoredCommit(blob []byte, header string) string {
	b64 := base64.StdEncoding.EncodeToString(blob)
	lines := []string{"-----BEGIN SSH SIGNATURE-----"}
	for len(b64) > 70 {
		lines, b64 = append(lines, b64[:70]), b64[70:]
	}
	lines = append(lines, b64, "-----END SSH SIGNATURE-----")
	return "tree " + strings.Repeat("a", 40) + "\nauthor a <a@b> 1 +0000\ncommitter a <a@b> 1 +0000\n" +
		header + " " + strings.Join(lines, "\n ") + "\n\nmessage\n\ngpgsig in the body is not a header\n"
}

func TestClaimedKey(t *testing.T) {
	pub := wireString(wireString(nil, "ssh-ed25519"), strings.Repeat("k", 32))
	sum := sha256.Sum256(pub)
	wantFP := "SHA256:" + base64.RawStdEncoding.EncodeToString(sum[:])
	sig := func(ns string) []byte {
		b := append([]byte("SSHSIG"), 0, 0, 0, 1)
		b = wireString(b, string(pub))
		b = wireString(b, ns)
		b = wireString(b, "")
		b = wireString(b, "sha512")
		return wireString(b, "signature")
	}
	cases := []struct {
		name, commit string
		fp, ns       string
		ok           bool
	}{
		{"ssh signature", armoredCommit(sig("git"), "gpgsig"), wantFP, "git", true},
		// git in a SHA-1 repository verifies only the gpgsig header.
		{"only a gpgsig-sha256 header", armoredCommit(sig("file"), "gpgsig-sha256"), "", "", false},
		{"a gpgsig-sha256 header beside the signature", strings.Replace(armoredCommit(sig("git"), "gpgsig"), "\ngpgsig ",
			"\ngpgsig-sha256 -----BEGIN SSH SIGNATURE-----\n "+base64.StdEncoding.EncodeToString(sig("file"))+"\n -----END SSH SIGNATURE-----\ngpgsig ", 1), wantFP, "git", true},
		{"unsigned", "tree " + strings.Repeat("a", 40) + "\n\nmsg\n", "", "", false},
		{"pgp signature", "tree x\ngpgsig -----BEGIN PGP SIGNATURE-----\n iQEz\n -----END PGP SIGNATURE-----\n\nm\n", "", "", false},
		{"bad base64", "tree x\ngpgsig -----BEGIN SSH SIGNATURE-----\n !!!!\n -----END SSH SIGNATURE-----\n\nm\n", "", "", false},
		{"not SSHSIG", armoredCommit([]byte("XXXXXXXXXXXXXXXX"), "gpgsig"), "", "", false},
		{"truncated key", armoredCommit(append([]byte("SSHSIG"), 0, 0, 0, 1, 0, 0, 1, 0), "gpgsig"), "", "", false},
		{"control in namespace", armoredCommit(sig("g\x1bit"), "gpgsig"), "", "", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fp, ns, ok := claimedKey([]byte(tc.commit))
			if fp != tc.fp || ns != tc.ns || ok != tc.ok {
				t.Fatalf("claimedKey = %q, %q, %v; want %q, %q, %v", fp, ns, ok, tc.fp, tc.ns, tc.ok)
			}
		})
	}
}
