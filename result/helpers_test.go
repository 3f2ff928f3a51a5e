package result

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// examplesDir holds the example results shared with the schema test and
// other packages' tests.
const examplesDir = "../testdata/results"

func readExample(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(examplesDir, name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// problem is what a test expects of one violation.
type problem struct {
	key  string
	rule Rule
}

// mustInvalid asserts err is an *invalidError with exactly want, in order.
func mustInvalid(t *testing.T, err error, want ...problem) *invalidError {
	t.Helper()
	var ie *invalidError
	if !errors.As(err, &ie) {
		t.Fatalf("want *invalidError, got %T: %v", err, err)
	}
	var got []problem
	for _, p := range ie.Errs {
		got = append(got, problem{p.Key, p.Rule})
		if p.Reason == "" {
			t.Errorf("problem %q has no reason", p.Key)
		}
	}
	if !slices.Equal(got, want) {
		t.Fatalf("problems:\n got %v\nwant %v\nerror: %v", got, want, err)
	}
	return ie
}

// withSimulated adds "simulated": raw as the last member of a canonical
// example.
func withSimulated(t testing.TB, doc []byte, raw string) []byte {
	t.Helper()
	const last = "\"rf_tx\": 0\n}"
	if !strings.Contains(string(doc), last) {
		t.Fatalf("the example does not end with rf_tx:\n%s", doc)
	}
	return []byte(strings.Replace(string(doc), last, "\"rf_tx\": 0,\n  \"simulated\": "+raw+"\n}", 1))
}

// withValue replaces the value of key in a canonical example (one member per
// line) with raw JSON text.
func withValue(t testing.TB, doc []byte, key, raw string) []byte {
	t.Helper()
	lines := strings.Split(string(doc), "\n")
	prefix := `  "` + key + `": `
	for i, l := range lines {
		if strings.HasPrefix(l, prefix) {
			comma := ""
			if strings.HasSuffix(l, ",") {
				comma = ","
			}
			lines[i] = prefix + raw + comma
			return []byte(strings.Join(lines, "\n"))
		}
	}
	t.Fatalf("key %q not in example", key)
	return nil
}

// keys lists every key of RX_RESULT.json in the PROTOCOL#result table's order,
// the optional one included.
func keys() []string {
	out := make([]string, len(fields))
	for i, f := range fields {
		out[i] = f.Key
	}
	return out
}

// requiredKeys are keys() without the optional ones: what every result has.
func requiredKeys() []string {
	var out []string
	for _, f := range fields {
		if !f.Optional {
			out = append(out, f.Key)
		}
	}
	return out
}
