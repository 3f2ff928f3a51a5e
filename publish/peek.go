package publish

import (
	"errors"
	"fmt"

	"rfhandoff/strictjson"
)

// peekString reads the string values of the top-level member named exactly key, one per
// occurrence, validating nothing else: checks 1 and 5 need task_id and source_head before
// check 7's strict schema, and a duplicated key yields every value so that a check can refuse
// when any of them disagrees.
func peekString(data []byte, key string) ([]string, error) {
	// Lenient: what follows the object is check 7's to report.
	n, err := strictjson.Parse(data, strictjson.Shape{Keep: 1, Lenient: true})
	var je *strictjson.Error
	switch {
	case errors.As(err, &je) && je.Kind == strictjson.NotObject:
		return nil, errors.New("not a JSON object")
	case err != nil:
		return nil, fmt.Errorf("not JSON: %w", err)
	}
	var out []string
	for _, v := range n.Members.Values[key] {
		if v.Kind != strictjson.String {
			return nil, fmt.Errorf("%s is not a string", key)
		}
		out = append(out, v.Text)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s is missing", key)
	}
	return out, nil
}
