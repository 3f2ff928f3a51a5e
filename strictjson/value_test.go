package strictjson

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestDescribe(t *testing.T) {
	long := strings.Repeat("é", 50) // 100 bytes
	tests := []struct {
		v    Value
		want string
	}{
		{Value{Kind: Null}, "null"},
		{Value{Kind: Bool, Bool: true}, "true"},
		{Value{Kind: Bool}, "false"},
		{Value{Kind: Number, Text: "1.0"}, "the number 1.0"},
		{Value{Kind: String, Text: "a\"b\x1b"}, `the string "a\"b\x1b"`},
		{Value{Kind: String, Text: long}, `the string "` + strings.Repeat("é", 40) + `…"`},
		{Value{Kind: Object, Text: `{"a":1}`}, "an object"},
		{Value{Kind: Array}, "an array"},
	}
	for _, tt := range tests {
		if got := tt.v.Describe(); got != tt.want {
			t.Errorf("Describe(%+v) = %q, want %q", tt.v, got, tt.want)
		}
	}
}

func TestShorten(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{strings.Repeat("a", maxShown), strings.Repeat("a", maxShown)},
		{strings.Repeat("a", maxShown+1), strings.Repeat("a", maxShown) + "…"},
		// A cut inside a rune moves back to its start.
		{"a" + strings.Repeat("€", 30), "a" + strings.Repeat("€", 26) + "…"},
	}
	for _, tt := range tests {
		got := shorten(tt.in)
		if got != tt.want {
			t.Errorf("Shorten(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if !utf8.ValidString(got) {
			t.Errorf("Shorten(%q) is not valid UTF-8", tt.in)
		}
	}
}

func TestMembersAdd(t *testing.T) {
	var m Members[int]
	for i, k := range []string{"b", "a", "b", "c", "b"} {
		m.Add(k, i)
	}
	if got := strings.Join(m.Order, ","); got != "b,a,c" {
		t.Errorf("Order = %s, want b,a,c (first-seen)", got)
	}
	if got := m.Values["b"]; len(got) != 3 || got[0] != 0 || got[1] != 2 || got[2] != 4 {
		t.Errorf("Values[b] = %v, want [0 2 4]", got)
	}
	if got := m.Values["missing"]; got != nil {
		t.Errorf("Values[missing] = %v", got)
	}
}

// Values compare with ==: the same JSON text after unescaping.
func TestValueEquality(t *testing.T) {
	a := Value{Kind: Number, Text: "1"}
	if a == (Value{Kind: Number, Text: "1.0"}) || a == (Value{Kind: String, Text: "1"}) || a != (Value{Kind: Number, Text: "1"}) {
		t.Error("Value equality does not follow kind and text")
	}
}
