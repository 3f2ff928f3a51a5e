package hiddentext

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestSanitize(t *testing.T) {
	cases := []struct{ name, in, multi, line string }{
		{"plain", "plain text", "plain text", "plain text"},
		{"newline and tab", "a\nb\tc", "a\nb\tc", `a<U+000A>b<U+0009>c`},
		// CR: a CRLF is a line ending; every other CR is shown.
		{"CRLF", "crlf\r\nnext", "crlf\nnext", `crlf<U+000D><U+000A>next`},
		{"CRLF at the end", "last\r\n", "last\n", `last<U+000D><U+000A>`},
		{"lone CR", "lone\rcr", `lone<U+000D>cr`, `lone<U+000D>cr`},
		{"CR at the end", "end\r", `end<U+000D>`, `end<U+000D>`},
		{"CR at the start", "\rstart", `<U+000D>start`, `<U+000D>start`},
		{"CR CR LF", "over\r\r\nwrite", "over<U+000D>\nwrite", `over<U+000D><U+000D><U+000A>write`},
		{"CR CR CR LF", "a\r\r\r\nb", "a<U+000D><U+000D>\nb", `a<U+000D><U+000D><U+000D><U+000A>b`},
		{"LF CR", "a\n\rb", "a\n<U+000D>b", `a<U+000A><U+000D>b`},
		{"CR only", "\r", `<U+000D>`, `<U+000D>`},
		{"CSI", "\x1b[31mred\x1b[0m", `<U+001B>[31mred<U+001B>[0m`, `<U+001B>[31mred<U+001B>[0m`},
		{"OSC", "\x1b]0;title\x07", `<U+001B>]0;title<U+0007>`, `<U+001B>]0;title<U+0007>`},
		{"NUL, DEL", "nul\x00del\x7f", `nul<U+0000>del<U+007F>`, `nul<U+0000>del<U+007F>`},
		{"C1", "c1 \u009b csi \u0085 nel", `c1 <U+009B> csi <U+0085> nel`, `c1 <U+009B> csi <U+0085> nel`},
		{"raw 0x9b byte", "raw \x9b byte", `raw <0x9B> byte`, `raw <0x9B> byte`},
		{"invalid UTF-8", "bad \xff\xfe utf8", `bad <0xFF><0xFE> utf8`, `bad <0xFF><0xFE> utf8`},
		{"surrogate bytes", "\xed\xa0\x80", `<0xED><0xA0><0x80>`, `<0xED><0xA0><0x80>`},
		{"bidi override", "\u202eevil\u202c", `<U+202E>evil<U+202C>`, `<U+202E>evil<U+202C>`},
		{"bidi isolates", "\u2066\u2067\u2068\u2069", `<U+2066><U+2067><U+2068><U+2069>`, `<U+2066><U+2067><U+2068><U+2069>`},
		{"bidi marks", "\u200e\u200f\u061c", `<U+200E><U+200F><U+061C>`, `<U+200E><U+200F><U+061C>`},
		{"line separators", "line\u2028sep\u2029", `line<U+2028>sep<U+2029>`, `line<U+2028>sep<U+2029>`},
		// Tag characters spell ASCII a person cannot see: "ignore" here.
		{"tag characters", "ok\U000E0001\U000E0069\U000E0067\U000E006E\U000E006F\U000E0072\U000E0065\U000E007F",
			`ok<U+E0001><U+E0069><U+E0067><U+E006E><U+E006F><U+E0072><U+E0065><U+E007F>`,
			`ok<U+E0001><U+E0069><U+E0067><U+E006E><U+E006F><U+E0072><U+E0065><U+E007F>`},
		{"zero-width space", "a\u200bb", `a<U+200B>b`, `a<U+200B>b`},
		{"zero-width non-joiner, joiner", "a\u200cb\u200dc", `a<U+200C>b<U+200D>c`, `a<U+200C>b<U+200D>c`},
		{"word joiner", "a\u2060b", `a<U+2060>b`, `a<U+2060>b`},
		{"soft hyphen", "trans\u00admit", `trans<U+00AD>mit`, `trans<U+00AD>mit`},
		{"BOM (Cf)", "\ufeffstart", `<U+FEFF>start`, `<U+FEFF>start`},
		{"Mongolian vowel separator (Cf)", "a\u180eb", `a<U+180E>b`, `a<U+180E>b`},
		{"private use BMP", "pua \ue000\uf8ff", `pua <U+E000><U+F8FF>`, `pua <U+E000><U+F8FF>`},
		{"private use plane 15", "\U000F0000\U000FFFFD", `<U+F0000><U+FFFFD>`, `<U+F0000><U+FFFFD>`},
		{"private use plane 16", "\U00100000\U0010FFFD", `<U+100000><U+10FFFD>`, `<U+100000><U+10FFFD>`},
		{"unassigned", "\u0378 \U0002FFFF \U000E0080", `<U+0378> <U+2FFFF> <U+E0080>`, `<U+0378> <U+2FFFF> <U+E0080>`},
		{"noncharacters", "\ufffe\uffff\U0010FFFF", `<U+FFFE><U+FFFF><U+10FFFF>`, `<U+FFFE><U+FFFF><U+10FFFF>`},
		{"variation selectors", "\u2764\ufe0f \u845b\U000E0100", `❤<U+FE0F> 葛<U+E0100>`, `❤<U+FE0F> 葛<U+E0100>`},
		{"Mongolian free variation selectors", "\u180b\u180f", `<U+180B><U+180F>`, `<U+180B><U+180F>`},
		{"combining grapheme joiner", "a\u034fb", `a<U+034F>b`, `a<U+034F>b`},
		{"Hangul fillers", "\u115f\u1160\u3164\uffa0", `<U+115F><U+1160><U+3164><U+FFA0>`, `<U+115F><U+1160><U+3164><U+FFA0>`},
		{"Khmer inherent vowels", "\u17b4\u17b5", `<U+17B4><U+17B5>`, `<U+17B4><U+17B5>`},
		{"unicode kept", "ünïcödé 2.4 GHz µs → ok ✓", "ünïcödé 2.4 GHz µs → ok ✓", "ünïcödé 2.4 GHz µs → ok ✓"},
		{"combining mark kept", "e\u0301", "e\u0301", "e\u0301"},
		{"neighbours of the blanks kept", "\u2801 \U00016FE3 \ufffd \u2027", "\u2801 \U00016FE3 \ufffd \u2027", "\u2801 \U00016FE3 \ufffd \u2027"},
		{"literal U+FFFD kept", "\ufffd literal", "\ufffd literal", "\ufffd literal"},
		{"literal escape kept", "<U+200B> and \\x1b", "<U+200B> and \\x1b", "<U+200B> and \\x1b"},
		{"empty", "", "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Sanitize(c.in); got != c.multi {
				t.Errorf("Sanitize(%q) = %q, want %q", c.in, got, c.multi)
			}
			if got := SanitizeLine(c.in); got != c.line {
				t.Errorf("SanitizeLine(%q) = %q, want %q", c.in, got, c.line)
			}
			checkSafe(t, c.in, Sanitize(c.in), true)
			checkSafe(t, c.in, SanitizeLine(c.in), false)
		})
	}
}

// blanks is every character that prints as a space or as nothing without
// being U+0020 (PROTOCOL#hidden-text), with the escape it must be shown as, written
// out rather than computed so that a wrong format fails too.
var blanks = []struct{ r, shown string }{
	{"\u00a0", "<U+00A0>"}, {"\u1680", "<U+1680>"},
	{"\u2000", "<U+2000>"}, {"\u2001", "<U+2001>"}, {"\u2002", "<U+2002>"}, {"\u2003", "<U+2003>"},
	{"\u2004", "<U+2004>"}, {"\u2005", "<U+2005>"}, {"\u2006", "<U+2006>"}, {"\u2007", "<U+2007>"},
	{"\u2008", "<U+2008>"}, {"\u2009", "<U+2009>"}, {"\u200a", "<U+200A>"},
	{"\u202f", "<U+202F>"}, {"\u205f", "<U+205F>"}, {"\u3000", "<U+3000>"},
	{"\u2800", "<U+2800>"}, {"\u3164", "<U+3164>"}, {"\u115f", "<U+115F>"}, {"\u1160", "<U+1160>"},
	{"\uffa0", "<U+FFA0>"}, {"\ufffc", "<U+FFFC>"}, {"\U00016FE4", "<U+16FE4>"},
}

// TestSanitizeBlanks: each blank-looking character is escaped, alone,
// between letters and repeated, in both renderings, and counted.
func TestSanitizeBlanks(t *testing.T) {
	for _, c := range blanks {
		t.Run(c.shown, func(t *testing.T) {
			for in, want := range map[string]string{
				c.r:                     c.shown,
				"a" + c.r + "b":         "a" + c.shown + "b",
				c.r + c.r + "\n":        c.shown + c.shown + "\n",
				"gain " + c.r + " 40\t": "gain " + c.shown + " 40\t",
			} {
				if got := Sanitize(in); got != want {
					t.Errorf("Sanitize(%q) = %q, want %q", in, got, want)
				}
				line := strings.NewReplacer("\n", "<U+000A>", "\t", "<U+0009>").Replace(want)
				if got := SanitizeLine(in); got != line {
					t.Errorf("SanitizeLine(%q) = %q, want %q", in, got, line)
				}
				checkSafe(t, in, Sanitize(in), true)
				checkSafe(t, in, SanitizeLine(in), false)
			}
			if got := Escapes("x" + c.r + "y" + c.r); !slices.Equal(got, []string{c.shown, c.shown}) {
				t.Errorf("Escapes = %q, want %s twice", got, c.shown)
			}
			r, _ := utf8.DecodeRuneInString(c.r)
			if !Hidden(r) {
				t.Errorf("Hidden(%U) = false", r)
			}
		})
	}
}

func TestEscapes(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"plain\n\ttext\r\n", nil},
		{"a\u200bb\U000E0069\xff\x1b", []string{"<U+200B>", "<U+E0069>", "<0xFF>", "<U+001B>"}},
		{"\u2764\ufe0f", []string{"<U+FE0F>"}},
		{"a\r\r\nb\rc\r", []string{"<U+000D>", "<U+000D>", "<U+000D>"}},
		{"433\u00a0MHz\u2800", []string{"<U+00A0>", "<U+2800>"}},
		{"", nil},
	} {
		if got := Escapes(c.in); !slices.Equal(got, c.want) {
			t.Errorf("Escapes(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestHiddenClasses checks Hidden against the definition class by class,
// over every code point.
func TestHiddenClasses(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		want := unicode.In(r, unicode.Cc, unicode.Cf, unicode.Co, unicode.Cs, unicode.Zl, unicode.Zp) ||
			!unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Zs, unicode.Cc, unicode.Cf, unicode.Co, unicode.Cs) ||
			r >= 0xe0000 && r <= 0xe007f || unicode.Is(unicode.Variation_Selector, r) || unicode.Is(defaultIgnorable, r) ||
			unicode.Is(unicode.Zs, r) && r != ' ' || slices.Contains([]rune{0x2800, 0x3164, 0x115f, 0x1160, 0xffa0, 0xfffc, 0x16fe4}, r)
		if got := Hidden(r); got != want {
			t.Fatalf("Hidden(%U) = %v, want %v", r, got, want)
		}
	}
	// Spot checks a table mistake could not hide.
	for _, r := range []rune{0x1b, 0x9b, 0x00ad, 0x200b, 0x200d, 0x2060, 0xfeff, 0xe000, 0xf0000, 0x10fffd,
		0xe0001, 0xe0041, 0xe007f, 0xfe0f, 0xe0100, 0x034f, 0x3164, 0x0378, 0xfffe,
		0x00a0, 0x3000, 0x2000, 0x200a, 0x2800, 0xfffc, 0x16fe4} {
		if !Hidden(r) {
			t.Errorf("Hidden(%U) = false", r)
		}
	}
	for _, r := range []rune{' ', 'a', 'é', 0x0301, 0xfffd, 0x2764, 0x1f600, 0x2801, 0x16fe3, 0x2027} {
		if Hidden(r) {
			t.Errorf("Hidden(%U) = true", r)
		}
	}
}

// TestHiddenCoversUnprintable: every character unicode.IsPrint refuses,
// the ASCII space aside, is Hidden, so a title (PROTOCOL#task-file, PROTOCOL#hidden-text) needs no
// second rule for "not printable".
func TestHiddenCoversUnprintable(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if !unicode.IsPrint(r) && r != ' ' && !Hidden(r) {
			t.Errorf("%U is not printable but not Hidden", r)
		}
	}
}

// TestDefaultIgnorableTable re-derives Default_Ignorable_Code_Point as
// DerivedCoreProperties.txt defines it, from the properties Go's unicode
// package carries: Other_Default_Ignorable_Code_Point + Cf +
// Variation_Selector - White_Space - FFF9..FFFB - 13430..1343F -
// Prepended_Concatenation_Mark.
func TestDefaultIgnorableTable(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		want := unicode.In(r, unicode.Other_Default_Ignorable_Code_Point, unicode.Cf, unicode.Variation_Selector) &&
			!unicode.Is(unicode.White_Space, r) && !(r >= 0xfff9 && r <= 0xfffb) &&
			!(r >= 0x13430 && r <= 0x1343f) && !unicode.Is(unicode.Prepended_Concatenation_Mark, r)
		if got := unicode.Is(defaultIgnorable, r); got != want {
			t.Errorf("defaultIgnorable holds %U: %v, derived: %v", r, got, want)
		}
	}
}

// checkSafe fails on anything Hidden left in the output, and on output that
// a second pass would change.
func checkSafe(t *testing.T, in, out string, multiline bool) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Fatalf("sanitize(%q) = %q: not UTF-8", in, out)
	}
	for _, r := range out {
		if multiline && (r == '\n' || r == '\t') {
			continue
		}
		if Hidden(r) {
			t.Fatalf("sanitize(%q) = %q: holds %U", in, out, r)
		}
	}
	if again, _ := sanitize(out, multiline); again != out {
		t.Fatalf("not idempotent: %q -> %q -> %q", in, out, again)
	}
}

func FuzzSanitize(f *testing.F) {
	for _, s := range []string{"plain", "a\r\nb", "\x1b[31m", "\u202e", "\x9b", "\r\r\n", "\t\n", "\U000E0069\u200b\ufe0f", "a\u00a0\u2800\r"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, multiline := range []bool{true, false} {
			out, _ := sanitize(s, multiline)
			checkSafe(t, s, out, multiline)
		}
	})
}

// EscapeJSON leaves JSON meaning the same and holding no Hidden character
// but the whitespace between values.
func TestEscapeJSON(t *testing.T) {
	values := []string{
		"plain", "esc \x1b[2J bell \a", "csi \u009b31m del \x7f", "bidi \u202e rtl", "tag \U000E0041 vs \uFE0F",
		"line \u2028 para \u2029", "nbsp\u00a0 braille \u2800", "emoji \U0001F4E1 é", "quote \" back \\ nl \n tab \t",
	}
	raw, err := json.Marshal(values)
	if err != nil {
		t.Fatal(err)
	}
	raw = append(raw, '\n')
	got := EscapeJSON(raw)
	var back []string
	if err := json.Unmarshal(got, &back); err != nil {
		t.Fatalf("%s: %v", got, err)
	}
	if !slices.Equal(back, values) {
		t.Errorf("decoded %q, want %q", back, values)
	}
	for _, r := range string(got[:len(got)-1]) {
		if Hidden(r) {
			t.Errorf("%U left raw in %s", r, got)
		}
	}
	if got[len(got)-1] != '\n' {
		t.Error("the newline between values was escaped")
	}
	if string(EscapeJSON([]byte("\"a\xffb\""))) != `"a\ufffdb"` {
		t.Errorf("a byte that is not UTF-8: %q", EscapeJSON([]byte("\"a\xffb\"")))
	}
}
