package prompt

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Sanitize makes text from a task safe to print on a terminal while keeping
// its layout: newlines and tabs stay, a CRLF becomes a newline, and every
// other control character (C0, DEL, C1), every bidirectional formatting
// character and every line/paragraph separator is replaced by its visible
// escape (`\x1b`, `\u202e`). Bytes that are not UTF-8 are shown as `\xNN`
// (a raw 0x9b is a CSI on 8-bit terminals). The result holds no escape
// sequence a terminal would act on, and Sanitize(Sanitize(s)) == Sanitize(s).
func Sanitize(s string) string { return sanitize(s, true) }

// SanitizeLine is Sanitize for one-line fields (IDs, titles): newlines and
// tabs are escaped as well.
func SanitizeLine(s string) string { return sanitize(s, false) }

func sanitize(s string, multiline bool) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case multiline && (r == '\n' || r == '\t'):
			b.WriteRune(r)
		case multiline && r == '\r' && strings.HasPrefix(s[i+1:], "\n"):
			// dropped: the \n that follows is written next
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r >= 0x80 && r <= 0x9f, unsafeFormat(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// unsafeFormat reports invisible characters that can make a terminal show
// text in another order or on another line than it is stored: the bidi
// marks, embeddings, overrides and isolates, and the Unicode line and
// paragraph separators.
func unsafeFormat(r rune) bool {
	switch {
	case r == 0x061c, r == 0x200e, r == 0x200f: // ALM, LRM, RLM
		return true
	case r >= 0x202a && r <= 0x202e: // LRE RLE PDF LRO RLO
		return true
	case r >= 0x2066 && r <= 0x2069: // LRI RLI FSI PDI
		return true
	case r == 0x2028, r == 0x2029:
		return true
	}
	return false
}
