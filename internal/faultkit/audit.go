package faultkit

import (
	"errors"
	"io/fs"
	"strings"
	"testing"

	"rfhandoff/exec"
)

// AuditEntries reads every line of the audit log at path (none when the
// file does not exist yet).
func AuditEntries(t testing.TB, path string) []exec.Entry {
	t.Helper()
	es, err := exec.ReadAuditTail(path, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatalf("faultkit: reading audit log %s: %v", path, err)
	}
	return es
}

// GitArgs returns the arguments a git start line ran with, after the
// runner's own hardening `-c key=value` pairs: the subcommand first.
func GitArgs(e exec.Entry) []string {
	if e.Tool != exec.Git || len(e.Argv) == 0 {
		return nil
	}
	a := e.Argv[1:]
	for len(a) >= 2 && a[0] == "-c" {
		a = a[2:]
	}
	return a
}

// GitStarts returns the git start lines whose subcommand is sub (every git
// start line when sub is "").
func GitStarts(es []exec.Entry, sub string) []exec.Entry {
	var out []exec.Entry
	for _, e := range es {
		if e.Event != exec.EventStart || e.Tool != exec.Git {
			continue
		}
		if a := GitArgs(e); sub == "" || (len(a) > 0 && a[0] == sub) {
			out = append(out, e)
		}
	}
	return out
}

// Ends maps each end line's ID to the line.
func Ends(es []exec.Entry) map[string]exec.Entry {
	m := map[string]exec.Entry{}
	for _, e := range es {
		if e.Event == exec.EventEnd {
			m[e.ID] = e
		}
	}
	return m
}

// ValueBeforeSeparator reports whether an argument of a git call holding
// value comes before --end-of-options or "--": the place where a
// data-derived value could be read as an option.
func ValueBeforeSeparator(args []string, value string) bool {
	for _, a := range args {
		if a == "--end-of-options" || a == "--" {
			return false
		}
		if strings.Contains(a, value) {
			return true
		}
	}
	return false
}

// Call is one subprocess in the audit log: its start line and, unless it
// was interrupted, its end line.
type Call struct {
	Start exec.Entry
	End   *exec.Entry
}

// OK reports a call that ended with exit status 0.
func (c Call) OK() bool { return c.End != nil && c.End.ExitCode != nil && *c.End.ExitCode == 0 }

// Failed reports a call that ended any other way.
func (c Call) Failed() bool { return c.End != nil && !c.OK() }

// GitCalls joins the start and end lines of the git calls whose
// subcommand is sub (every git call when sub is ""), in log order.
func GitCalls(es []exec.Entry, sub string) []Call {
	ends := Ends(es)
	var out []Call
	for _, s := range GitStarts(es, sub) {
		c := Call{Start: s}
		if e, ok := ends[s.ID]; ok {
			c.End = &e
		}
		out = append(out, c)
	}
	return out
}

// CountCalls counts the calls for which keep holds.
func CountCalls(cs []Call, keep func(Call) bool) int {
	n := 0
	for _, c := range cs {
		if keep(c) {
			n++
		}
	}
	return n
}
