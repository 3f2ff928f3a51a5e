package config

import (
	"errors"
	"fmt"
)

func fieldError(key string, value any, reason string) error {
	return fmt.Errorf("%s = %s: %s", key, formatValue(value), reason)
}

// unknownKeyError: a typo in a safety policy must not pass silently
// (PROTOCOL#policy-file); suggestion is the key it probably meant, or "".
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

func fileError(path string, err error) error { return fmt.Errorf("policy %s: %w", path, err) }

// formatValue quotes strings, neutralising control characters.
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
