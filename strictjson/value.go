package strictjson

import (
	"strconv"
	"unicode/utf8"
)

// Kind is a JSON value's type as written.
type Kind int

const (
	Null Kind = iota
	Bool
	Number
	String
	Object
	Array
)

// MaxSafeInt keeps integers exact in every JSON reader (I-JSON, RFC 7493 §2.2).
const MaxSafeInt = 1<<53 - 1

// Value is one value as the token stream gave it. Equal Values (==) are the same JSON text
// (strings after unescaping).
type Value struct {
	Kind Kind
	// Text is a string's contents, a number's literal (so 1.0 and 1 stay
	// apart), or a container's raw JSON text (see Node).
	Text string
	Bool bool
}

// Describe says what v is, for "got ..." in messages.
func (v Value) Describe() string {
	switch v.Kind {
	case Null:
		return "null"
	case Bool:
		return strconv.FormatBool(v.Bool)
	case Number:
		return "the number " + shorten(v.Text)
	case String:
		return "the string " + strconv.Quote(shorten(v.Text))
	case Object:
		return "an object"
	default:
		return "an array"
	}
}

const maxShown = 80

// shorten cuts s to maxShown bytes on a rune boundary, so a message stays valid UTF-8.
func shorten(s string) string {
	if len(s) <= maxShown {
		return s
	}
	cut := maxShown
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// Members is an object's members: every occurrence of every key, and the order in which
// keys first appeared, so a reader can report problems in document order.
type Members[V any] struct {
	Order  []string
	Values map[string][]V
}

func (m *Members[V]) Add(key string, v V) {
	if m.Values == nil {
		m.Values = map[string][]V{}
	}
	if _, seen := m.Values[key]; !seen {
		m.Order = append(m.Order, key)
	}
	m.Values[key] = append(m.Values[key], v)
}
