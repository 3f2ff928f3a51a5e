package result

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"testing"
	"unicode/utf8"
)

// FuzzDecode checks that Decode never panics, is deterministic, accepts
// only what is well-formed and re-encodable, is never more lenient than the
// JSON Schema, and reports rejections as *invalidError with readable
// reasons. Seeds: the f.Add calls plus testdata/fuzz/FuzzDecode/.
func FuzzDecode(f *testing.F) {
	f.Add(readExample(f, "ready.json"))
	f.Add(readExample(f, "complete.json"))
	for _, name := range []string{
		"duplicate_key_same_value.json", "case_variant_key_unicode_fold.json",
		"int_as_float.json", "timestamp_without_offset.json", "two_objects.json",
	} {
		f.Add(readExample(f, "invalid/"+name))
	}
	f.Add([]byte(`{"rf_tx":-0}`))
	f.Add([]byte("{\"\\u0074ask_id\":\"\\ud800\"}"))
	sch := compileSchema(f)

	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := Decode(data, Options{})
		r2, err2 := Decode(data, Options{})
		if (err == nil) != (err2 == nil) || err != nil && err.Error() != err2.Error() {
			t.Fatalf("not deterministic: %v vs %v", err, err2)
		}
		if err == nil && !reflect.DeepEqual(r, r2) {
			t.Fatalf("not deterministic: %+v vs %+v", r, r2)
		}
		if err != nil {
			if r != nil {
				t.Fatal("result returned with an error")
			}
			var ie *invalidError
			if !errors.As(err, &ie) || len(ie.Errs) == 0 {
				t.Fatalf("rejection is not an *invalidError with problems: %T %v", err, err)
			}
			for _, p := range ie.Errs {
				if p.Reason == "" || p.Rule == "" {
					t.Fatalf("problem without reason or rule: %+v", p)
				}
			}
			if !utf8.ValidString(err.Error()) {
				t.Fatalf("message is not valid UTF-8: %q", err.Error())
			}
			return
		}
		if len(data) > MaxBytes || !utf8.Valid(data) || !json.Valid(data) {
			t.Fatalf("accepted malformed input %q", data)
		}
		out, err := Encode(r)
		if err != nil {
			t.Fatalf("accepted result does not encode: %v", err)
		}
		back, err := Decode(out, Options{})
		if err != nil {
			t.Fatalf("Encode output rejected: %v\n%s", err, out)
		}
		out2, err := Encode(back)
		if err != nil || !bytes.Equal(out, out2) {
			t.Fatalf("Encode is not a fixed point: %v\n%s\n%s", err, out, out2)
		}
		if !bytes.Equal(RenderMarkdown(r), RenderMarkdown(back)) {
			t.Fatal("Markdown differs after a round trip")
		}
		if ok, err := schemaAccepts(sch, data); !ok {
			t.Fatalf("Go accepted what the schema rejects: %v\n%s", err, data)
		}
	})
}
