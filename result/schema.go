package result

import (
	"bytes"
	_ "embed"
)

//go:embed rx_result.schema.json
var schemaJSON []byte

// SchemaJSON returns rx_result.schema.json, the JSON Schema (draft 2020-12)
// of RX_RESULT.json for tools outside Go. It is a published contract, not
// the security boundary: Decode enforces what a schema can't (see the
// file's description and schema_test.go). Each call returns a fresh copy.
func SchemaJSON() []byte { return bytes.Clone(schemaJSON) }

// schemaID is the schema's $id.
const schemaID = "https://rfhandoff.invalid/schema/rx_result.schema.json"
