package result

import (
	"fmt"
	"strconv"
	"strings"
)

// fieldError is one violation. Key is the JSON key exactly as written, or
// "" for a problem with the document as a whole.
type fieldError struct {
	Key    string
	Rule   Rule
	Reason string
}

// Rule classifies a violation.
type Rule string

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

// invalidError reports every violation found in one result.
type invalidError struct {
	Source string // the file, when known
	// Errs holds the violations, documents problems first, then keys in
	// the PROTOCOL#result table's order.
	Errs problems
}

func (e *invalidError) Error() string {
	src := e.Source
	if src == "" {
		src = "RX_RESULT.json"
	}
	if len(e.Errs) == 1 && e.Errs[0].Key == "" {
		return src + " " + e.Errs[0].Reason
	}
	if len(e.Errs) == 1 {
		return src + " is invalid: " + e.Errs[0].Error()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s is invalid (%d problems):", src, len(e.Errs))
	for _, p := range e.Errs {
		b.WriteString("\n  - ")
		b.WriteString(p.Error())
	}
	return b.String()
}

func (e *invalidError) Unwrap() []error {
	out := make([]error, len(e.Errs))
	for i, fe := range e.Errs {
		out[i] = fe
	}
	return out
}

type problems []*fieldError

func (p *problems) add(key string, rule Rule, format string, args ...any) {
	*p = append(*p, &fieldError{Key: key, Rule: rule, Reason: fmt.Sprintf(format, args...)})
}

func (p problems) err() error {
	if len(p) == 0 {
		return nil
	}
	return &invalidError{Errs: p}
}
