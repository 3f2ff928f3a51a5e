package main

import (
	"bytes"
	"strings"
	"testing"

	"rfhandoff/exec"
)

// The report names each missing head with its commit and each trailer
// that is no hash (escaped), and fails for either; a log holding every
// witnessed head passes, saying what is not witnessed yet.
func TestAuditVerifyReport(t *testing.T) {
	h := func(c string) string { return strings.Repeat(c, 64) }
	heads := []witness{{commit: h("1")[:40], head: h("a")}, {commit: h("2")[:40], head: h("b")}}
	for _, tc := range []struct {
		name      string
		found     map[string]int
		malformed []witness
		fails     []string
		says      []string
	}{
		{"all found", map[string]int{h("a"): 7, h("b"): 3}, nil, nil,
			[]string{"2 chain heads witnessed, every one in the log (the latest at line 7; the 3 lines after it are not witnessed yet)"}},
		{"the last line witnessed", map[string]int{h("a"): 10, h("b"): 3}, nil, nil,
			[]string{"2 chain heads witnessed, every one in the log (the latest at line 10)\n"}},
		{"one missing", map[string]int{h("b"): 3}, nil, []string{"1 of the 2 chain heads", "rewritten, truncated or replaced"},
			[]string{"missing: commit " + h("1")[:40] + " names head " + h("a")}},
		{"none found", map[string]int{}, nil, []string{"2 of the 2", "not the RX side's log"}, nil},
		{"malformed", map[string]int{h("a"): 7, h("b"): 3}, []witness{{commit: h("3")[:40], head: "x\x1b[2J"}},
			[]string{"1 Audit-Chain-Head trailers", "no chain hash"}, []string{`"x<U+001B>[2J"`}},
	} {
		var out bytes.Buffer
		app := &App{Stdout: &out}
		err := (&AuditVerifyCmd{}).report(app, "audit.jsonl", "origin/rx-node at c0ffee", exec.VerifyStats{Lines: 10, Found: tc.found}, heads, tc.malformed)
		if (err != nil) != (len(tc.fails) > 0) {
			t.Errorf("%s: error %v", tc.name, err)
		}
		for _, want := range tc.fails {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s: error %v lacks %q", tc.name, err, want)
			}
		}
		for _, want := range tc.says {
			if !strings.Contains(out.String(), want) {
				t.Errorf("%s: output lacks %q:\n%s", tc.name, want, out.String())
			}
		}
		if strings.Contains(out.String(), "\x1b") {
			t.Errorf("%s: raw escape in the output", tc.name)
		}
	}
}
