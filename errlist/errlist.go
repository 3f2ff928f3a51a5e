// Package errlist joins errors the one way rfhandoff does: a
// go-multierror list that reads as the single error when there is one and
// as a counted list, one problem a line, when there are several.
package errlist

import (
	"fmt"
	"strings"

	"github.com/hashicorp/go-multierror"
)

// Join returns the non-nil errs as one *multierror.Error printed by
// Format: nil when there are none, the error itself when there is one.
// Lists among errs stay nested as they are (errors.As still finds each),
// so nothing given is changed.
func Join(errs ...error) error {
	var list []error
	for _, err := range errs {
		if err != nil {
			list = append(list, err)
		}
	}
	switch len(list) {
	case 0:
		return nil
	case 1:
		return list[0]
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
