package txwatch

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"unicode/utf8"
)

// The record parser walks JSON tokens itself, because encoding/json would
// fold key case, keep the last of duplicate keys, ignore null and read 1.0
// into an int (reliability.md §0 rule 6).

type jkind int

const (
	jNull jkind = iota
	jBool
	jNumber
	jString
	jObject
	jArray
)

// jvalue is one value as written; numbers keep their literal text.
type jvalue struct {
	kind jkind
	text string
	b    bool
	obj  *jobject
}

// jobject holds every occurrence of every key, in first-seen order.
type jobject struct {
	order []string
	vals  map[string][]jvalue
}

// maxJSONDepth bounds nesting: a record is an object holding one object.
const maxJSONDepth = 4

func (v jvalue) describe() string {
	switch v.kind {
	case jNull:
		return "null"
	case jBool:
		return strconv.FormatBool(v.b)
	case jNumber:
		return "the number " + shorten(v.text)
	case jString:
		return "the string " + strconv.Quote(shorten(v.text))
	case jObject:
		return "an object"
	}
	return "an array"
}

func shorten(s string) string {
	const max = 80
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// parseJSONObject reads data as exactly one JSON object (nothing but
// whitespace after it) into a tree. The error says where the syntax broke.
func parseJSONObject(data []byte) (*jobject, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	tok, err := dec.Token()
	if errors.Is(err, io.EOF) {
		return nil, errors.New("is empty; expected one JSON object")
	}
	if err != nil {
		return nil, syntaxErr(err, dec)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errors.New("must be one JSON object")
	}
	obj, err := readObject(dec, 1)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("has data after the JSON object, which ends at byte %d", dec.InputOffset())
	}
	return obj, nil
}

// readObject reads members after the opening '{' up to and including '}'.
func readObject(dec *json.Decoder, depth int) (*jobject, error) {
	if depth > maxJSONDepth {
		return nil, fmt.Errorf("nests deeper than %d levels", maxJSONDepth)
	}
	o := &jobject{vals: map[string][]jvalue{}}
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return nil, syntaxErr(err, dec)
		}
		key, ok := kt.(string)
		if !ok {
			return nil, errors.New("is not valid JSON: object key is not a string")
		}
		v, err := readJSONValue(dec, depth)
		if err != nil {
			return nil, err
		}
		if _, seen := o.vals[key]; !seen {
			o.order = append(o.order, key)
		}
		o.vals[key] = append(o.vals[key], v)
	}
	if _, err := dec.Token(); err != nil { // '}'
		return nil, syntaxErr(err, dec)
	}
	return o, nil
}

func readJSONValue(dec *json.Decoder, depth int) (jvalue, error) {
	tok, err := dec.Token()
	if err != nil {
		return jvalue{}, syntaxErr(err, dec)
	}
	switch t := tok.(type) {
	case json.Delim:
		if t == '{' {
			o, err := readObject(dec, depth+1)
			if err != nil {
				return jvalue{}, err
			}
			return jvalue{kind: jObject, obj: o}, nil
		}
		// No key takes an array: consume it and keep only its kind.
		for n := 1; n > 0; {
			tok, err := dec.Token()
			if err != nil {
				return jvalue{}, syntaxErr(err, dec)
			}
			if d, ok := tok.(json.Delim); ok {
				if d == '{' || d == '[' {
					n++
					if n > maxJSONDepth {
						return jvalue{}, fmt.Errorf("nests deeper than %d levels", maxJSONDepth)
					}
				} else {
					n--
				}
			}
		}
		return jvalue{kind: jArray}, nil
	case string:
		return jvalue{kind: jString, text: t}, nil
	case json.Number:
		return jvalue{kind: jNumber, text: string(t)}, nil
	case bool:
		return jvalue{kind: jBool, b: t}, nil
	}
	return jvalue{kind: jNull}, nil
}

func syntaxErr(err error, dec *json.Decoder) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Errorf("is not valid JSON: %s at byte %d", se.Error(), se.Offset)
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return fmt.Errorf("is not valid JSON: unexpected end at byte %d", dec.InputOffset())
	}
	return fmt.Errorf("is not valid JSON: %v", err)
}

// maxSafeInt keeps integers exact in every JSON reader (RFC 7493 §2.2).
const maxSafeInt = 1<<53 - 1

// jInt accepts an integer literal only: 1.0, 1e0 and "1" are refused.
func jInt(v jvalue) (int64, string) {
	if v.kind != jNumber {
		return 0, "must be an integer, got " + v.describe()
	}
	n, err := strconv.ParseInt(v.text, 10, 64)
	if err != nil || n > maxSafeInt || n < -maxSafeInt {
		return 0, "must be an integer of at most 2^53-1, got " + v.describe()
	}
	return n, ""
}

func jBoolean(v jvalue) (bool, string) {
	if v.kind != jBool {
		return false, "must be true or false, got " + v.describe()
	}
	return v.b, ""
}

func jStr(v jvalue) (string, string) {
	if v.kind != jString {
		return "", "must be a string, got " + v.describe()
	}
	return v.text, ""
}
