package strictjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"
)

// FuzzReader: no input panics; every refusal is one of the typed errors;
// whatever is accepted is valid JSON whose top level is an object, with the
// keys encoding/json sees; and valid JSON objects are always accepted.
// Seeds: the f.Add calls plus testdata/fuzz/FuzzReader/.
func FuzzReader(f *testing.F) {
	for _, s := range []string{
		`{}`, `{"a":1,"a":1.0}`, `{"o":{"x":[1,[2],{"y":null}]}}`, `[1]`, `"x"`, ``, ` `,
		`{"a":}`, `{"a":1`, `{"a":1} {"b":2}`, `{} x`, `{"\u0041":"\ud800"}`, "{\"a\":\"\xff\"}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := dump(data, 8)
		if err != nil {
			var je *Error
			if !errors.Is(err, ErrEmpty) && !(errors.As(err, &je) && je.Kind != Depth) {
				t.Fatalf("%q: untyped error %T %v", data, err, err)
			}
			trimmed := bytes.TrimLeft(data, " \t\r\n")
			if json.Valid(data) && len(trimmed) > 0 && trimmed[0] == '{' {
				t.Fatalf("%q: valid JSON object refused: %v", data, err)
			}
			return
		}
		// encoding/json's scanner stops at 10,000 levels; Skip does not.
		if len(data) < 10000 && !json.Valid(data) {
			t.Fatalf("%q: accepted invalid JSON as %s", data, got)
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(data, &m); err != nil {
			if len(data) < 10000 {
				t.Fatalf("%q: accepted, but encoding/json refuses it as an object: %v", data, err)
			}
			return
		}
		r := newReader(data)
		if err := r.object(); err != nil {
			t.Fatal(err)
		}
		var keys Members[Value]
		if err := r.members(func(k string) error {
			v, err := r.Read()
			if err == nil && (v.Kind == Object || v.Kind == Array) {
				err = r.skip(0)
			}
			keys.Add(k, v)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if len(keys.Order) != len(m) {
			t.Fatalf("%q: keys %q, encoding/json sees %d", data, keys.Order, len(m))
		}
		for _, k := range keys.Order {
			raw, ok := m[k]
			if !ok {
				t.Fatalf("%q: key %q unknown to encoding/json", data, k)
			}
			vs := keys.Values[k]
			if last := vs[len(vs)-1]; last.Kind == String { // encoding/json keeps the last
				var s string
				if err := json.Unmarshal(raw, &s); err != nil || s != last.Text {
					t.Fatalf("%q: %q is %q, encoding/json says %q (%v)", data, k, last.Text, s, err)
				}
			}
		}
	})
}
