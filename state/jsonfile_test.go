package state

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

type sample struct {
	Name  string            `json:"name"`
	N     int64             `json:"n"`
	On    bool              `json:"on"`
	Sub   *sampleSub        `json:"sub"`
	List  []string          `json:"list"`
	Map   map[string]string `json:"map"`
	Since time.Time         `json:"since"`
}

type sampleSub struct {
	ID string `json:"id"`
}

func TestReadJSONRoundTripAndMissing(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.json")
	var v sample
	exists, err := ReadJSON(path, &v)
	if exists || err != nil {
		t.Fatalf("missing file: exists %v, err %v", exists, err)
	}
	in := sample{Name: "x", N: 7, On: true, Sub: &sampleSub{ID: "a"}, List: []string{"p"},
		Map: map[string]string{"K": "v"}, Since: time.Date(2026, 8, 1, 12, 0, 0, 0, time.UTC)}
	if err := WriteJSON(path, in); err != nil {
		t.Fatal(err)
	}
	var out sample
	if exists, err := ReadJSON(path, &out); !exists || err != nil {
		t.Fatalf("ReadJSON = %v, %v", exists, err)
	}
	if out.Name != "x" || out.N != 7 || !out.On || out.Sub == nil || out.Sub.ID != "a" ||
		len(out.List) != 1 || out.Map["K"] != "v" || !out.Since.Equal(in.Since) {
		t.Errorf("round trip = %+v", out)
	}
	// A subset of the keys is fine (older writers); null where v has a
	// pointer is fine.
	if err := os.WriteFile(path, []byte(`{"name":"y","sub":null}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadJSON(path, &sample{}); err != nil {
		t.Errorf("subset rejected: %v", err)
	}
}

func TestReadJSONCorrupt(t *testing.T) {
	for _, tt := range []struct{ name, body, why string }{
		{"empty", "", "empty"},
		{"garbage", "not json", "invalid"},
		{"truncated", `{"name":"x","n":`, ""},
		{"array", `[1,2]`, "not a JSON object"},
		{"string", `"x"`, "not a JSON object"},
		{"null", `null`, "not a JSON object"},
		{"two objects", `{"name":"a"}{"name":"b"}`, "trailing data"},
		{"trailing garbage", `{"name":"a"} x`, ""},
		{"duplicate key", `{"name":"a","name":"b"}`, `duplicate key "name"`},
		{"nested duplicate", `{"sub":{"id":"a","id":"b"}}`, `duplicate key "id"`},
		{"unknown key", `{"name":"a","extra":1}`, `unknown field "extra"`},
		{"case variant", `{"NAME":"a"}`, `unknown key "NAME"`},
		{"unicode fold", "{\"\u017fub\":{\"id\":\"a\"}}", "unknown key"},
		{"nested case variant", `{"sub":{"ID":"a"}}`, `unknown key "ID"`},
		{"null for a bool", `{"on":null}`, "null where a value is required"},
		{"null in a map", `{"map":{"k":null}}`, "null where a value is required"},
		{"wrong type", `{"n":"5"}`, ""},
		{"float for int", `{"n":1.5}`, ""},
		{"invalid utf8", "{\"name\":\"a\xffb\"}", "UTF-8"},
		{"bad time", `{"since":"yesterday"}`, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "s.json")
			if err := os.WriteFile(path, []byte(tt.body), 0o600); err != nil {
				t.Fatal(err)
			}
			before, _ := os.Stat(path)
			var v sample
			exists, err := ReadJSON(path, &v)
			var ce *CorruptError
			if !exists || !errors.As(err, &ce) {
				t.Fatalf("ReadJSON = %v, %v; want exists and *CorruptError", exists, err)
			}
			if ce.Path != path || !strings.Contains(err.Error(), path) {
				t.Errorf("error does not name the file: %v", err)
			}
			if !strings.Contains(err.Error(), tt.why) {
				t.Errorf("error %q does not say %q", err, tt.why)
			}
			after, err := os.ReadFile(path)
			if err != nil || !bytes.Equal(after, []byte(tt.body)) {
				t.Errorf("corrupt file changed: %q", after)
			}
			if st, _ := os.Stat(path); !st.ModTime().Equal(before.ModTime()) {
				t.Error("corrupt file was rewritten")
			}
		})
	}
}

func TestReadJSONOversized(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.json")
	body := `{"name":"` + strings.Repeat("x", maxFileBytes) + `"}`
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	var ce *CorruptError
	if _, err := ReadJSON(path, &sample{}); !errors.As(err, &ce) {
		t.Fatalf("oversized file = %v, want *CorruptError", err)
	}
}

func TestReadJSONUnreadableIsNotCorrupt(t *testing.T) {
	// A directory where the file should be: an I/O problem, not corruption.
	path := filepath.Join(t.TempDir(), "s.json")
	if err := os.Mkdir(path, 0o700); err != nil {
		t.Fatal(err)
	}
	_, err := ReadJSON(path, &sample{})
	var ce *CorruptError
	if err == nil || errors.As(err, &ce) {
		t.Fatalf("ReadJSON(dir) = %v, want a plain error", err)
	}
}

// A state file that is a symlink is not read (even to a good state file):
// the error names it, and neither the link nor its target changes.
func TestReadJSONRefusesASymlink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target.json")
	if err := os.WriteFile(target, []byte(`{"name":"x"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "s.json")
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("cannot create a symlink here: %v", err)
	}
	skipUnlessLink(t, link)
	var v sample
	exists, err := ReadJSON(link, &v)
	if !exists || err == nil || !strings.Contains(err.Error(), link) || !strings.Contains(err.Error(), "a symlink") || v.Name != "" {
		t.Errorf("ReadJSON(symlink) = %v, %v, %+v; want a refusal naming it", exists, err, v)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link changed: %v", err)
	}
}

func TestWriteJSONFormat(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.json")
	if err := WriteJSON(path, map[string]int{"a": 1}); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != "{\n  \"a\": 1\n}\n" {
		t.Errorf("WriteJSON wrote %q", got)
	}
	if !json.Valid(got) {
		t.Error("not valid JSON")
	}
	if fi, _ := os.Stat(path); modesKept && fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", fi.Mode().Perm())
	}
}

// skipUnlessLink skips where link is not a symlink this system reads
// through (Wine's emulation of Windows symlinks is neither).
func skipUnlessLink(t *testing.T, link string) {
	t.Helper()
	fi, err := os.Lstat(link)
	if err == nil && fi.Mode()&os.ModeSymlink != 0 {
		_, err = os.ReadFile(link)
	} else if err == nil {
		err = errors.New("not reported as a symlink")
	}
	if err != nil {
		t.Skipf("no working symlink here (Wine's emulation): %v", err)
	}
}

// parseTree words each way strictjson refuses a state file exactly as
// before: encoding/json's words, without offsets.
func TestParseTreeWording(t *testing.T) {
	deep := strings.Repeat(`{"a":`, 33) + "1" + strings.Repeat("}", 33)
	for _, tt := range []struct{ in, want string }{
		{``, "empty or truncated JSON"},
		{`{"a":1`, "empty or truncated JSON"},
		{`[1]`, "not a JSON object"},
		{`{} x`, "trailing data after the JSON object"},
		{deep, "nested deeper than 32"},
		{`{"a":}`, "invalid character '}' looking for beginning of value"},
	} {
		_, err := parseTree([]byte(tt.in))
		if err == nil || err.Error() != tt.want {
			t.Errorf("parseTree(%.20q) = %v, want %q", tt.in, err, tt.want)
		}
	}
	var se *json.SyntaxError
	if _, err := parseTree([]byte(`{"a":}`)); !errors.As(err, &se) || se.Offset != 5 {
		t.Errorf("a syntax error is not encoding/json's: %#v", err)
	}
}
