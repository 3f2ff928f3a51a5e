package result

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"strings"
)

// kind is a JSON value's type as written.
type kind int

const (
	kindNull kind = iota
	kindBool
	kindNumber
	kindString
	kindObject
	kindArray
)

// value is one member value as the token stream gave it. Numbers keep
// their literal text (UseNumber), so 1.0 and 1 stay distinguishable.
type value struct {
	kind kind
	text string // string contents, number literal, or raw text of a container
	b    bool
}

// maxShown caps how much of an untrusted value an error message repeats.
const maxShown = 80

func shorten(s string) string {
	if len(s) <= maxShown {
		return s
	}
	// Cut on a rune boundary so the message stays valid UTF-8.
	cut := maxShown
	for cut > 0 && !utf8RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }

// describe says what a value is, for "got ..." in messages.
func (v value) describe() string {
	switch v.kind {
	case kindNull:
		return "null"
	case kindBool:
		return strconv.FormatBool(v.b)
	case kindNumber:
		return "the number " + shorten(v.text)
	case kindString:
		return "the string " + strconv.Quote(shorten(v.text))
	case kindObject:
		return "an object"
	default:
		return "an array"
	}
}

// same reports whether two values are the same JSON text (after
// unescaping strings), for telling duplicates apart in messages.
func (v value) same(w value) bool { return v.kind == w.kind && v.text == w.text && v.b == w.b }

// members is the top-level object: every occurrence of every key, plus the
// order in which keys first appeared.
type members struct {
	values map[string][]value
	order  []string
}

// walk reads data as exactly one JSON object with scalar-or-skipped member
// values. It records syntax and shape problems in p and reports whether the
// members are usable. Key-name problems (unknown, duplicate) are recorded too
// but do not stop the walk.
func walk(data []byte, p *problems) (members, bool) {
	m := members{values: map[string][]value{}}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()

	tok, err := dec.Token()
	if errors.Is(err, io.EOF) {
		p.add("", RuleSyntax, "is empty; expected one JSON object")
		return m, false
	}
	if err != nil {
		p.add("", RuleSyntax, "is not valid JSON: %s", syntaxReason(err, dec))
		return m, false
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		p.add("", RuleSyntax, "must be one JSON object, got %s at the top level", describeToken(tok))
		return m, false
	}
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			p.add("", RuleSyntax, "is not valid JSON: %s", syntaxReason(err, dec))
			return m, false
		}
		key, ok := kt.(string)
		if !ok { // the scanner guarantees string keys; be defensive anyway
			p.add("", RuleSyntax, "is not valid JSON: object key is not a string")
			return m, false
		}
		start := dec.InputOffset()
		v, err := readValue(dec)
		if err != nil {
			p.add("", RuleSyntax, "is not valid JSON: %s", syntaxReason(err, dec))
			return m, false
		}
		if v.kind == kindObject || v.kind == kindArray {
			// Raw text, trimmed of the ':' and blanks before it, lets two
			// duplicate containers be compared.
			v.text = string(bytes.TrimLeft(data[start:dec.InputOffset()], " \t\r\n:"))
		}
		if _, seen := m.values[key]; !seen {
			m.order = append(m.order, key)
		}
		m.values[key] = append(m.values[key], v)
	}
	if _, err := dec.Token(); err != nil { // the closing '}'
		p.add("", RuleSyntax, "is not valid JSON: %s", syntaxReason(err, dec))
		return m, false
	}
	end := dec.InputOffset()
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		p.add("", RuleSyntax, "has data after the JSON object, which ends at byte %d; only whitespace may follow", end)
		return m, false
	}
	keyNameProblems(m, p)
	return m, true
}

// keyNameProblems reports unknown and duplicated keys in document order.
func keyNameProblems(m members, p *problems) {
	for _, key := range m.order {
		vs := m.values[key]
		if _, ok := fieldIndex[key]; !ok {
			if hint := caseVariantOf(key); hint != "" {
				p.add(key, RuleUnknownKey, "unknown key (keys are case-sensitive; did you mean %q?)", hint)
			} else {
				p.add(key, RuleUnknownKey, "unknown key")
			}
			continue
		}
		if len(vs) > 1 {
			same := true
			for _, v := range vs[1:] {
				same = same && v.same(vs[0])
			}
			if same {
				p.add(key, RuleDuplicate, "duplicate key (%d times, same value)", len(vs))
			} else {
				p.add(key, RuleDuplicate, "duplicate key (%d times, different values)", len(vs))
			}
		}
	}
}

// caseVariantOf returns the allowed key that key folds to, if any.
func caseVariantOf(key string) string {
	for _, f := range fields {
		if strings.EqualFold(f.key, key) {
			return f.key
		}
	}
	return ""
}

// readValue reads one value; containers are consumed and only their kind kept
// (no allowed key takes one).
func readValue(dec *json.Decoder) (value, error) {
	tok, err := dec.Token()
	if err != nil {
		return value{}, err
	}
	switch t := tok.(type) {
	case json.Delim:
		v := value{kind: kindObject}
		if t == '[' {
			v.kind = kindArray
		}
		for depth := 1; depth > 0; {
			tok, err := dec.Token()
			if err != nil {
				return value{}, err
			}
			if d, ok := tok.(json.Delim); ok {
				if d == '{' || d == '[' {
					depth++
				} else {
					depth--
				}
			}
		}
		return v, nil
	case string:
		return value{kind: kindString, text: t}, nil
	case json.Number:
		return value{kind: kindNumber, text: string(t)}, nil
	case bool:
		return value{kind: kindBool, b: t}, nil
	default:
		return value{kind: kindNull}, nil
	}
}

func describeToken(tok json.Token) string {
	switch t := tok.(type) {
	case json.Delim:
		if t == '[' {
			return "an array"
		}
		return "the delimiter " + strconv.Quote(t.String())
	case string:
		return value{kind: kindString, text: t}.describe()
	case json.Number:
		return value{kind: kindNumber, text: string(t)}.describe()
	case bool:
		return strconv.FormatBool(t)
	default:
		return "null"
	}
}

func syntaxReason(err error, dec *json.Decoder) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return se.Error() + " at byte " + strconv.FormatInt(se.Offset, 10)
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return "unexpected end of input at byte " + strconv.FormatInt(dec.InputOffset(), 10)
	}
	return err.Error()
}
