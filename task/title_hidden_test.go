package task

import (
	"errors"
	"strings"
	"testing"

	"rfhandoff/hiddentext"
)

// TestTitleHiddenCharacters: a title holding a character a terminal does
// not show is invalid, and the reason names each one with its position
// (in characters), so the author can find it.
func TestTitleHiddenCharacters(t *testing.T) {
	for _, c := range []struct {
		name, title, want string
	}{
		{"tag characters", "Capture\U000E0069\U000E0067", "U+E0069 at character 8, U+E0067 at character 9"},
		{"zero-width space", "a\u200bb", "U+200B at character 2"},
		{"zero-width joiner", "ab\u200d", "U+200D at character 3"},
		{"word joiner", "\u2060ab", "U+2060 at character 1"},
		{"soft hyphen", "trans\u00admit", "U+00AD at character 6"},
		{"BOM", "x\ufeff", "U+FEFF at character 2"},
		{"private use", "\ue000 \U000F0000 \U00100000", "U+E000 at character 1, U+F0000 at character 3, U+100000 at character 5"},
		{"unassigned", "a\u0378", "U+0378 at character 2"},
		{"variation selector", "\u2764\ufe0f", "U+FE0F at character 2"},
		{"supplementary variation selector", "葛\U000E0100", "U+E0100 at character 2"},
		{"Hangul filler", "\u3164", "U+3164 at character 1"},
		{"combining grapheme joiner", "a\u034fb", "U+034F at character 2"},
		{"bidi override", "ok \u202eevil", "U+202E at character 4"},
		{"after multibyte text", "ééé\u200b", "U+200B at character 4"},
		// What prints as a space or as nothing is no more visible.
		{"no-break space", "433\u00a0MHz", "U+00A0 at character 4"},
		{"ideographic space", "a\u3000b", "U+3000 at character 2"},
		{"hair space", "a\u200ab", "U+200A at character 2"},
		{"Braille blank", "\u2800\u2800", "U+2800 at character 1, U+2800 at character 2"},
		{"object replacement character", "x\ufffc", "U+FFFC at character 2"},
		{"Khitan small script filler", "x\U00016FE4", "U+16FE4 at character 2"},
		{"many", strings.Repeat("\u200b", 12), "U+200B at character 10 and 2 more"},
	} {
		t.Run(c.name, func(t *testing.T) {
			data := hdr(map[string]string{FieldTitle: c.title})
			wantProblems(t, data, testOpts, prob{kindInvalid, FieldTitle, lineOf(FieldTitle)})
			_, err := Parse([]byte(data), testOpts)
			var ie *InvalidError
			if !errors.As(err, &ie) {
				t.Fatalf("error %v", err)
			}
			msg := ie.Problems()[0].Error()
			if !strings.Contains(msg, "holds characters a terminal does not show: ") || !strings.Contains(msg, c.want) {
				t.Errorf("message %q does not name %q", msg, c.want)
			}
			if i := strings.IndexFunc(msg, hiddentext.Hidden); i >= 0 {
				t.Errorf("message %q holds a raw hidden character at byte %d", msg, i)
			}
		})
	}
	// Invisible and blank-looking characters are named together, in order.
	_, err := Parse([]byte(hdr(map[string]string{FieldTitle: "a\u00a0b\u200b"})), testOpts)
	if err == nil || !strings.Contains(err.Error(), "does not show: U+00A0 at character 2, U+200B at character 4") {
		t.Errorf("mixed title: %v", err)
	}
}

// TestHiddenBodyKeepsRawDigest: a body with hidden characters is accepted
// (they are escaped when shown), Body keeps them and its line endings raw
// for the escaping to see, and the digest is of the exact bytes, not of
// any rendering.
func TestHiddenBodyKeepsRawDigest(t *testing.T) {
	body := "## Goal\n\nCapture.\U000E0069\U000E0067\u200b\ufe0f\ue000\r\n"
	data := []byte("\xef\xbb\xbf" + hdr(nil) + "\n" + body)
	tk := mustParse(t, string(data), testOpts)
	if tk.SHA256 != Digest(data) {
		t.Errorf("SHA256 %s is not the digest of the raw bytes %s", tk.SHA256, Digest(data))
	}
	if Digest([]byte(hiddentext.Sanitize(string(data)))) == tk.SHA256 {
		t.Fatal("the sanitized rendering has the same digest: the test proves nothing")
	}
	if tk.Body != body {
		t.Errorf("Body = %q, want %q", tk.Body, body)
	}
	if got, want := hiddentext.Sanitize(tk.Body), "## Goal\n\nCapture.<U+E0069><U+E0067><U+200B><U+FE0F><U+E000>\n"; got != want {
		t.Errorf("Sanitize(Body) = %q, want %q", got, want)
	}
}
