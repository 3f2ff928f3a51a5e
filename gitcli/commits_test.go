package gitcli

import (
	"encoding/base64"
	"encoding/binary"
	"strings"
	"testing"
	"time"

	"rfhandoff/gitcli/sshcert"
)

// zeroOID is the ID git prints for "no object" in a raw diff.
const zeroOID = "0000000000000000000000000000000000000000"

// git's parse_buffer_signed_by_header, line by line: what is signed and
// what the signature is.
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
		p, s := splitSigned([]byte(tc.raw))
		if string(p) != tc.payload || string(s) != tc.sig {
			t.Errorf("%s: payload %q signature %q; want %q and %q", tc.name, p, s, tc.payload, tc.sig)
		}
	}
}

func TestParseCommitObject(t *testing.T) {
	raw := "tree " + idA + "\nparent " + idB + "\nparent " + idA + "\nauthor A <a@b> 5 +0100\ncommitter C <c@d> 1590969600 -0700\n" +
		"gpgsig -----BEGIN SSH SIGNATURE-----\n U1NI\n -----END SSH SIGNATURE-----\n\ncommitter x <y> 9 +0000\n"
	o, err := parseCommitObject(idA, []byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	if o.Tree != idA || len(o.Parents) != 2 || o.Parents[0] != idB || !o.CommittedAt.Equal(time.Date(2020, 6, 1, 0, 0, 0, 0, time.UTC)) ||
		string(o.Signature) != "-----BEGIN SSH SIGNATURE-----\nU1NI\n-----END SSH SIGNATURE-----\n" {
		t.Fatalf("%+v", o)
	}
	for _, bad := range []string{
		"parent " + idB + "\ncommitter C <c@d> 1 +0000\n\nm",       // no tree
		"tree " + idA + "\nauthor A <a@b> 1 +0000\n\nm",            // no committer
		"tree " + idA + "\ncommitter C <c@d> soon +0000\n\nm",      // no date
		"tree xyz\ncommitter C <c@d> 1 +0000\n\nm",                 // bad tree
		"tree " + idA + "\nparent 12\ncommitter C <c@d> 1 +0000\n", // bad parent
	} {
		if _, err := parseCommitObject(idA, []byte(bad)); err == nil {
			t.Errorf("accepted %q", bad)
		}
	}
}

func TestDearmor(t *testing.T) {
	b64 := base64.StdEncoding.EncodeToString([]byte("SSHSIG and more bytes than fit one line of base64 text at all, really"))
	canonical := armorBegin + "\n" + b64[:40] + "\n" + b64[40:] + "\n" + armorEnd + "\n"
	if blob, err := dearmor([]byte(canonical)); err != nil || !strings.HasPrefix(string(blob), "SSHSIG and") {
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
		if _, err := dearmor([]byte(bad)); err == nil {
			t.Errorf("dearmor accepted %q", bad)
		}
	}
}

// certBlob builds a certificate of keyType ("ssh-ed25519-cert-v01@openssh.com"
// ...) whose key has parts wire strings, with tail appended at the end.
func certBlob(keyType string, parts int, after, before uint64, tail string) []byte {
	b := wireString(nil, keyType)
	b = wireString(b, "nonce")
	for i := range parts {
		b = wireString(b, strings.Repeat(string(rune('a'+i)), 3))
	}
	b = binary.BigEndian.AppendUint64(b, 42)
	b = binary.BigEndian.AppendUint32(b, sshcert.UserCert)
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
	ca := keyFingerprint(wireString(wireString(nil, "ssh-ed25519"), strings.Repeat("C", 32)))
	for typ, ck := range sshcert.KeyTypes {
		k, err := parseSigningKey(certBlob(typ, ck.Parts, 100, 200, ""))
		if err != nil {
			t.Fatalf("%s: %v", typ, err)
		}
		plain := wireString(nil, ck.Plain)
		for i := range ck.Parts {
			plain = wireString(plain, strings.Repeat(string(rune('a'+i)), 3))
		}
		c := k.Cert
		if k.Fingerprint != keyFingerprint(plain) || c == nil || c.Serial != 42 || c.Type != sshcert.UserCert || c.KeyID != "key id" ||
			strings.Join(c.Principals, ",") != "rx@lab,main@lab" || c.ValidAfter != 100 || c.ValidBefore != 200 || c.CA != ca {
			t.Errorf("%s: %+v %+v", typ, k, c)
		}
		// Truncated anywhere, or with bytes after it: refused.
		whole := certBlob(typ, ck.Parts, 100, 200, "")
		for n := len(wireString(nil, typ)); n < len(whole); n += 7 {
			if _, err := parseSigningKey(whole[:n]); err == nil {
				t.Errorf("%s: accepted %d of %d bytes", typ, n, len(whole))
			}
		}
		if _, err := parseSigningKey(certBlob(typ, ck.Parts, 100, 200, "x")); err == nil {
			t.Errorf("%s: accepted a byte after the certificate", typ)
		}
	}
	plain := wireString(wireString(nil, "ssh-ed25519"), strings.Repeat("k", 32))
	if k, err := parseSigningKey(plain); err != nil || k.Cert != nil || k.Fingerprint != keyFingerprint(plain) {
		t.Errorf("a plain key: %+v, %v", k, err)
	}
	if _, err := parseSigningKey(wireString(nil, "ssh-xyz-cert-v01@openssh.com")); err == nil {
		t.Error("accepted an unknown certificate type")
	}
}

func TestParseChanges(t *testing.T) {
	const file = "docs/t.md"
	out := "commit " + idA + " " + idB + " 30 " + idB + "\n:100644 000000 " + idB + " " + zeroOID + " D\t" + file + "\n\n" +
		"commit " + idB + " " + idA + " 20 " + idA + " " + idB + "\n:100644 100644 " + idA + " " + idB + " M\t" + file + "\n" +
		"commit " + idB + " " + idA + " 20 " + idA + " " + idB + "\n:100644 100644 " + idB + " " + idB + " M\t" + file + "\n\n" +
		"commit " + idA + " " + idA + " 10 \n:000000 120000 " + zeroOID + " " + idA + " A\t" + file + "\n:000000 100644 " + zeroOID + " " + idA + " A\tother\n"
	got, err := parseChanges([]byte(out), file)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || !got[0].Removed || got[0].Blob != "" || got[0].CommittedAt.Unix() != 30 ||
		got[1].Blob != idB || len(got[1].Parents) != 2 || got[2].Blob != "" || got[2].Removed || len(got[2].Parents) != 0 {
		t.Fatalf("%+v", got)
	}
	for _, bad := range []string{"commit " + idA + " " + idB + "\n", "commit " + idA + " " + idB + " x\n", ":100644 100644 a b M\tf\n", "junk\n",
		"commit " + idA + " " + idB + " 1 zz\n"} {
		if _, err := parseChanges([]byte(bad), file); err == nil {
			t.Errorf("accepted %q", bad)
		}
	}
}
