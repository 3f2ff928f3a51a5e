package result

import "testing"

// walk words each way strictjson refuses a result document exactly as the
// protocol's messages have it, as one syntax problem.
func TestWalkWording(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{``, "is empty; expected one JSON object"},
		{`[1]`, "must be one JSON object, got an array at the top level"},
		{`null`, "must be one JSON object, got null at the top level"},
		{`{} x`, "has data after the JSON object, which ends at byte 2; only whitespace may follow"},
		{`{"a":1`, "is not valid JSON: unexpected end of input at byte 6"},
		{`{"a":}`, "is not valid JSON: invalid character '}' looking for beginning of value at byte 5"},
	} {
		var p problems
		if _, ok := walk([]byte(tt.in), &p); ok || len(p) != 1 {
			t.Errorf("walk(%q) = %v, %v; want one problem", tt.in, ok, p.err())
			continue
		}
		fe := p[0]
		if fe.Key != "" || fe.Rule != ruleSyntax || fe.Reason != tt.want {
			t.Errorf("walk(%q): %#v, want %q", tt.in, fe, tt.want)
		}
	}
}
