package task

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/go-multierror"

	"rfhandoff/hiddentext"
)

// Kind classifies a problem, so callers and tests can branch on it without
// reading messages.
type Kind int

// The kinds of problem a task file can have.
const (
	KindTooLarge  Kind = iota + 1 // the file is over the size limit
	KindNoHeader                  // no KEY = VALUE line at all
	KindPreHeader                 // text before the first field
	KindMalformed                 // a header line that is not KEY = VALUE
	KindEncoding                  // a header line that is not valid UTF-8
	KindControl                   // a control character in a header line
	KindUnknown                   // a field the protocol does not define
	KindDuplicate                 // a field given twice
	KindMissing                   // a required field that is absent
	KindInvalid                   // a value that breaks its field's rule
	KindConflict                  // fields that are valid alone but not together
)

var kindNames = map[Kind]string{
	KindTooLarge: "too large", KindNoHeader: "no header", KindPreHeader: "text before header",
	KindMalformed: "malformed line", KindEncoding: "invalid UTF-8", KindControl: "control character",
	KindUnknown: "unknown field", KindDuplicate: "duplicate field", KindMissing: "missing field",
	KindInvalid: "invalid value", KindConflict: "conflicting fields",
}

func (k Kind) String() string {
	if s, ok := kindNames[k]; ok {
		return s
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// FieldError is one reason a task file is rejected. Its message never holds
// a raw control character: values are quoted, so printing it to a terminal is
// safe.
type FieldError struct {
	Kind  Kind
	Line  int    // 1-based line number; 0 when the problem is not on one line
	Field string // the header field; empty for file-level problems
	Value string // the offending value as written, when there is one
	Msg   string // what is wrong, without line and field
}

func (e *FieldError) Error() string {
	var b strings.Builder
	if e.Line > 0 {
		fmt.Fprintf(&b, "line %d: ", e.Line)
	}
	if e.Field != "" {
		b.WriteString(quoteIfOdd(e.Field))
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// InvalidError is a rejected task file. It wraps every reason (each a
// *FieldError) in a multierror, so errors.As finds them.
type InvalidError struct {
	Errs *multierror.Error
}

func (e *InvalidError) Error() string {
	probs := e.Errs.WrappedErrors()
	var b strings.Builder
	fmt.Fprintf(&b, "invalid task file (%d problem", len(probs))
	if len(probs) != 1 {
		b.WriteByte('s')
	}
	b.WriteString("):")
	for _, p := range probs {
		b.WriteString("\n  ")
		b.WriteString(p.Error())
	}
	return b.String()
}

// Unwrap exposes the multierror, whose chain errors.As walks.
func (e *InvalidError) Unwrap() error { return e.Errs }

// Problems returns every reason in the order found.
func (e *InvalidError) Problems() []*FieldError {
	var out []*FieldError
	for _, err := range e.Errs.WrappedErrors() {
		var fe *FieldError
		if errors.As(err, &fe) {
			out = append(out, fe)
		}
	}
	return out
}

// maxQuoted bounds how much of a bad value an error message repeats.
const maxQuoted = 60

// quote renders a value for a message: Go-quoted (so control characters,
// invalid bytes and bidi overrides show as escapes) and cut to maxQuoted
// runes. The hidden characters Go counts as printable (variation
// selectors, Hangul fillers) are escaped by hiddentext.SanitizeLine as well.
func quote(s string) string { return hiddentext.SanitizeLine(goQuote(s)) }

func goQuote(s string) string {
	n, cut := 0, len(s)
	for i := range s {
		if n == maxQuoted {
			cut = i
			break
		}
		n++
	}
	if cut < len(s) {
		return strconv.Quote(s[:cut]) + "..."
	}
	return strconv.Quote(s)
}

// quoteIfOdd leaves a plain field name alone and quotes anything else.
func quoteIfOdd(s string) string {
	for _, r := range s {
		if !(r == '_' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9') {
			return quote(s)
		}
	}
	if !utf8.ValidString(s) {
		return quote(s)
	}
	return s
}
