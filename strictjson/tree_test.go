package strictjson

import (
	"errors"
	"testing"
)

// Parse keeps Keep levels, skips deeper containers with their raw text,
// bounds depth whether a container is kept or skipped, and checks what
// follows the object unless Lenient.
func TestParse(t *testing.T) {
	n, err := Parse([]byte(`{"a":1.0,"o":{"x":[1,{"y":null}]},"a":"s","c" : [1, {"b": 2}]}`), Shape{Keep: 1})
	if err != nil {
		t.Fatal(err)
	}
	m := n.Members
	if len(m.Order) != 3 || m.Order[0] != "a" || m.Order[1] != "o" || m.Order[2] != "c" {
		t.Fatalf("keys %q", m.Order)
	}
	if a := m.Values["a"]; len(a) != 2 || a[0].Value != (Value{Kind: Number, Text: "1.0"}) || a[1].Value != (Value{Kind: String, Text: "s"}) {
		t.Errorf("a = %+v %+v", a[0], a[1])
	}
	if o := m.Values["o"][0]; o.Kind != Object || o.Members != nil || o.Text != `{"x":[1,{"y":null}]}` {
		t.Errorf("skipped object = %+v", o)
	}
	if c := m.Values["c"][0]; c.Kind != Array || c.Elements != nil || c.Text != `[1, {"b": 2}]` {
		t.Errorf("skipped array = %+v", c)
	}

	n, err = Parse([]byte(`{"o":{"x":[1,{"y":null}]}}`), Shape{})
	if err != nil {
		t.Fatal(err)
	}
	x := n.Members.Values["o"][0].Members.Values["x"][0]
	if len(x.Elements) != 2 || x.Elements[0].Text != "1" || x.Elements[1].Members.Values["y"][0].Kind != Null {
		t.Errorf("kept array = %+v", x)
	}
	// A kept container has its raw text too, so duplicates compare.
	if o := n.Members.Values["o"][0]; o.Text != `{"x":[1,{"y":null}]}` || x.Text != `[1,{"y":null}]` {
		t.Errorf("kept containers' text = %q, %q", o.Text, x.Text)
	}

	for _, tt := range []struct {
		in   string
		sh   Shape
		deep bool
	}{
		{`{"a":{"b":{}}}`, Shape{MaxDepth: 3}, false},
		{`{"a":{"b":{"c":{}}}}`, Shape{MaxDepth: 3}, true},
		{`{"a":[[[]]]}`, Shape{MaxDepth: 3}, true},
		{`{"a":[[]]}`, Shape{MaxDepth: 3, Keep: 1}, false},
		{`{"a":[[[]]]}`, Shape{MaxDepth: 3, Keep: 1}, true},
	} {
		_, err := Parse([]byte(tt.in), tt.sh)
		var de *Error
		if got := errors.As(err, &de) && de.Kind == Depth; got != tt.deep || (got && de.Max != tt.sh.MaxDepth) {
			t.Errorf("Parse(%s, %+v) = %v, want a depth error: %v", tt.in, tt.sh, err, tt.deep)
		}
	}

	var td *Error
	if _, err := Parse([]byte(`{"a":1} x`), Shape{}); !errors.As(err, &td) || td.Kind != TrailingData || td.End != 7 {
		t.Errorf("trailing data: %v", err)
	}
	if n, err := Parse([]byte(`{"a":1} x`), Shape{Lenient: true}); err != nil || n.Members.Values["a"][0].Text != "1" {
		t.Errorf("lenient: %v", err)
	}
	var no *Error
	if _, err := Parse([]byte(`[1]`), Shape{}); !errors.As(err, &no) || no.Kind != NotObject {
		t.Errorf("an array at the top: %v", err)
	}
	if _, err := Parse(nil, Shape{}); !errors.Is(err, ErrEmpty) {
		t.Errorf("empty: %v", err)
	}
}
