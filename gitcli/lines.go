package gitcli

import "strings"

// outputLines splits git output into non-empty lines, '\r' (progress
// redraws) ending a line too.
func outputLines(b []byte) []string {
	return strings.FieldsFunc(string(b), func(r rune) bool { return r == '\n' || r == '\r' })
}

func splitNUL(b []byte) []string {
	if len(b) == 0 {
		return nil
	}
	return strings.Split(strings.TrimSuffix(string(b), "\x00"), "\x00")
}
