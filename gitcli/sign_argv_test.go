package gitcli

import (
	"reflect"
	"testing"
)

// With a sshsig.SigningKey, Commit and CommitTree ask git to sign and hand the
// runner the key (which pins the signing program); without one they
// refuse signing explicitly and carry no signature options.
func TestSigningArgv(t *testing.T) {
	identity := ok("user.name\nRX\x00user.email\nrx@lab\x00")
	for _, key := range []string{"", "/keys/rx.pub"} {
		f := &fakeRunner{t: t, replies: []fakeReply{identity, ok(idB + "\n"), identity, ok(""), ok(idA + "\n")}}
		c := &Client{R: f, Dir: "/repo", SigningKey: key}
		if _, err := c.CommitTree(t.Context(), idA, "HEAD", "m", nil); err != nil {
			t.Fatal(err)
		}
		if _, err := c.Commit(t.Context(), "m", nil); err != nil {
			t.Fatal(err)
		}
		flag := "--no-gpg-sign"
		if key != "" {
			flag = "--gpg-sign"
		}
		wantTree := []string{"commit-tree", "-p", "HEAD", "-F", "-", flag, "--end-of-options", idA}
		wantCommit := []string{"commit", "--quiet", "--no-verify", flag, "--cleanup=whitespace", "--file=-"}
		for i, want := range map[int][]string{1: wantTree, 3: wantCommit} {
			call := f.calls[i]
			if !reflect.DeepEqual(call.Args, want) {
				t.Errorf("key %q: argv %q, want %q", key, call.Args, want)
			}
			switch {
			case key == "" && call.Signatures != nil:
				t.Errorf("unsigned %s carries signature options %+v", want[0], call.Signatures)
			case key != "" && (call.Signatures == nil || call.Signatures.SigningKey != key || call.Signatures.AllowedSigners != ""):
				t.Errorf("signed %s: signature options %+v, want the key %s", want[0], call.Signatures, key)
			}
		}
	}
}
