package result

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/hashicorp/go-multierror"
)

// FieldError is one violation. Key is the JSON key it concerns exactly as
// written in the file (so an unknown "Task_ID" is reported as such), or ""
// for a problem with the document as a whole (size, encoding, syntax).
type FieldError struct {
	Key    string
	Rule   Rule
	Reason string
}

// Rule classifies a violation, so callers and tests can tell them apart
// without reading the message.
type Rule string

// The kinds of violation.
const (
	RuleSize       Rule = "size"        // over the byte limit
	RuleEncoding   Rule = "encoding"    // not UTF-8, or a byte-order mark
	RuleSyntax     Rule = "syntax"      // not exactly one JSON object
	RuleUnknownKey Rule = "unknown-key" // a key not in the table (case counts)
	RuleDuplicate  Rule = "duplicate"   // a key given more than once
	RuleMissing    Rule = "missing"     // a key not given
	RuleValue      Rule = "value"       // wrong JSON type, range or pattern
	RuleState      Rule = "state"       // the READY / COMPLETE column
	RuleTaskID     Rule = "task-id"     // not the expected current task
	RulePolicy     Rule = "policy"      // not the value the policy sets
	RuleNode       Rule = "node"        // not the version or node expected (PROTOCOL §23)
)

func (e *FieldError) Error() string {
	if e.Key == "" {
		return "document " + e.Reason
	}
	// Quoted: a key comes from untrusted input and may hold anything.
	return strconv.Quote(e.Key) + ": " + e.Reason
}

// InvalidError reports every violation found in one result, each a
// *FieldError. Use errors.As to recognise it.
type InvalidError struct {
	// Source names the file when known (ReadFile sets it).
	Source string
	// Errs holds the *FieldError values, documents problems first, then
	// keys in the PROTOCOL §5 table's order.
	Errs *multierror.Error
}

func (e *InvalidError) Error() string {
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

// Unwrap lets errors.As reach the individual *FieldError values.
func (e *InvalidError) Unwrap() []error {
	if e.Errs == nil {
		return nil
	}
	return e.Errs.Errors
}

// Problems returns the violations in report order.
func (e *InvalidError) Problems() []*FieldError {
	if e.Errs == nil {
		return nil
	}
	out := make([]*FieldError, 0, len(e.Errs.Errors))
	for _, err := range e.Errs.Errors {
		if fe, ok := err.(*FieldError); ok {
			out = append(out, fe)
		}
	}
	return out
}

// Keys returns the key of every violation in report order ("" for a
// document-level problem); a key appears once per violation.
func (e *InvalidError) Keys() []string {
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
	p.errs = multierror.Append(p.errs, &FieldError{Key: key, Rule: rule, Reason: fmt.Sprintf(format, args...)})
}

func (p *problems) empty() bool { return p.errs == nil || len(p.errs.Errors) == 0 }

func (p *problems) err() error {
	if p.empty() {
		return nil
	}
	return &InvalidError{Errs: p.errs}
}
