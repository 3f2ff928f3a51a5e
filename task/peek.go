package task

import (
	"bytes"
	"strings"
)

// PeekIDs returns the TASK_ID values in data's header, found the way Parse
// finds the header but without judging anything else, so that an old or
// invalid version of the task file still tells which IDs it used. A header
// that gives TASK_ID twice yields both values.
func PeekIDs(data []byte) []string {
	var ids []string
	rest := bytes.TrimPrefix(data, bom)
	inHeader := false
	for len(rest) > 0 {
		var ln []byte
		ln, rest = nextLine(rest)
		if isBlank(ln) {
			if inHeader {
				break
			}
			continue
		}
		key, value, ok := splitField(string(ln))
		if !ok {
			continue
		}
		inHeader = true
		if strings.EqualFold(key, FieldTaskID) {
			ids = append(ids, value)
		}
	}
	return ids
}
