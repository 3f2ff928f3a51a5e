package task

import (
	"cmp"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/hashicorp/go-multierror"

	"rfhandoff/hiddentext"
)

// Kind classifies a problem, so callers and tests can branch on it without reading messages.
type Kind int

const (
	kindTooLarge  Kind = iota + 1 // the file is over the size limit
	kindNoHeader                  // no KEY = VALUE line at all
	kindPreHeader                 // text before the first field
	kindMalformed                 // a header line that is not KEY = VALUE
	kindEncoding                  // a header line that is not valid UTF-8
	kindControl                   // a control character in a header line
	kindUnknown                   // a field the protocol does not define
	kindDuplicate                 // a field given twice
	kindMissing                   // a required field that is absent
	kindInvalid                   // a value that breaks its field's rule
	kindConflict                  // fields that are valid alone but not together
)

var kindNames = map[Kind]string{
	kindTooLarge: "too large", kindNoHeader: "no header", kindPreHeader: "text before header",
	kindMalformed: "malformed line", kindEncoding: "invalid UTF-8", kindControl: "control character",
	kindUnknown: "unknown field", kindDuplicate: "duplicate field", kindMissing: "missing field",
	kindInvalid: "invalid value", kindConflict: "conflicting fields",
}

func (k Kind) String() string { return cmp.Or(kindNames[k], "Kind("+strconv.Itoa(int(k))+")") }

// fieldError is one reason a task file is rejected. Its message quotes values, so it never
// holds a raw control character and is safe to print to a terminal.
type fieldError struct {
	Kind  Kind
	Line  int    // 1-based; 0 when the problem is not on one line
	Field string // empty for file-level problems
	Value string // the offending value as written, when there is one
	Msg   string // what is wrong, without line and field
}

func (e *fieldError) Error() string {
	var b strings.Builder
	if e.Line > 0 {
		fmt.Fprintf(&b, "line %d: ", e.Line)
	}
	switch {
	case strings.ContainsFunc(e.Field, func(r rune) bool { return !nameRune(r, true) }):
		// Not a plain field name (invalid UTF-8 decodes as U+FFFD).
		b.WriteString(quote(e.Field) + ": ")
	case e.Field != "":
		b.WriteString(e.Field + ": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// InvalidError is a rejected task file: every reason (each a *fieldError) in a multierror.
type InvalidError struct {
	Errs *multierror.Error
}

func (e *InvalidError) Error() string {
	probs := e.Errs.WrappedErrors()
	var b strings.Builder
	fmt.Fprintf(&b, "invalid task file (%d problem%s):", len(probs), pick(len(probs) != 1, "s", ""))
	for _, p := range probs {
		b.WriteString("\n  " + p.Error())
	}
	return b.String()
}

func invalid(probs ...*fieldError) error {
	var errs *multierror.Error
	for _, p := range probs {
		errs = multierror.Append(errs, p)
	}
	return &InvalidError{Errs: errs}
}

func (e *InvalidError) Unwrap() error { return e.Errs }

func (e *InvalidError) Problems() []*fieldError {
	var out []*fieldError
	for _, err := range e.Errs.WrappedErrors() {
		var fe *fieldError
		if errors.As(err, &fe) {
			out = append(out, fe)
		}
	}
	return out
}

const maxQuoted = 60

// quote renders a value for a message: Go-quoted (so control characters, invalid bytes and
// bidi overrides show as escapes), cut to maxQuoted runes, and through
// hiddentext.SanitizeLine for the hidden characters Go counts as printable.
func quote(s string) string {
	n := 0
	for i := range s {
		if n == maxQuoted {
			return hiddentext.SanitizeLine(strconv.Quote(s[:i]) + "...")
		}
		n++
	}
	return hiddentext.SanitizeLine(strconv.Quote(s))
}

// nameRune: an ASCII letter, or when notFirst also a digit or an underscore.
func nameRune(r rune, notFirst bool) bool {
	return r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || notFirst && (r == '_' || r >= '0' && r <= '9')
}
