package prompt

import (
	"bytes"
	"strings"
	"testing"
)

func FuzzParseLine(f *testing.F) {
	for _, s := range []string{"A\n", "A\r\n", "A", "\n", "A\nB\n", "AUTHORIZE RF TX\r\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		answer, ok := parseLine(b)
		if !ok {
			if answer != "" {
				t.Fatalf("parseLine(%q) = %q without ok", b, answer)
			}
			return
		}
		if strings.ContainsAny(answer, "\r\n") {
			t.Fatalf("parseLine(%q) = %q holds a line break", b, answer)
		}
		// The answer is the input minus exactly its line ending.
		if !bytes.Equal(b, []byte(answer+"\n")) && !bytes.Equal(b, []byte(answer+"\r\n")) {
			t.Fatalf("parseLine(%q) = %q is not the line without its ending", b, answer)
		}
		if c, ok := parseChoice(b); ok != (answer == "A" || answer == "D" || answer == "S") || (ok && c == ChoiceNone) {
			t.Fatalf("parseChoice(%q) = %v, %v for answer %q", b, c, ok, answer)
		}
	})
}
