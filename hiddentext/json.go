package hiddentext

import (
	"fmt"
	"unicode/utf16"
	"unicode/utf8"
)

// EscapeJSON is JSON text with every Hidden character encoding/json leaves
// raw (such as U+009B, which a terminal takes for CSI) written as a \uXXXX
// escape, and every byte that is not UTF-8 as \ufffd: the JSON means what
// it meant, and a terminal acts on none of it. Newline, CR and tab stay:
// encoding/json escapes them inside strings.
func EscapeJSON(data []byte) []byte {
	out := make([]byte, 0, len(data))
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			out = append(out, `\ufffd`...)
		case r == '\n' || r == '\r' || r == '\t' || !Hidden(r):
			out = append(out, data[i:i+size]...)
		default:
			for _, u := range utf16.Encode([]rune{r}) {
				out = fmt.Appendf(out, `\u%04x`, u)
			}
		}
		i += size
	}
	return out
}
