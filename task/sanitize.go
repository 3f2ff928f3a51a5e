package task

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Sanitize makes untrusted text (the task body) safe to print on a terminal:
// CRLF becomes LF; newline and tab are kept; every other control character
// (ESC, so any escape sequence, CR, NUL, DEL, C1) and every bidi override or
// isolate is shown as a visible escape such as \x1b or \u202e; invalid UTF-8
// becomes U+FFFD. Nothing is removed silently, so the operator sees that the
// text held something odd.
func Sanitize(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteRune(utf8.RuneError)
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		case isControl(r):
			fmt.Fprintf(&b, `\x%02x`, r)
		case isBidi(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// isBidi reports the invisible characters that reorder displayed text
// ("Trojan Source"): marks, embeddings, overrides and isolates.
func isBidi(r rune) bool {
	switch {
	case r == 0x061c, r == 0x200e, r == 0x200f:
		return true
	case r >= 0x202a && r <= 0x202e:
		return true
	case r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}
