package config

import (
	"errors"
	"fmt"

	"github.com/hashicorp/go-multierror"
)

// FieldError is one invalid policy value, named by its key as table.key.
type FieldError struct {
	Key    string // e.g. "limits.min_remaining_s"
	Value  any    // the rejected value as decoded
	Reason string
}

func (e *FieldError) Error() string {
	return fmt.Sprintf("%s = %s: %s", e.Key, formatValue(e.Value), e.Reason)
}

// UnknownKeyError is a key or table the policy does not have. A typo in a
// safety policy must not pass silently (SPEC §11).
type UnknownKeyError struct {
	Key        string // as written (TOML-quoted where needed), e.g. "limit.min_remaining_s"
	Table      bool   // the key names a table ([limit])
	Suggestion string // a known key it probably meant, or ""
}

func (e *UnknownKeyError) Error() string {
	what := "unknown key " + e.Key
	if e.Table {
		what = "unknown table [" + e.Key + "]"
	}
	if e.Suggestion != "" {
		what += " (did you mean " + e.Suggestion + "?)"
	}
	return what
}

// FileError wraps everything wrong with one policy file.
type FileError struct {
	Path string // the file name as given (or the name passed to Parse)
	Err  error
}

func (e *FileError) Error() string {
	return fmt.Sprintf("policy %s: %v", e.Path, e.Err)
}

func (e *FileError) Unwrap() error { return e.Err }

// Problems flattens err into its individual problems (every *FieldError and
// *UnknownKeyError, or the single error when it is not a list).
func Problems(err error) []error {
	if err == nil {
		return nil
	}
	var merr *multierror.Error
	if errors.As(err, &merr) {
		return merr.WrappedErrors()
	}
	return []error{err}
}

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
