package strictjson

import (
	"fmt"
	"slices"
	"strings"
)

// Field is one key of an object read by Fields. Check judges the key's one value (its JSON
// kind too), stores it in dst, and returns "" or "must be ..., got ...".
type Field[T any] struct {
	Key      string
	Optional bool // may be absent; dst then keeps its zero value
	Check    func(dst *T, v *Node) string
}

type ProblemKind int

// What Fields reports, in its report order: key-name problems in document
// order, then the table's keys in table order.
const (
	UnknownKey   ProblemKind = iota // a key not in the table (case counts)
	DuplicateKey                    // a key given more than once; its value is not checked
	MissingKey                      // a required key not given
	BadValue                        // Check refused the value
)

// Problem is one thing wrong with an object. Reason is the standard wording; Count and Same
// (a duplicate's occurrences, and whether all are the same JSON text) let a reader word a
// duplicate its own way.
type Problem struct {
	Key    string
	Kind   ProblemKind
	Reason string
	Count  int
	Same   bool
}

// Fields decodes the object o into dst through the table fields, reporting every problem at
// once. Keys in also are known but left to the caller. good holds each table key whose one
// value Check accepted, so that rules across keys look only at those.
func Fields[T any](o *Members[*Node], fields []Field[T], dst *T, also ...string) (good map[string]bool, problems []Problem) {
	var keys []string
	for _, f := range fields {
		keys = append(keys, f.Key)
	}
	keys = append(keys, also...)
	for _, k := range o.Order {
		vs := o.Values[k]
		switch {
		case !slices.Contains(keys, k):
			reason := "unknown key"
			for _, name := range keys {
				if strings.EqualFold(name, k) {
					reason = fmt.Sprintf("unknown key (keys are case-sensitive; did you mean %q?)", name)
					break
				}
			}
			problems = append(problems, Problem{Key: k, Kind: UnknownKey, Reason: reason})
		case len(vs) > 1:
			same := true
			for _, v := range vs[1:] {
				same = same && v.Value == vs[0].Value
			}
			problems = append(problems, Problem{Key: k, Kind: DuplicateKey, Count: len(vs), Same: same,
				Reason: fmt.Sprintf("duplicate key (%d times)", len(vs))})
		}
	}
	good = map[string]bool{}
	for _, f := range fields {
		switch vs := o.Values[f.Key]; {
		case len(vs) == 0 && !f.Optional:
			problems = append(problems, Problem{Key: f.Key, Kind: MissingKey, Reason: "is missing"})
		case len(vs) == 1:
			if why := f.Check(dst, vs[0]); why != "" {
				problems = append(problems, Problem{Key: f.Key, Kind: BadValue, Reason: why})
			} else {
				good[f.Key] = true
			}
		}
	}
	return good, problems
}
