package publish

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestPeekString(t *testing.T) {
	cases := []struct {
		in      string
		want    []string
		wantErr string
	}{
		{`{"task_id": "RX_A_01", "x": {"task_id": "nested"}}`, []string{"RX_A_01"}, ""},
		{`{"a": [1, {"task_id": 2}], "task_id": "B"}`, []string{"B"}, ""},
		{`{"task_id": "A", "task_id": "B"}`, []string{"A", "B"}, ""},
		{`{"Task_ID": "A"}`, nil, "task_id is missing"},
		{`{"task_id": null}`, nil, "task_id is not a string"},
		{`{"task_id": ["A"]}`, nil, "task_id is not a string"},
		{`["task_id", "A"]`, nil, "not a JSON object"},
		{``, nil, "not JSON"},
		{`{"task_id": "A", `, nil, "not JSON"},
		{`{"task_id": "A"} trailing`, []string{"A"}, ""}, // lenient: check 7 reports trailing data
		{`{"task_id": "A\u0042"}`, []string{"AB"}, ""},
		{`{"x": tru}`, nil, "not JSON"},
	}
	for _, tc := range cases {
		got, err := peekString([]byte(tc.in), "task_id")
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("peekString(%q) error %v, want %q", tc.in, err, tc.wantErr)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("peekString(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

// peekString's refusals keep their words: strictjson's message after
// "not JSON: ", and encoding/json's error underneath.
func TestPeekStringWording(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{`[1]`, "not a JSON object"},
		{``, "not JSON: empty input"},
		{`{"task_id": "A", `, "not JSON: unexpected end of input at byte 16"},
		{`{"x": tru}`, "not JSON: invalid character '}' in literal true (expecting 'e') at byte 7"},
	} {
		_, err := peekString([]byte(tt.in), "task_id")
		if err == nil || err.Error() != tt.want {
			t.Errorf("peekString(%q) error %v, want %q", tt.in, err, tt.want)
		}
	}
	var se *json.SyntaxError
	if _, err := peekString([]byte(`{"x": tru}`), "task_id"); !errors.As(err, &se) {
		t.Errorf("not encoding/json's error underneath: %#v", err)
	}
}

// FuzzPeekString: never panics, returns values exactly when it returns no
// error, and the values it finds survive a round trip: an object built
// from them reads back the same.
func FuzzPeekString(f *testing.F) {
	f.Add([]byte(`{"task_id": "RX_A_01"}`))
	f.Add([]byte(`{"task_id": "A", "task_id": "B"}`))
	f.Add([]byte(`{"a": {"task_id": "x"}, "task_id": 1}`))
	f.Add([]byte(`{"task_id": "\ud800"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := peekString(data, "task_id")
		if (err == nil) != (len(got) > 0) {
			t.Fatalf("values %q with error %v", got, err)
		}
		if err != nil {
			return
		}
		var b strings.Builder
		b.WriteString("{")
		for i, v := range got {
			enc, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(`"task_id":` + string(enc))
		}
		b.WriteString("}")
		again, err := peekString([]byte(b.String()), "task_id")
		if err != nil || !slices.Equal(again, got) {
			t.Fatalf("round trip of %q: %q, %v", got, again, err)
		}
	})
}
