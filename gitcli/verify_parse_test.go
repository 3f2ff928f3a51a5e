package gitcli

import (
	"strings"
	"testing"
)

func TestParseSignature(t *testing.T) {
	const id = "0123456789abcdef0123456789abcdef01234567"
	const fp = "SHA256:jjwEBVxzyM+X59mDGwDuCmLLMTzMJQXXyt0yu5RIdaI"
	cases := []struct {
		name, in string
		want     Signature
		good     bool
		err      string
	}{
		{name: "good", in: id + "\x00G\x00alice@lab\x00" + fp + "\x00\n", want: Signature{Commit: id, Status: 'G', Principal: "alice@lab", Fingerprint: fp}, good: true},
		{name: "unsigned", in: id + "\x00N\x00\x00\x00\n", want: Signature{Commit: id, Status: 'N'}},
		{name: "unlisted key", in: id + "\x00U\x00\x00" + fp + "\x00\n", want: Signature{Commit: id, Status: 'U', Fingerprint: fp}},
		{name: "bad", in: id + "\x00B\x00\x00\x00\n", want: Signature{Commit: id, Status: 'B'}},
		{name: "good without principal is not good", in: id + "\x00G\x00\x00" + fp + "\x00\n", want: Signature{Commit: id, Status: 'G', Fingerprint: fp}},
		{name: "no trailing newline", in: id + "\x00E\x00\x00\x00", want: Signature{Commit: id, Status: 'E'}},
		{name: "short commit", in: "0123\x00G\x00a\x00" + fp + "\x00\n", err: "object ID"},
		{name: "unknown status", in: id + "\x00Q\x00\x00\x00\n", err: `status "Q"`},
		{name: "space status", in: id + "\x00 \x00\x00\x00\n", err: `status " "`},
		{name: "too few fields", in: id + "\x00G\x00\n", err: "has 2 fields"},
		{name: "control in principal", in: id + "\x00G\x00a\x1b[2Jb\x00" + fp + "\x00\n", err: "not printable"},
		{name: "odd fingerprint", in: id + "\x00G\x00a\x00MD5:aa\x00\n", err: "not a SHA256"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseSignature([]byte(tc.in))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want || got.Good() != tc.good {
				t.Fatalf("got %+v (good %v), want %+v (good %v)", got, got.Good(), tc.want, tc.good)
			}
		})
	}
}

func TestSignatureProblemNamesKey(t *testing.T) {
	e := &SignatureError{Path: "docs/t.md", Sig: Signature{Commit: "c", Status: 'U', Fingerprint: "SHA256:x"}}
	if got := e.Error(); !strings.Contains(got, "last change of docs/t.md") || !strings.Contains(got, "not in the allowed signers") || !strings.Contains(got, "SHA256:x") {
		t.Fatalf("error = %q", got)
	}
}
