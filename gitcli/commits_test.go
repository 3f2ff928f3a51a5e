package gitcli

import (
	"testing"
	"time"
)

// zeroOID is the ID git prints for "no object" in a raw diff.
const zeroOID = "0000000000000000000000000000000000000000"

// git's parse_buffer_signed_by_header, line by line: what is signed and
// what the signature is.
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

// certBlob builds a certificate of keyType ("ssh-ed25519-cert-v01@openssh.com"
// ...) whose key has parts wire strings, with tail appended at the end.
// ssh-keygen's rule for a certificate: valid-after ≤ t < valid-before.
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
