package task

import "strings"

// PeekIDs returns the TASK_ID values in data's header, found the way Parse
// finds the header but without judging anything else, so that an old or
// invalid version of the task file still tells which IDs it used. A header
// that gives TASK_ID twice yields both values.
func PeekIDs(data []byte) []string {
	var ids []string
	scanHeader(data, func(_ int, _ []byte, key, value string, ok, _ bool) {
		if ok && strings.EqualFold(key, FieldTaskID) {
			ids = append(ids, value)
		}
	})
	return ids
}
