package strictjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
)

// reader reads one JSON text token by token. A reader drives it value by
// value: Object or Read for the top-level value, Members or Skip for a
// container that Read opened, then End.
type reader struct {
	dec *json.Decoder
}

// newReader reads data. Numbers keep their literal text.
func newReader(data []byte) *reader {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	return &reader{dec: dec}
}

// offset is how many bytes of the input have been read.
func (r *reader) offset() int64 { return r.dec.InputOffset() }

// object reads the top-level value's first token, which must open an
// object; the reader is then inside it (read it with Members). Errors:
// ErrEmpty, or an *Error of kind Syntax or NotObject.
func (r *reader) object() error {
	tok, err := r.dec.Token()
	if errors.Is(err, io.EOF) {
		return ErrEmpty
	}
	if err != nil {
		return r.syntax(err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return &Error{Kind: NotObject, Got: valueOf(tok)}
	}
	return nil
}

// Read reads the next value's first token. A scalar is read whole; for an
// object or array only its opening delimiter is, and the caller must then
// read the container with Members (objects) or Skip. Errors are *Error
// of kind Syntax; one with Err == io.EOF means the input ended before the
// value began.
func (r *reader) Read() (Value, error) {
	tok, err := r.dec.Token()
	if err != nil {
		return Value{}, r.syntax(err)
	}
	return valueOf(tok), nil
}

// members reads the object just opened: for each member it reads the key
// and calls f, which must read the value (Read, and then Members or Skip
// for a container); then it reads the closing '}'. An error from f is
// returned as it is; the reader's own are *Error of kind Syntax.
func (r *reader) members(f func(key string) error) error {
	for r.dec.More() {
		tok, err := r.dec.Token()
		if err != nil {
			return r.syntax(err)
		}
		key, ok := tok.(string)
		if !ok { // the scanner guarantees string keys; be defensive anyway
			return &Error{Kind: Syntax, Err: errors.New("object key is not a string"), Offset: r.offset()}
		}
		if err := f(key); err != nil {
			return err
		}
	}
	return r.close()
}

// elements is Members for an array: f must read one element.
func (r *reader) elements(f func() error) error {
	for r.dec.More() {
		if err := f(); err != nil {
			return err
		}
	}
	return r.close()
}

// close reads the closing delimiter of the container being read.
func (r *reader) close() error {
	if _, err := r.dec.Token(); err != nil {
		return r.syntax(err)
	}
	return nil
}

// skip reads the rest of the container Read just opened, keeping nothing.
// With max > 0 it refuses (*Error of kind Depth) nesting of more than max
// levels, the container itself being the first. Other errors are of kind
// Syntax.
func (r *reader) skip(max int) error {
	for depth := 1; depth > 0; {
		tok, err := r.dec.Token()
		if err != nil {
			return r.syntax(err)
		}
		if d, ok := tok.(json.Delim); ok {
			if d == '{' || d == '[' {
				depth++
				if max > 0 && depth > max {
					return &Error{Kind: Depth, Max: max}
				}
			} else {
				depth--
			}
		}
	}
	return nil
}

// end checks that only whitespace follows the top-level value (an *Error
// of kind TrailingData otherwise). After a failure Offset says how far
// the reader looked.
func (r *reader) end() error {
	end := r.offset()
	if _, err := r.dec.Token(); !errors.Is(err, io.EOF) {
		return &Error{Kind: TrailingData, End: end}
	}
	return nil
}

func (r *reader) syntax(err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return &Error{Kind: Syntax, Err: err, Offset: se.Offset}
	}
	return &Error{Kind: Syntax, Err: err, Offset: r.offset()}
}

// valueOf is the Value a first token stands for.
func valueOf(tok json.Token) Value {
	switch t := tok.(type) {
	case json.Delim:
		if t == '[' {
			return Value{Kind: Array}
		}
		return Value{Kind: Object}
	case string:
		return Value{Kind: String, Text: t}
	case json.Number:
		return Value{Kind: Number, Text: string(t)}
	case bool:
		return Value{Kind: Bool, Bool: t}
	default:
		return Value{Kind: Null}
	}
}
