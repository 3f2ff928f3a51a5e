package errlist

import (
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/go-multierror"
)

// Join joins errors that happened together (a failure and the failure to
// record it): nil when all errs are nil, the error itself when one is not,
// else a List of those that are not.
func Join(errs ...error) error {
	err := List(errs...)
	if m, ok := err.(*multierror.Error); ok && len(m.Errors) == 1 {
		return m.Errors[0]
	}
	return err
}

// List returns the non-nil errs as one *multierror.Error printed by
// Format, even when there is one (a caller reading every reason walks its
// Errors), or nil when there are none. Lists among errs stay nested as they
// are (errors.As still finds each), so nothing given is changed.
func List(errs ...error) error {
	var list []error
	for _, err := range errs {
		if err != nil {
			list = append(list, err)
		}
	}
	if len(list) == 0 {
		return nil
	}
	return &multierror.Error{Errors: list, ErrorFormat: Format}
}

// Format prints one error as itself and several as "N problems:" with
// one a line, the lines of a multi-line error indented under its own.
func Format(errs []error) string {
	if len(errs) == 1 {
		return errs[0].Error()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d problems:", len(errs))
	for _, e := range errs {
		b.WriteString("\n  - " + strings.ReplaceAll(e.Error(), "\n", "\n    "))
	}
	return b.String()
}

// Flatten is the errors a List holds, or err alone: a caller gathering
// every reason appends them to its own (a nil err stays one nil, which
// List drops).
func Flatten(err error) []error {
	var merr *multierror.Error
	if errors.As(err, &merr) {
		return merr.Errors
	}
	return []error{err}
}
