package task

import "strings"

// PeekIDs returns every TASK_ID value in data's header, judging nothing else, so that an old
// or invalid version of the task file still tells which IDs it used.
func PeekIDs(data []byte) []string {
	var ids []string
	scanHeader(data, func(_ int, _ []byte, key, value string, ok, _ bool) {
		if ok && strings.EqualFold(key, FieldTaskID) {
			ids = append(ids, value)
		}
	})
	return ids
}
