package sshsig

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"math"
	"strings"
	"testing"
	"time"
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
			fp, ns, ok := ClaimedKey([]byte(tc.commit))
			if fp != tc.fp || ns != tc.ns || ok != tc.ok {
				t.Fatalf("ClaimedKey = %q, %q, %v; want %q, %q, %v", fp, ns, ok, tc.fp, tc.ns, tc.ok)
			}
		})
	}
}

func TestSplitSigned(t *testing.T) {
	head := "tree " + idA + "\nparent " + idB + "\nauthor a <a@b> 1 +0000\ncommitter c <c@d> 2 +0000\n"
	for _, tc := range []struct {
		name, raw, payload, sig string
	}{
		{"unsigned", head + "\nmsg\n", head + "\nmsg\n", ""},
		{"signed", head + "gpgsig L1\n L2\n L3\n\nmsg\n", head + "\nmsg\n", "L1\nL2\nL3\n"},
		{"another gpgsig header and its lines are left out", head + "gpgsig-sha256 X1\n X2\ngpgsig L1\n L2\n\nmsg\n", head + "\nmsg\n", "L1\nL2\n"},
		{"any header that starts with gpgsig", head + "gpgsigx y\ngpgsig\n z\ngpgsig L1\n\nmsg\n", head + "\nmsg\n", "L1\n"},
		{"a second gpgsig header adds to the signature", head + "gpgsig L1\ngpgsig L2\n L3\n\nmsg\n", head + "\nmsg\n", "L1\nL2\nL3\n"},
		{"other headers stay", head + "mergetag object x\n type commit\nencoding x\ngpgsig L1\n\nmsg\n", head + "mergetag object x\n type commit\nencoding x\n\nmsg\n", "L1\n"},
		{"a header after the signature stays", head + "gpgsig L1\n L2\nx-extra 1\n\nmsg\n", head + "x-extra 1\n\nmsg\n", "L1\nL2\n"},
		{"the message is never parsed", head + "\nmsg\ngpgsig not a header\n gpgsig\n", head + "\nmsg\ngpgsig not a header\n gpgsig\n", ""},
		{"no newline at the end", head + "gpgsig L1", head, "L1"},
		{"empty", "", "", ""},
	} {
		p, s := Split([]byte(tc.raw))
		if string(p) != tc.payload || string(s) != tc.sig {
			t.Errorf("%s: payload %q signature %q; want %q and %q", tc.name, p, s, tc.payload, tc.sig)
		}
	}
}

func TestDearmor(t *testing.T) {
	b64 := base64.StdEncoding.EncodeToString([]byte("SSHSIG and more bytes than fit one line of base64 text at all, really"))
	canonical := armorBegin + "\n" + b64[:40] + "\n" + b64[40:] + "\n" + armorEnd + "\n"
	if blob, err := Dearmor([]byte(canonical)); err != nil || !strings.HasPrefix(string(blob), "SSHSIG and") {
		t.Fatalf("canonical: %q, %v", blob, err)
	}
	// Forms ssh-keygen may read another way than a plain reader: refused.
	for _, bad := range []string{
		canonical + "bogus\n",
		"x\n" + canonical,
		armorBegin + "\n" + b64[:40] + " \n" + b64[40:] + "\n" + armorEnd + "\n",
		armorBegin + "\n" + b64[:40] + "\r\n" + b64[40:] + "\n" + armorEnd + "\n",
		armorBegin + "\n" + armorEnd + "\n",
		armorBegin + "\n!!!!\n" + armorEnd + "\n",
		strings.Replace(canonical, "SSH SIGNATURE", "PGP SIGNATURE", 2),
	} {
		if _, err := Dearmor([]byte(bad)); err == nil {
			t.Errorf("Dearmor accepted %q", bad)
		}
	}
}

func certBlob(keyType string, parts int, after, before uint64, tail string) []byte {
	b := wireString(nil, keyType)
	b = wireString(b, "nonce")
	for i := range parts {
		b = wireString(b, strings.Repeat(string(rune('a'+i)), 3))
	}
	b = binary.BigEndian.AppendUint64(b, 42)
	b = binary.BigEndian.AppendUint32(b, UserCert)
	b = wireString(b, "key id")
	b = wireString(b, string(wireString(wireString(nil, "rx@lab"), "main@lab")))
	b = binary.BigEndian.AppendUint64(b, after)
	b = binary.BigEndian.AppendUint64(b, before)
	b = wireString(b, "")
	b = wireString(b, "")
	b = wireString(b, "")
	b = wireString(b, string(wireString(wireString(nil, "ssh-ed25519"), strings.Repeat("C", 32))))
	b = wireString(b, "signature")
	return append(b, tail...)
}

func TestParseSigningKeyCertificates(t *testing.T) {
	ca := Fingerprint(wireString(wireString(nil, "ssh-ed25519"), strings.Repeat("C", 32)))
	for typ, ck := range certKeys {
		k, err := ParseKey(certBlob(typ, ck.parts, 100, 200, ""))
		if err != nil {
			t.Fatalf("%s: %v", typ, err)
		}
		plain := wireString(nil, ck.plain)
		for i := range ck.parts {
			plain = wireString(plain, strings.Repeat(string(rune('a'+i)), 3))
		}
		c := k.Cert
		if k.Fingerprint != Fingerprint(plain) || c == nil || c.Serial != 42 || c.Type != UserCert || c.KeyID != "key id" ||
			strings.Join(c.Principals, ",") != "rx@lab,main@lab" || c.ValidAfter != 100 || c.ValidBefore != 200 || c.CA != ca {
			t.Errorf("%s: %+v %+v", typ, k, c)
		}
		// Truncated anywhere, or with bytes after it: refused.
		whole := certBlob(typ, ck.parts, 100, 200, "")
		for n := len(wireString(nil, typ)); n < len(whole); n += 7 {
			if _, err := ParseKey(whole[:n]); err == nil {
				t.Errorf("%s: accepted %d of %d bytes", typ, n, len(whole))
			}
		}
		if _, err := ParseKey(certBlob(typ, ck.parts, 100, 200, "x")); err == nil {
			t.Errorf("%s: accepted a byte after the certificate", typ)
		}
	}
	plain := wireString(wireString(nil, "ssh-ed25519"), strings.Repeat("k", 32))
	if k, err := ParseKey(plain); err != nil || k.Cert != nil || k.Fingerprint != Fingerprint(plain) {
		t.Errorf("a plain key: %+v, %v", k, err)
	}
	if _, err := ParseKey(wireString(nil, "ssh-xyz-cert-v01@openssh.com")); err == nil {
		t.Error("accepted an unknown certificate type")
	}
}

func TestCertificateValidAt(t *testing.T) {
	c := Certificate{ValidAfter: 100, ValidBefore: 200}
	for at, want := range map[int64]bool{99: false, 100: true, 199: true, 200: false, -1: false} {
		if got := c.ValidAt(time.Unix(at, 0)); got != want {
			t.Errorf("ValidAt(%d) = %v", at, got)
		}
	}
	if !c.ValidAt(time.Unix(199, 999e6)) {
		t.Error("a fraction of a second counts in whole seconds")
	}
	if w := c.Window(); w != "valid from 1970-01-01T00:01:40Z, valid before 1970-01-01T00:03:20Z" {
		t.Errorf("Window() = %q", w)
	}
	always := Certificate{ValidBefore: math.MaxUint64}
	if !always.ValidAt(time.Date(2999, 1, 1, 0, 0, 0, 0, time.UTC)) || always.Window() != "valid from always, valid before forever" {
		t.Errorf("always:forever: %q", always.Window())
	}
}

func FuzzParseSigningKey(f *testing.F) {
	for typ, ck := range certKeys {
		f.Add(certBlob(typ, ck.parts, 1, 2, ""))
	}
	f.Add(wireString(wireString(nil, "ssh-ed25519"), strings.Repeat("k", 32)))
	f.Fuzz(func(t *testing.T, b []byte) {
		k, err := ParseKey(b)
		if err != nil {
			return
		}
		if !strings.HasPrefix(k.Fingerprint, "SHA256:") || k.Cert != nil && !strings.HasPrefix(k.Cert.CA, "SHA256:") {
			t.Fatalf("parsed %+v", k)
		}
		if k.Cert != nil {
			_ = k.Cert.Window()
		}
	})
}

func FuzzClaimedKey(f *testing.F) {
	f.Add([]byte("tree x\ngpgsig -----BEGIN SSH SIGNATURE-----\n U1NIU0lHAAAAAQ==\n -----END SSH SIGNATURE-----\n\nm\n"))
	f.Add([]byte("tree x\n\nm\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		fp, ns, ok := ClaimedKey(b)
		if ok != strings.HasPrefix(fp, "SHA256:") || (!ok && ns != "") {
			t.Fatalf("ClaimedKey = %q, %q, %v", fp, ns, ok)
		}
	})
}

const (
	idA = "1111111111111111111111111111111111111111"
	idB = "2222222222222222222222222222222222222222"
)
