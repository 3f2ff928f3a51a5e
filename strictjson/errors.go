package strictjson

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// ErrEmpty is input with no JSON value at all (nothing, or only whitespace).
var ErrEmpty = errors.New("empty input")

// ErrorKind says why Parse refused a document that was not empty.
type ErrorKind int

// The kinds of *Error, each with the fields it sets.
const (
	Syntax       ErrorKind = iota // not JSON where the reader stopped: Err, Offset
	NotObject                     // the top-level value is not an object: Got
	TrailingData                  // more than whitespace after the one value: End
	Depth                         // a container nests deeper than allowed: Max
)

// Error is every refusal of a document that was not empty; only its Kind's fields are set.
type Error struct {
	Kind ErrorKind
	// Err (Syntax) is encoding/json's error as it came: a
	// *json.SyntaxError, io.EOF or io.ErrUnexpectedEOF (truncated input),
	// or another error.
	Err error
	// Offset (Syntax) is the byte where the problem was found: the
	// *json.SyntaxError's own offset, else how far the reader had read.
	Offset int64
	Got    Value // NotObject: the top-level value's first token (Text empty for an array)
	End    int64 // TrailingData: where the value ends
	Max    int   // Depth: the nesting the reader allows
}

func (e *Error) Error() string {
	switch e.Kind {
	case NotObject:
		return "must be one JSON object, got " + e.Got.Describe() + " at the top level"
	case TrailingData:
		return fmt.Sprintf("has data after the JSON value, which ends at byte %d", e.End)
	case Depth:
		return fmt.Sprintf("nests deeper than %d levels", e.Max)
	}
	var se *json.SyntaxError
	switch {
	case errors.As(e.Err, &se):
		return se.Error() + " at byte " + strconv.FormatInt(e.Offset, 10)
	case e.Truncated():
		return "unexpected end of input at byte " + strconv.FormatInt(e.Offset, 10)
	default:
		return e.Err.Error()
	}
}

func (e *Error) Unwrap() error { return e.Err }

// Truncated reports whether the input ended inside the value (a Syntax
// error whose Err is io.EOF or io.ErrUnexpectedEOF).
func (e *Error) Truncated() bool {
	return e.Kind == Syntax && (errors.Is(e.Err, io.EOF) || errors.Is(e.Err, io.ErrUnexpectedEOF))
}
