package task

import (
	"errors"
	"reflect"
	"testing"
)

// FuzzBuild: whatever the values, Build either refuses with an
// *InvalidError or returns bytes that Parse accepts as the same task, whose
// PeekIDs is exactly its ID.
func FuzzBuild(f *testing.F) {
	f.Add("RX_CAPTURE_001", "Bounded receive", testHead, true, true, false, "RX_RESULT_ONLY", "## Goal\n")
	f.Add("x", "two\nlines", "short", false, false, true, "NO", "")
	f.Add("RX_CAPTURE_001", "\x1b[2J", testHead, true, false, true, "NO", "\r\nTASK_ID = OTHER\n")
	f.Fuzz(func(t *testing.T, id, title, head string, rx, tx, commit bool, push, body string) {
		s := Spec{ID: id, Title: title, SourceBranch: testBranch, ExpectedHead: head, RequiresApproval: true,
			HardwareAccess: rx || tx, RFRX: rx, RFTX: tx, AllowCommit: commit, AllowPush: push, Body: body}
		data, tk, err := Build(s, testOpts)
		if err != nil {
			var ie *InvalidError
			if !errors.As(err, &ie) || data != nil || tk != nil {
				t.Fatalf("refusal %T %v with data %q", err, err, data)
			}
			return
		}
		again, err := Parse(data, testOpts)
		if err != nil || !reflect.DeepEqual(again, tk) {
			t.Fatalf("Build's bytes do not parse to its task: %v", err)
		}
		if ids := PeekIDs(data); len(ids) != 1 || ids[0] != id {
			t.Fatalf("PeekIDs = %q, want [%q]", ids, id)
		}
	})
}
