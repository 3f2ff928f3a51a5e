package result

import (
	"bytes"
	_ "embed"
	"maps"
	"path/filepath"
	"slices"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// schemaJSON is rx_result.schema.json, the JSON Schema (draft 2020-12) of
// RX_RESULT.json for tools outside Go. It is a published contract, not the
// security boundary: Decode enforces what a schema can't (see the file's
// description and schemaCannotSee).
//
//go:embed rx_result.schema.json
var schemaJSON []byte

// schemaID is the schema's $id.
const schemaID = "https://rfhandoff.invalid/schema/rx_result.schema.json"

// What rx_result.schema.json cannot express, and so only the Go decoder
// rejects. Any other reader parses JSON with its own rules first, and most
// (Go's encoding/json, Python's json, JavaScript's JSON.parse) keep the last
// of duplicate keys and turn 1.0 into a number the schema calls an integer.
//
// Go-only rules:
//   - duplicate keys, with the same or different values;
//   - an integer written with a fraction or exponent (1.0, 1e0, 0.0): JSON
//     Schema's "integer" is any number with a zero fractional part;
//   - a number too large for a float64 (1e999), which big-number readers keep;
//   - timestamps that RFC 3339 allows but Go's time package does not (a leap
//     second, 23:59:60);
//   - the 64 KiB limit (and the policy's tighter one) and the current task's
//     ID (Options), which are about the file and the moment, not the schema.
//
// The rules below are also Go's, but the standard parser in front of the
// schema already refuses what breaks them, so both sides reject: invalid
// UTF-8 (replaced by U+FFFD, which then fails a pattern), a byte-order mark,
// trailing data, more than one value, syntax errors.
var schemaCannotSee = map[string]string{
	"invalid/duplicate_key_same_value.json":      "duplicate key",
	"invalid/duplicate_key_different_value.json": "duplicate key",
	"invalid/int_as_float.json":                  "integer written as 433920000.0",
	"invalid/int_as_exponent.json":               "integer written as 1e0",
	"invalid/timestamp_leap_second.json":         "leap second",
	"inline/int 1.0":                             "integer written as 1.0",
	"inline/int 1e0":                             "integer written as 1e0",
	"inline/int 1E0":                             "integer written as 1E0",
	"inline/schema_version 1.0":                  "integer written as 1.0",
	"inline/rf_tx 0.0":                           "integer written as 0.0",
	"inline/overruns 0.0":                        "integer written as 0.0",
	"inline/exit code float":                     "integer written as 0.0",
	"inline/duration overflow":                   "1e999 exceeds float64",
	"inline/duplicate three times":               "duplicate key",
}

func compileSchema(t testing.TB) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schemaJSON))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat() // date-time is only an annotation in 2020-12 otherwise
	if err := c.AddResource(schemaID, doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(schemaID)
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

// schemaAccepts is what another tool does: parse with a standard JSON
// parser (the library's, which keeps number literals), then validate.
func schemaAccepts(sch *jsonschema.Schema, doc []byte) (bool, error) {
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		return false, err
	}
	if err := sch.Validate(inst); err != nil {
		return false, err
	}
	return true, nil
}

func TestSchemaAgreesWithDecoder(t *testing.T) {
	sch := compileSchema(t)
	examples := map[string][]byte{
		"ready.json":    readExample(t, "ready.json"),
		"complete.json": readExample(t, "complete.json"),
	}
	for name := range invalidFiles {
		examples["invalid/"+name] = readExample(t, filepath.Join("invalid", name))
	}
	for _, c := range inlineCases(t) {
		examples["inline/"+c.name] = c.doc
	}
	for name := range schemaCannotSee {
		if _, ok := examples[name]; !ok {
			t.Errorf("schemaCannotSee lists %q, which is no example", name)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(examples)) {
		doc := examples[name]
		t.Run(name, func(t *testing.T) {
			_, goErr := Decode(doc, Options{})
			ok, schErr := schemaAccepts(sch, doc)
			if why, goOnly := schemaCannotSee[name]; goOnly {
				// Pin the difference down exactly: if the schema starts
				// rejecting it, the list above is wrong.
				if goErr == nil || !ok {
					t.Errorf("listed as Go-only (%s), but Go err=%v, schema err=%v", why, goErr, schErr)
				}
				return
			}
			if (goErr == nil) != ok {
				t.Errorf("disagree: Go err=%v\nschema err=%v", goErr, schErr)
			}
		})
	}
}

func TestSchemaAcceptsEncodeOutput(t *testing.T) {
	sch := compileSchema(t)
	out, err := Encode(sampleComplete())
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := schemaAccepts(sch, out); !ok {
		t.Fatalf("schema rejects Encode output: %v\n%s", err, out)
	}
}
