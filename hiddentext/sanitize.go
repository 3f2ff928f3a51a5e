package hiddentext

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Sanitize is the one rendering of untrusted text for a person and for an
// agent alike, so the operator approves exactly the characters an agent
// will read. Newlines and tabs are kept and a CRLF becomes a newline; every
// other CR and Hidden character is written as <U+XXXX>, and every byte that
// is not UTF-8 as <0xNN>. Nothing is dropped silently, and
// Sanitize(Sanitize(s)) == Sanitize(s).
func Sanitize(s string) string {
	out, _ := sanitize(s, true)
	return out
}

// SanitizeLine is Sanitize for one-line fields: newlines, tabs and every
// CR are escaped as well.
func SanitizeLine(s string) string {
	out, _ := sanitize(s, false)
	return out
}

// Escapes lists the escapes Sanitize(s) writes, in order, repeats included.
func Escapes(s string) []string {
	_, esc := sanitize(s, true)
	return esc
}

func sanitize(s string, multiline bool) (string, []string) {
	var b strings.Builder
	b.Grow(len(s))
	var esc []string
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			esc = append(esc, fmt.Sprintf("<0x%02X>", s[i]))
			b.WriteString(esc[len(esc)-1])
		case multiline && (r == '\n' || r == '\t'):
			b.WriteRune(r)
		case multiline && r == '\r' && strings.HasPrefix(s[i+1:], "\n"):
			// dropped: the \n that follows is written next (the first CR
			// of a CR CR LF is escaped).
		case Hidden(r):
			esc = append(esc, fmt.Sprintf("<%U>", r))
			b.WriteString(esc[len(esc)-1])
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String(), esc
}
