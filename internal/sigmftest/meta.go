package sigmftest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// MetaSchema holds the facts of SigMF's sigmf-schema.json (github.com/
// sigmf/SigMF, v1.2.x) that the capture's .sigmf-meta relies on: the
// three top-level keys, the global keys written with their types, ranges
// and patterns, core:extensions' objects of exactly name, version and
// optional, a capture segment's core:sample_start and an annotation's
// keys. The upstream file (CC BY-SA, not copied here) also holds the
// datetime pattern, whose look-ahead Go's regexp cannot compile; here
// core:datetime is the RFC 3339 UTC form the specification's text asks for.
const MetaSchema = `{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "required": ["global", "captures", "annotations"],
  "properties": {
    "global": {
      "type": "object",
      "required": ["core:datatype", "core:version"],
      "properties": {
        "core:datatype": { "type": "string", "pattern": "^(c|r)(f32|f64|i32|i16|u32|u16|i8|u8)(_le|_be)?" },
        "core:version": { "type": "string", "pattern": "^\\d+\\.\\d+\\.\\d" },
        "core:sample_rate": { "type": "number", "minimum": 1, "maximum": 1e12 },
        "core:num_channels": { "type": "integer", "minimum": 1, "maximum": 1000 },
        "core:sha512": { "type": "string", "pattern": "^[0-9a-fA-F]{128}" },
        "core:hw": { "type": "string" },
        "core:recorder": { "type": "string" },
        "core:author": { "type": "string" },
        "core:description": { "type": "string" },
        "core:collection": { "type": "string" },
        "core:extensions": {
          "type": "array",
          "items": {
            "type": "object",
            "required": ["name", "version", "optional"],
            "properties": {
              "name": { "type": "string" },
              "version": { "type": "string" },
              "optional": { "type": "boolean" }
            },
            "additionalProperties": false
          }
        }
      },
      "additionalProperties": true
    },
    "captures": {
      "type": "array",
      "items": {
        "type": "object",
        "required": ["core:sample_start"],
        "properties": {
          "core:sample_start": { "type": "integer", "minimum": 0 },
          "core:frequency": { "type": "number", "minimum": -1e12, "maximum": 1e12 },
          "core:datetime": { "type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?Z$" }
        }
      }
    },
    "annotations": {
      "type": "array",
      "items": {
        "type": "object",
        "required": ["core:sample_start"],
        "properties": {
          "core:sample_start": { "type": "integer", "minimum": 0 },
          "core:sample_count": { "type": "integer", "minimum": 0 },
          "core:freq_lower_edge": { "type": "number" },
          "core:freq_upper_edge": { "type": "number" },
          "core:label": { "type": "string" },
          "core:comment": { "type": "string" }
        }
      }
    }
  }
}`

// ValidateMeta validates a .sigmf-meta document against MetaSchema and
// the specification's rule that a key of any namespace but core belongs
// to an extension declared in core:extensions.
func ValidateMeta(doc []byte) error {
	sch, err := jsonschema.UnmarshalJSON(strings.NewReader(MetaSchema))
	if err != nil {
		return err
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("sigmf-schema.json", sch); err != nil {
		return err
	}
	s, err := c.Compile("sigmf-schema.json")
	if err != nil {
		return err
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		return err
	}
	if err := s.Validate(v); err != nil {
		return err
	}
	var m struct {
		Global      map[string]json.RawMessage   `json:"global"`
		Captures    []map[string]json.RawMessage `json:"captures"`
		Annotations []map[string]json.RawMessage `json:"annotations"`
	}
	if err := json.Unmarshal(doc, &m); err != nil {
		return err
	}
	var exts []struct {
		Name string `json:"name"`
	}
	if raw, ok := m.Global["core:extensions"]; ok {
		if err := json.Unmarshal(raw, &exts); err != nil {
			return err
		}
	}
	declared := map[string]bool{"core": true}
	for _, e := range exts {
		declared[e.Name] = true
	}
	objs := append([]map[string]json.RawMessage{m.Global}, append(m.Captures, m.Annotations...)...)
	for _, o := range objs {
		for k := range o {
			ns, _, ok := strings.Cut(k, ":")
			if !ok || !declared[ns] {
				return fmt.Errorf("key %q is in no namespace declared in core:extensions", k)
			}
		}
	}
	return nil
}
