package prompt

import (
	"testing"
	"unicode/utf8"
)

func TestSanitize(t *testing.T) {
	cases := []struct{ in, multi, line string }{
		{"plain text", "plain text", "plain text"},
		{"a\nb\tc", "a\nb\tc", `a\x0ab\x09c`},
		{"crlf\r\nnext", "crlf\nnext", `crlf\x0d\x0anext`},
		{"lone\rcr", `lone\x0dcr`, `lone\x0dcr`},
		{"\x1b[31mred\x1b[0m", `\x1b[31mred\x1b[0m`, `\x1b[31mred\x1b[0m`},
		{"\x1b]0;title\x07", `\x1b]0;title\x07`, `\x1b]0;title\x07`},
		{"nul\x00del\x7f", `nul\x00del\x7f`, `nul\x00del\x7f`},
		{"c1 \u009b csi \u0085 nel", `c1 \u009b csi \u0085 nel`, `c1 \u009b csi \u0085 nel`},
		{"raw \x9b byte", `raw \x9b byte`, `raw \x9b byte`},
		{"bad \xff\xfe utf8", `bad \xff\xfe utf8`, `bad \xff\xfe utf8`},
		{"\u202eevil\u202c", `\u202eevil\u202c`, `\u202eevil\u202c`},
		{"\u2066\u2067\u2068\u2069", `\u2066\u2067\u2068\u2069`, `\u2066\u2067\u2068\u2069`},
		{"\u200e\u200f\u061c", `\u200e\u200f\u061c`, `\u200e\u200f\u061c`},
		{"line\u2028sep\u2029", `line\u2028sep\u2029`, `line\u2028sep\u2029`},
		{"ünïcödé 2.4 GHz µs → ok", "ünïcödé 2.4 GHz µs → ok", "ünïcödé 2.4 GHz µs → ok"},
		{"\ufffd literal", "\ufffd literal", "\ufffd literal"},
		{"", "", ""},
	}
	for _, c := range cases {
		if got := Sanitize(c.in); got != c.multi {
			t.Errorf("Sanitize(%q) = %q, want %q", c.in, got, c.multi)
		}
		if got := SanitizeLine(c.in); got != c.line {
			t.Errorf("SanitizeLine(%q) = %q, want %q", c.in, got, c.line)
		}
	}
}

// checkSafe fails on anything a terminal would act on or reorder.
func checkSafe(t *testing.T, in, out string, multiline bool) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Fatalf("sanitize(%q) = %q: not UTF-8", in, out)
	}
	for _, r := range out {
		if multiline && (r == '\n' || r == '\t') {
			continue
		}
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || unsafeFormat(r) {
			t.Fatalf("sanitize(%q) = %q: holds %U", in, out, r)
		}
	}
}
