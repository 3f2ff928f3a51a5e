package result

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/hashicorp/go-multierror"
)

// fieldError is one violation. Key is the JSON key it concerns exactly as
// written in the file (so an unknown "Task_ID" is reported as such), or ""
// for a problem with the document as a whole (size, encoding, syntax).
type fieldError struct {
	Key    string
	Rule   Rule
	Reason string
}

// Rule classifies a violation, so callers and tests can tell them apart
// without reading the message.
type Rule string

// The kinds of violation.
const (
	ruleSize       Rule = "size"        // over the byte limit
	ruleEncoding   Rule = "encoding"    // not UTF-8, or a byte-order mark
	ruleSyntax     Rule = "syntax"      // not exactly one JSON object
	ruleUnknownKey Rule = "unknown-key" // a key not in the table (case counts)
	ruleDuplicate  Rule = "duplicate"   // a key given more than once
	ruleMissing    Rule = "missing"     // a key not given
	ruleValue      Rule = "value"       // wrong JSON type, range or pattern
	ruleState      Rule = "state"       // the READY / COMPLETE column
	ruleTaskID     Rule = "task-id"     // not the expected current task
	rulePolicy     Rule = "policy"      // not the value the policy sets
	ruleNode       Rule = "node"        // not the version or node expected (PROTOCOL#several-nodes)
	ruleSync       Rule = "sync"        // not the version or schedule the task sets (START_AT, SYNC_MODE)
	ruleAlign      Rule = "align"       // alignment's keys disagree (PROTOCOL#result)
)

func (e *fieldError) Error() string {
	if e.Key == "" {
		return "document " + e.Reason
	}
	// Quoted: a key comes from untrusted input and may hold anything.
	return strconv.Quote(e.Key) + ": " + e.Reason
}

// invalidError reports every violation found in one result, each a
// *fieldError. Use errors.As to recognise it.
type invalidError struct {
	// Source names the file when known (ReadFile sets it).
	Source string
	// Errs holds the *fieldError values, documents problems first, then
	// keys in the PROTOCOL#result table's order.
	Errs *multierror.Error
}

func (e *invalidError) Error() string {
	src := e.Source
	if src == "" {
		src = "RX_RESULT.json"
	}
	probs := e.Problems()
	var b strings.Builder
	if len(probs) == 1 && probs[0].Key == "" {
		// Document problems read as a sentence about the file.
		return src + " " + probs[0].Reason
	}
	if len(probs) == 1 {
		fmt.Fprintf(&b, "%s is invalid: %s", src, probs[0].Error())
		return b.String()
	}
	fmt.Fprintf(&b, "%s is invalid (%d problems):", src, len(probs))
	for _, p := range probs {
		b.WriteString("\n  - ")
		b.WriteString(p.Error())
	}
	return b.String()
}

// Unwrap lets errors.As reach the individual *fieldError values.
func (e *invalidError) Unwrap() []error {
	if e.Errs == nil {
		return nil
	}
	return e.Errs.Errors
}

// Problems returns the violations in report order.
func (e *invalidError) Problems() []*fieldError {
	if e.Errs == nil {
		return nil
	}
	out := make([]*fieldError, 0, len(e.Errs.Errors))
	for _, err := range e.Errs.Errors {
		if fe, ok := err.(*fieldError); ok {
			out = append(out, fe)
		}
	}
	return out
}

// keys returns the key of every violation in report order ("" for a
// document-level problem); a key appears once per violation.
func (e *invalidError) Keys() []string {
	probs := e.Problems()
	out := make([]string, len(probs))
	for i, p := range probs {
		out[i] = p.Key
	}
	return out
}

// problems collects violations in order.
type problems struct{ errs *multierror.Error }

func (p *problems) add(key string, rule Rule, format string, args ...any) {
	p.errs = multierror.Append(p.errs, &fieldError{Key: key, Rule: rule, Reason: fmt.Sprintf(format, args...)})
}

// count is how many violations p holds.
func (p *problems) count() int {
	if p.errs == nil {
		return 0
	}
	return len(p.errs.Errors)
}

func (p *problems) empty() bool { return p.errs == nil || len(p.errs.Errors) == 0 }

func (p *problems) err() error {
	if p.empty() {
		return nil
	}
	return &invalidError{Errs: p.errs}
}
