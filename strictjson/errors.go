package strictjson

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// ErrEmpty is input with no JSON value at all (nothing, or only
// whitespace).
var ErrEmpty = errors.New("empty input")

// SyntaxError is input that is not JSON where the reader stopped.
type SyntaxError struct {
	// Err is encoding/json's error as it came: a *json.SyntaxError,
	// io.EOF or io.ErrUnexpectedEOF (truncated input), or another error.
	Err error
	// Offset is the byte where the problem was found: the
	// *json.SyntaxError's own offset, else how far the reader had read.
	Offset int64
}

func (e *SyntaxError) Error() string {
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

func (e *SyntaxError) Unwrap() error { return e.Err }

// Truncated reports whether the input ended inside the value.
func (e *SyntaxError) Truncated() bool {
	return errors.Is(e.Err, io.EOF) || errors.Is(e.Err, io.ErrUnexpectedEOF)
}

// NotObjectError is a document whose top-level value is not an object.
// It is reported at the value's first token, before the rest is read.
type NotObjectError struct {
	Got Value // Got.Text is empty for an array
}

func (e *NotObjectError) Error() string {
	return "must be one JSON object, got " + e.Got.Describe() + " at the top level"
}

// TrailingDataError is more than whitespace after the one value.
type TrailingDataError struct {
	End int64 // where the value ends
}

func (e *TrailingDataError) Error() string {
	return fmt.Sprintf("has data after the JSON value, which ends at byte %d", e.End)
}

// DepthError is a container that nests deeper than its reader allows.
type DepthError struct {
	Max int
}

func (e *DepthError) Error() string {
	return fmt.Sprintf("nests deeper than %d levels", e.Max)
}
