package strictjson

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"testing"
)

func TestReaderKeeps(t *testing.T) {
	tests := []struct {
		name, in, want string
		levels         int // containers nested deeper are skipped
	}{
		{"empty object", `{}`, `{}`, 8},
		{"blanks around", " \t\r\n{ } \n", `{}`, 8},
		{"numbers as written", `{"a":1.0,"b":1e0,"c":-0,"d":1}`, `{"a":n1.0,"b":n1e0,"c":n-0,"d":n1}`, 8},
		{"every occurrence in order", `{"b":1,"a":2,"b":3}`, `{"b":n1,"a":n2,"b":n3}`, 8},
		{"case counts", `{"Key":1,"key":2}`, `{"Key":n1,"key":n2}`, 8},
		{"escapes unescaped", `{"\u0074":"a\"b\u00e9"}`, `{"t":s"a\"bé"}`, 8},
		{"scalars", `{"t":true,"f":false,"n":null,"s":""}`, `{"t":true,"f":false,"n":null,"s":s""}`, 8},
		{"nested", `{"o":{"x":[1,[2],{"y":null}]}}`, `{"o":{"x":[n1,[n2],{"y":null}]}}`, 8},
		{"skipped below the depth", `{"o":{"p":{"q":[1]}}}`, `{"o":{"p":~}}`, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := dump([]byte(tt.in), tt.levels)
			if err != nil {
				t.Fatalf("%s: %v", tt.in, err)
			}
			if got != tt.want {
				t.Errorf("%s:\n got %s\nwant %s", tt.in, got, tt.want)
			}
		})
	}
}

func TestReaderRefuses(t *testing.T) {
	tests := []struct {
		name, in string
		check    func(t *testing.T, err error)
	}{
		{"nothing", ``, isErr(ErrEmpty)},
		{"only blanks", " \n\t ", isErr(ErrEmpty)},
		{"array", `[1]`, notObject(Value{Kind: Array}, "must be one JSON object, got an array at the top level")},
		{"string", `"x"`, notObject(Value{Kind: String, Text: "x"}, `must be one JSON object, got the string "x" at the top level`)},
		{"number", `1.0 2`, notObject(Value{Kind: Number, Text: "1.0"}, "must be one JSON object, got the number 1.0 at the top level")},
		{"null", `null`, notObject(Value{Kind: Null}, "must be one JSON object, got null at the top level")},
		{"bad first byte", `x`, syntax(1, false, "invalid character 'x' looking for beginning of value at byte 1")},
		{"missing value", `{"a":}`, syntax(5, false, "invalid character '}' looking for beginning of value at byte 5")},
		{"trailing comma", `{"a":[1,]}`, syntax(8, false, "invalid character ']' looking for beginning of value at byte 8")},
		{"truncated after a value", `{"a":1`, syntax(6, true, "unexpected end of input at byte 6")},
		{"truncated after a key", `{"a"`, syntax(4, true, "unexpected end of input at byte 4")},
		{"truncated after a comma", `{"a":1,`, syntax(7, true, "unexpected end of input at byte 7")},
		{"truncated in a skipped container", `{"a":{"b":{"c":[`, syntax(16, true, "unexpected end of input at byte 16")},
		{"two objects", `{"a":1} {"b":2}`, trailing(7)},
		{"trailing garbage", `{} x`, trailing(2)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := dump([]byte(tt.in), 2)
			tt.check(t, err)
		})
	}
}

func isErr(want error) func(*testing.T, error) {
	return func(t *testing.T, err error) {
		t.Helper()
		if !errors.Is(err, want) {
			t.Errorf("err = %v, want %v", err, want)
		}
	}
}

func notObject(got Value, msg string) func(*testing.T, error) {
	return func(t *testing.T, err error) {
		t.Helper()
		var e *Error
		if !errors.As(err, &e) || e.Kind != NotObject || e.Got != got || err.Error() != msg {
			t.Errorf("err = %#v (%v), want a NotObject *Error with %+v saying %q", err, err, got, msg)
		}
	}
}

func syntax(offset int64, truncated bool, msg string) func(*testing.T, error) {
	return func(t *testing.T, err error) {
		t.Helper()
		var e *Error
		if !errors.As(err, &e) || e.Kind != Syntax {
			t.Fatalf("err = %#v (%v), want a Syntax *Error", err, err)
		}
		if e.Offset != offset || e.Truncated() != truncated || err.Error() != msg {
			t.Errorf("err = %q at %d (truncated %v), want %q at %d (truncated %v)", err, e.Offset, e.Truncated(), msg, offset, truncated)
		}
		if truncated && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Errorf("a truncation does not unwrap to io.EOF: %#v", e.Err)
		}
		var jse *json.SyntaxError
		if !truncated && !errors.As(err, &jse) {
			t.Errorf("a syntax error does not unwrap to a *json.SyntaxError: %#v", e.Err)
		}
	}
}

func trailing(end int64) func(*testing.T, error) {
	return func(t *testing.T, err error) {
		t.Helper()
		var e *Error
		msg := fmt.Sprintf("has data after the JSON value, which ends at byte %d", end)
		if !errors.As(err, &e) || e.Kind != TrailingData || e.End != end || err.Error() != msg {
			t.Errorf("err = %#v (%v), want a TrailingData *Error saying %q", err, err, msg)
		}
	}
}

// skip bounds nesting counted from the container itself; 0 means no bound.
func TestSkipDepth(t *testing.T) {
	tests := []struct {
		in      string
		max     int
		wantErr bool
	}{
		{`[[[1]]]`, 0, false},
		{`[[[1]]]`, 3, false},
		{`[[[1]]]`, 2, true},
		{`[{"a":[{}]}]`, 4, false},
		{`[{"a":[{}]}]`, 3, true},
		{`[[],[],[]]`, 2, false},
	}
	for _, tt := range tests {
		r := newReader([]byte(tt.in))
		if _, err := r.Read(); err != nil {
			t.Fatal(err)
		}
		err := r.skip(tt.max)
		var de *Error
		if got := errors.As(err, &de) && de.Kind == Depth; got != tt.wantErr || (got && (de.Max != tt.max || err.Error() != fmt.Sprintf("nests deeper than %d levels", tt.max))) {
			t.Errorf("Skip(%d) of %s: %v, want an error: %v", tt.max, tt.in, err, tt.wantErr)
		}
		if err == nil {
			if err := r.end(); err != nil {
				t.Errorf("Skip(%d) of %s did not consume it: %v", tt.max, tt.in, err)
			}
		}
	}
}

// offset around Read and Skip frames a member's raw text (the result
// decoder keeps it to compare duplicated containers).
func TestOffsetFramesRawText(t *testing.T) {
	data := []byte(`{"a" : [1, {"b": 2}] ,"c":3}`)
	r := newReader(data)
	if err := r.object(); err != nil {
		t.Fatal(err)
	}
	var raw []string
	err := r.members(func(string) error {
		start := r.offset()
		v, err := r.Read()
		if err != nil {
			return err
		}
		if v.Kind == Array || v.Kind == Object {
			if err := r.skip(0); err != nil {
				return err
			}
		}
		raw = append(raw, string(data[start:r.offset()]))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{` : [1, {"b": 2}]`, `:3`}; len(raw) != 2 || raw[0] != want[0] || raw[1] != want[1] {
		t.Errorf("raw = %q, want %q", raw, want)
	}
}

// An error from the caller's function stops Members and comes back as it is.
func TestMembersPassesCallerErrors(t *testing.T) {
	stop := errors.New("stop")
	r := newReader([]byte(`{"a":1,"b":2}`))
	if err := r.object(); err != nil {
		t.Fatal(err)
	}
	var seen []string
	err := r.members(func(key string) error {
		seen = append(seen, key)
		return stop
	})
	if err != stop || len(seen) != 1 {
		t.Errorf("Members = %v after %v, want the caller's error after the first key", err, seen)
	}
}
