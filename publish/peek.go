package publish

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// peekString reads the string values of the top-level member named exactly
// key (case counts), one per occurrence, without validating anything else.
// Checks 1 and 5 need task_id and source_head before check 7 applies the
// strict schema; a duplicated key yields every value so that a check can
// refuse when any of them disagrees. An error means the member could not
// be read: data is not a JSON object, or the value is not a string.
func peekString(data []byte, key string) ([]string, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return nil, fmt.Errorf("not JSON: %w", err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errors.New("not a JSON object")
	}
	var out []string
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("not JSON: %w", err)
		}
		k, ok := kt.(string)
		if !ok {
			return nil, errors.New("not JSON: object key is not a string")
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, fmt.Errorf("not JSON: %w", err)
		}
		if k != key {
			continue
		}
		var s string
		if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
			return nil, fmt.Errorf("%s is not a string", key)
		}
		out = append(out, s)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s is missing", key)
	}
	return out, nil
}
