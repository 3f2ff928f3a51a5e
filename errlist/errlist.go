package errlist

import (
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/go-multierror"
)

// Join joins errors that happened together (a failure and the failure to
// record it): nil, the one error, or a List.
func Join(errs ...error) error {
	err := List(errs...)
	if m, ok := err.(*multierror.Error); ok && len(m.Errors) == 1 {
		return m.Errors[0]
	}
	return err
}

// List returns the non-nil errs as one *multierror.Error printed by
// Format, even when there is one, or nil. Lists among errs stay nested.
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

// Format prints one error as itself and several as "N problems:", one a line.
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

// Flatten is the errors a List holds, or err alone (nil too, which List
// drops).
func Flatten(err error) []error {
	var merr *multierror.Error
	if errors.As(err, &merr) {
		return merr.Errors
	}
	return []error{err}
}
