package strictjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
)

// reader reads one JSON text token by token: object for the top-level value, Read for each
// value after it, members, elements or skip for a container Read opened, then end.
type reader struct {
	dec *json.Decoder
}

func newReader(data []byte) *reader {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	return &reader{dec: dec}
}

func (r *reader) offset() int64 { return r.dec.InputOffset() }

// object reads the top-level value's first token, which must open an object.
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

// Read reads the next value's first token: a scalar whole, a container its opening delimiter.
func (r *reader) Read() (Value, error) {
	tok, err := r.dec.Token()
	if err != nil {
		return Value{}, r.syntax(err)
	}
	return valueOf(tok), nil
}

// members reads the object just opened: for each member the key, then f reads the value.
func (r *reader) members(f func(key string) error) error {
	return r.elements(func() error {
		tok, err := r.dec.Token()
		if err != nil {
			return r.syntax(err)
		}
		key, ok := tok.(string)
		if !ok { // the scanner guarantees string keys; be defensive anyway
			return &Error{Kind: Syntax, Err: errors.New("object key is not a string"), Offset: r.offset()}
		}
		return f(key)
	})
}

func (r *reader) elements(f func() error) error {
	for r.dec.More() {
		if err := f(); err != nil {
			return err
		}
	}
	return r.close()
}

func (r *reader) close() error {
	if _, err := r.dec.Token(); err != nil {
		return r.syntax(err)
	}
	return nil
}

// skip reads the rest of the container Read just opened, keeping nothing. With max > 0 it
// refuses nesting of more than max levels, the container itself being the first.
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

// end checks that only whitespace follows the top-level value.
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
