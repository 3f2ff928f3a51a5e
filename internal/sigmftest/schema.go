// Package sigmftest checks SigMF Collections against the specification's
// rules, for the tests of every package that writes or reads one
// (PROTOCOL#several-nodes).
package sigmftest

import (
	"bytes"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// CollectionSchema holds the facts of SigMF's collection-schema.json
// (github.com/sigmf/SigMF, spec 1.2.0) this writer relies on, with the
// Recording Objects of the specification's Collection rules 3 and 4:
// "SigMF Recording Objects MUST contain both a name field, which is the
// base-name of a SigMF Recording, and a hash which is the SHA512 hash of
// the Recording Metadata file" and "MUST appear in a JSON array". (The
// upstream schema file's core:streams items still describe [name, hash]
// string arrays, which its own description, example and rules contradict;
// the objects are what the specification and its example write.) Rule 1,
// the collection object is the only top-level object, is maxProperties.
const CollectionSchema = `{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "required": ["collection"],
  "maxProperties": 1,
  "properties": {
    "collection": {
      "type": "object",
      "required": ["core:version"],
      "properties": {
        "core:version": { "type": "string", "pattern": "^[0-9]+\\.[0-9]+\\.[0-9]+$" },
        "core:description": { "type": "string" },
        "core:streams": {
          "type": "array",
          "items": {
            "type": "object",
            "required": ["name", "hash"],
            "properties": {
              "name": { "type": "string", "minLength": 1 },
              "hash": { "type": "string", "pattern": "^[0-9a-f]{128}$" }
            }
          }
        }
      }
    }
  }
}`

// ValidateCollection validates doc against CollectionSchema.
func ValidateCollection(doc []byte) error {
	sch, err := jsonschema.UnmarshalJSON(strings.NewReader(CollectionSchema))
	if err != nil {
		return err
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("collection-schema.json", sch); err != nil {
		return err
	}
	s, err := c.Compile("collection-schema.json")
	if err != nil {
		return err
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		return err
	}
	return s.Validate(v)
}
