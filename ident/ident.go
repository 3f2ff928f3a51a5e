// Package ident holds the patterns of the values the protocol names things
// by — a TASK_ID, a commit ID, a SHA-256 or SHA-512 digest, a HackRF
// serial, an SSH key fingerprint — and the one timestamp shape its files
// write. Each is compiled here and nowhere else (exec/patterns_test.go
// holds that); it imports nothing of the module, so every layer may use
// it. The messages that cite a rule stay with the code that checks it.
package ident

import (
	"fmt"
	"regexp"
	"strings"
)

// Rule is one compiled pattern, anchored at both ends.
type Rule struct{ re *regexp.Regexp }

func (r Rule) MatchString(s string) bool { return r.re.MatchString(s) }

// String is the pattern's text, anchors included, for messages.
func (r Rule) String() string { return r.re.String() }

// Inner is the pattern without its anchors, to build a larger one.
func (r Rule) Inner() string {
	return strings.TrimSuffix(strings.TrimPrefix(r.re.String(), "^"), "$")
}

var (
	// TaskID is the TASK_ID rule (PROTOCOL#task-file); IDs become file names.
	TaskID = Rule{regexp.MustCompile(`^[A-Z0-9][A-Z0-9_]{2,63}$`)}
	Commit = Rule{regexp.MustCompile(`^[0-9a-f]{40}$`)}
	SHA256 = Rule{regexp.MustCompile(`^[0-9a-f]{64}$`)}
	SHA512 = Rule{regexp.MustCompile(`^[0-9a-f]{128}$`)}
	// Serial is a HackRF serial as hackrf_info prints it, or a suffix of one.
	Serial      = Rule{regexp.MustCompile(`^[0-9a-f]{1,32}$`)}
	Fingerprint = Rule{regexp.MustCompile(`^SHA256:[A-Za-z0-9+/]{43}$`)}
	// Timestamp is the shape of an RFC 3339 time with an explicit offset;
	// time.Parse checks the ranges.
	Timestamp = Rule{regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{1,9})?(Z|[+-][0-9]{2}:[0-9]{2})$`)}
)

func CheckTaskID(id string) error {
	if !TaskID.MatchString(id) {
		return fmt.Errorf("invalid TASK_ID %q: must match %s", id, TaskID)
	}
	return nil
}
