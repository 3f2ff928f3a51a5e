package result

import (
	"bytes"

	"rfhandoff/strictjson"
)

// PeekTaskIDs returns the string values of "task_id" without judging
// anything else, so that a result that no longer passes the schema still
// tells which task it was for.
func PeekTaskIDs(data []byte) []string {
	var p problems
	m, ok := walk(bytes.TrimPrefix(data, bom), &p)
	if !ok {
		return nil
	}
	var ids []string
	for _, v := range m.Values["task_id"] {
		if v.Kind == strictjson.String {
			ids = append(ids, v.Text)
		}
	}
	return ids
}
