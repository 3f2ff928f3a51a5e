package result

import (
	"errors"
	"slices"
	"strings"

	"rfhandoff/strictjson"
)

// value is one member value as the token stream gave it. A container's
// Text is its raw JSON text, so that two duplicates can be compared.
type value = strictjson.Value

// members is the top-level object: every occurrence of every key, plus the
// order in which keys first appeared.
type members = strictjson.Members[value]

// walk reads data as exactly one JSON object with scalar-or-skipped member
// values (strictjson.Parse keeping one level: a container's Text is its raw
// JSON text). It records syntax and shape problems in p and reports
// whether the members are usable. Key-name problems (unknown, duplicate)
// are recorded too but do not stop the walk.
func walk(data []byte, p *problems) (members, bool) {
	var m members
	n, err := strictjson.Parse(data, strictjson.Shape{Keep: 1})
	if err == nil {
		for _, key := range n.Members.Order {
			for _, v := range n.Members.Values[key] {
				m.Add(key, v.Value)
			}
		}
	}
	var (
		notObject *strictjson.NotObjectError
		trailing  *strictjson.TrailingDataError
	)
	switch {
	case err == nil:
		keyNameProblems(m, p)
		return m, true
	case errors.Is(err, strictjson.ErrEmpty):
		p.add("", ruleSyntax, "is empty; expected one JSON object")
	case errors.As(err, &notObject):
		p.add("", ruleSyntax, "must be one JSON object, got %s at the top level", notObject.Got.Describe())
	case errors.As(err, &trailing):
		p.add("", ruleSyntax, "has data after the JSON object, which ends at byte %d; only whitespace may follow", trailing.End)
	default: // *strictjson.SyntaxError
		p.add("", ruleSyntax, "is not valid JSON: %s", err)
	}
	return m, false
}

// keyNameProblems reports unknown and duplicated keys in document order.
func keyNameProblems(m members, p *problems) {
	for _, key := range m.Order {
		vs := m.Values[key]
		if _, ok := fieldIndex[key]; !ok && !slices.Contains(nodeKeys, key) {
			if hint := caseVariantOf(key); hint != "" {
				p.add(key, ruleUnknownKey, "unknown key (keys are case-sensitive; did you mean %q?)", hint)
			} else {
				p.add(key, ruleUnknownKey, "unknown key")
			}
			continue
		}
		if len(vs) > 1 {
			same := true
			for _, v := range vs[1:] {
				same = same && v == vs[0]
			}
			if same {
				p.add(key, ruleDuplicate, "duplicate key (%d times, same value)", len(vs))
			} else {
				p.add(key, ruleDuplicate, "duplicate key (%d times, different values)", len(vs))
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
	for _, k := range nodeKeys {
		if strings.EqualFold(k, key) {
			return k
		}
	}
	return ""
}
