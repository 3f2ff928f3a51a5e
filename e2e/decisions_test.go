package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"rfhandoff/exec"
	"rfhandoff/gate"
	"rfhandoff/internal/rxtest"
	"rfhandoff/internal/tasktest"
)

// decisionKinds reads the decision lines of the audit log at path.
func decisionKinds(t *testing.T, path string) ([]string, []exec.Entry) {
	t.Helper()
	es, err := exec.ReadAuditTail(path, 0)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	var out []exec.Entry
	for _, e := range es {
		if e.Event == exec.EventDecision {
			kinds, out = append(kinds, e.Kind), append(out, e)
		}
	}
	return kinds, out
}

// The RX operator's decisions are on record through the real binary:
// no terminal, stopped, deferred, a wrong phrase, then approved, each with the task's digest and
// level, never the phrase; audit show prints them as decisions and the
// git calls in brief, -v in full; audit verify holds them, and catches a
// hand-edited one.
func TestRxDecisionsOnRecord(t *testing.T) {
	t.Parallel()
	rx := rxtest.New(t, rxtest.Options{})
	const id = "DECIDE_RED_0001"
	rx.PushTask(tasktest.TaskSpec{ID: id, HardwareAccess: true, Level: gate.Red})

	if d := rxDetached(t, rx, "", "rx", "approve", id); exitOf(t, d) != 1 {
		t.Fatalf("no terminal: exit %d, want 1\n%s", exitOf(t, d), d.Stderr)
	}
	s := rxTerminal(t, rx, "rx", "approve")
	s.WaitForText(menu, rxWait)
	s.Send("S")
	if code := exitOf(t, s); code != 1 {
		t.Fatalf("stop: exit %d", code)
	}
	s = rxTerminal(t, rx, "rx", "approve")
	s.WaitForText(menu, rxWait)
	s.Send("D")
	if code := exitOf(t, s); code != 1 {
		t.Fatalf("defer: exit %d", code)
	}
	s = rxTerminal(t, rx, "rx", "approve")
	s.WaitForText(menu, rxWait)
	s.Send("A")
	s.WaitForText("Type exactly: AUTHORIZE "+id, rxWait)
	s.Send("authorize " + id)
	if code := exitOf(t, s); code != 1 {
		t.Fatalf("wrong phrase: exit %d", code)
	}
	s = rxTerminal(t, rx, "rx", "approve", id)
	s.WaitForText(menu, rxWait)
	s.Send("A")
	s.WaitForText("Type exactly: AUTHORIZE "+id, rxWait)
	s.Send("AUTHORIZE " + id)
	if code := exitOf(t, s); code != 0 {
		t.Fatalf("approve: exit %d\n%s", code, s.Stderr)
	}

	audit := rx.Policy.AuditPath()
	kinds, lines := decisionKinds(t, audit)
	want := []string{exec.DecisionApprovalRefused, exec.DecisionTaskShown, exec.DecisionTaskStopped, exec.DecisionTaskShown, exec.DecisionTaskDeferred, exec.DecisionTaskShown, exec.DecisionApprovalRefused,
		exec.DecisionTaskShown, exec.DecisionTaskApproved}
	if !slices.Equal(kinds, want) {
		t.Fatalf("decision lines %v, want %v", kinds, want)
	}
	st := loadRX(t, rx)
	if l := lines[0]; l.Reason != "no terminal" || l.TaskID != id || l.Command != "rx approve" {
		t.Errorf("no terminal: %+v", l)
	}
	if !strings.Contains(lines[2].Reason, "[S]") {
		t.Errorf("stop: %+v", lines[2])
	}
	lines = lines[1:]
	for _, l := range lines {
		if l.Role != string(exec.SideRX) || l.TaskID != id || l.Level != "RED" || l.TaskSHA256 != st.Approval.TaskSHA256 || l.Command != "rx approve" {
			t.Errorf("decision line %+v: want task %s, level RED, sha256 %s", l, id, st.Approval.TaskSHA256)
		}
	}
	if lines[5].Reason != "wrong phrase" || lines[7].TaskCommit != st.Approval.Commit {
		t.Errorf("refusal %+v, approval %+v", lines[5], lines[7])
	}
	data, err := os.ReadFile(audit)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(data, []byte("authorize "+id)) {
		t.Error("the audit log holds a phrase as typed")
	}

	// audit show: decisions distinct, git in brief; -v and --json in full.
	code, brief, _ := rxMain(t, rx, "audit", "show")
	if code != 0 || !strings.Contains(brief, "DECISION task_approved task="+id+" level=RED task_sha256="+st.Approval.TaskSHA256[:12]) ||
		!regexp.MustCompile(`(?m)  git fetch +exit 0 [0-9]+ms$`).MatchString(brief) || strings.Contains(brief, "-c core.") {
		t.Errorf("audit show: exit %d\n%s", code, brief)
	}
	code, full, _ := rxMain(t, rx, "-v", "audit", "show")
	if code != 0 || !strings.Contains(full, "-c ") || !strings.Contains(full, "task_sha256="+st.Approval.TaskSHA256+" ") {
		t.Errorf("audit show -v: exit %d\n%s", code, full)
	}
	code, js, _ := rxMain(t, rx, "audit", "show", "--json")
	if code != 0 || !strings.Contains(js, `"kind":"task_approved"`) || !strings.Contains(js, `"argv":[`) {
		t.Errorf("audit show --json: exit %d\n%s", code, js)
	}
	if code, out, errOut := rxMain(t, rx, "audit", "verify"); code != 0 {
		t.Fatalf("audit verify: exit %d\n%s%s", code, out, errOut)
	}

	// A hand-edited decision: the approval names another level.
	var e exec.Entry
	i := bytes.Index(data, []byte(`"kind":"task_approved"`))
	start := bytes.LastIndexByte(data[:i], '\n') + 1
	if err := json.Unmarshal(data[start:start+bytes.IndexByte(data[start:], '\n')], &e); err != nil {
		t.Fatal(err)
	}
	edited := bytes.Replace(data, []byte(`"kind":"task_approved","command":"rx approve","task_id":"`+id+`","level":"RED"`),
		[]byte(`"kind":"task_approved","command":"rx approve","task_id":"`+id+`","level":"GREEN"`), 1)
	if bytes.Equal(edited, data) {
		t.Fatalf("no approval line to edit in:\n%s", data[start:])
	}
	if err := os.WriteFile(audit, edited, 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := rxMain(t, rx, "audit", "verify")
	if code != 1 || !strings.Contains(out+errOut, fmt.Sprintf("%s:%d: audit chain broken", audit, e.Seq)) {
		t.Errorf("audit verify of an edited decision line %d: exit %d\n%s%s", e.Seq, code, out, errOut)
	}
}
