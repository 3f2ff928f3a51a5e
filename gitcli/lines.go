package gitcli

import "strings"

// outputLines splits human-readable git output into lines, treating '\r'
// (progress redraws) as a line end too and dropping empty lines.
func outputLines(b []byte) []string {
	return strings.FieldsFunc(string(b), func(r rune) bool { return r == '\n' || r == '\r' })
}

func splitNUL(b []byte) []string {
	if len(b) == 0 {
		return nil
	}
	return strings.Split(strings.TrimSuffix(string(b), "\x00"), "\x00")
}
