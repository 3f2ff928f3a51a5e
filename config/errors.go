package config

import (
	"errors"
	"fmt"
)

// fieldError is one invalid policy value, named by its key as table.key.
func fieldError(key string, value any, reason string) error {
	return fmt.Errorf("%s = %s: %s", key, formatValue(value), reason)
}

// unknownKeyError is a key (or, table set, a table) the policy does not
// have, with a known key it probably meant ("" if none). A typo in a
// safety policy must not pass silently (PROTOCOL#policy-file).
func unknownKeyError(key string, table bool, suggestion string) error {
	what := "unknown key " + key
	if table {
		what = "unknown table [" + key + "]"
	}
	if suggestion != "" {
		what += " (did you mean " + suggestion + "?)"
	}
	return errors.New(what)
}

// fileError wraps everything wrong with one policy file (path as given,
// or the name passed to Parse).
func fileError(path string, err error) error { return fmt.Errorf("policy %s: %w", path, err) }

// formatValue quotes strings (neutralising control characters) and prints
// everything else plainly.
func formatValue(v any) string {
	switch x := v.(type) {
	case string:
		return fmt.Sprintf("%q", x)
	case Duration:
		return fmt.Sprintf("%q", x.Duration.String())
	default:
		return fmt.Sprintf("%v", x)
	}
}
