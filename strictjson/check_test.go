package strictjson

import (
	"regexp"
	"testing"
	"time"
)

// value reads one JSON value the way a table's Check receives it.
func value(t *testing.T, text string) *Node {
	t.Helper()
	n, err := Parse([]byte(`{"k":`+text+`}`), Shape{Keep: 1})
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	return n.Members.Values["k"][0]
}

// Each check accepts its one kind and range, and says why not otherwise.
func TestChecks(t *testing.T) {
	offset := regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{1,9})?(Z|[+-][0-9]{2}:[0-9]{2})$`)
	hex := regexp.MustCompile(`^[0-9a-f]{4}$`)
	check := map[string]func(v *Node) string{
		"int":   func(v *Node) string { _, why := Int(v); return why },
		"range": func(v *Node) string { var n int64; return Range(v, 1, 10, &n) },
		"bool":  func(v *Node) string { var b bool; return Boolean(v, &b) },
		"str":   func(v *Node) string { _, why := Str(v, "a name"); return why },
		"match": func(v *Node) string { var s string; return Match(v, hex, "four hex digits", &s) },
		"time":  func(v *Node) string { var ts time.Time; return Time(v, offset, "a time", &ts) },
	}
	for _, c := range []struct{ check, in, why string }{
		{"int", `-42`, ""},
		{"int", `1.0`, "must be an integer written without a fraction or exponent, got the number 1.0"},
		{"int", `1e3`, "must be an integer written without a fraction or exponent, got the number 1e3"},
		{"int", `"1"`, `must be an integer, got the string "1"`},
		{"int", `9007199254740992`, "must be an integer within ±9007199254740991, got the number 9007199254740992"},
		{"range", `10`, ""},
		{"range", `11`, "must be 1 to 10, got 11"},
		{"range", `true`, "must be an integer, got true"},
		{"bool", `false`, ""},
		{"bool", `0`, "must be true or false, got the number 0"},
		{"str", `"x"`, ""},
		{"str", `null`, "must be a name, got null"},
		{"match", `"beef"`, ""},
		{"match", `"BEEF"`, `must be four hex digits, got the string "BEEF"`},
		{"match", `7`, "must be four hex digits, got the number 7"},
		{"time", `"2026-01-02T16:04:05.5+01:00"`, ""},
		{"time", `"2026-01-02 16:04:05Z"`, `must be a time, got the string "2026-01-02 16:04:05Z"`},
		{"time", `"2026-01-02T24:00:00Z"`, `must be a time, got the string "2026-01-02T24:00:00Z" (out of range)`},
		{"time", `"2026-01-02T16:04:05+24:00"`, `must be a time, got the string "2026-01-02T16:04:05+24:00" (out of range)`},
		{"time", `"2026-01-02T16:04:05+01:60"`, `must be a time, got the string "2026-01-02T16:04:05+01:60" (out of range)`},
	} {
		if got := check[c.check](value(t, c.in)); got != c.why {
			t.Errorf("%s(%s) = %q, want %q", c.check, c.in, got, c.why)
		}
	}
}

// A check stores nothing it refuses.
func TestChecksStoreOnlyWhatTheyAccept(t *testing.T) {
	n := int64(5)
	if Range(value(t, `99`), 1, 10, &n); n != 5 {
		t.Errorf("Range stored %d from a refused value", n)
	}
	var ts time.Time
	if Time(value(t, `"2026-01-02T16:04:05+24:00"`), regexp.MustCompile(`.`), "a time", &ts); !ts.IsZero() {
		t.Errorf("Time stored %v from a refused value", ts)
	}
	s := "kept"
	if Match(value(t, `"nope"`), regexp.MustCompile(`^x$`), "x", &s); s != "kept" {
		t.Errorf("Match stored %q from a refused value", s)
	}
}
