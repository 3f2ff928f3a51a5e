package rxside

import (
	"strings"
	"testing"
	"time"

	"rfhandoff/state"
	"rfhandoff/task"
)

func TestDecide(t *testing.T) {
	t.Parallel()
	const id = "TASK_A"
	digA, digB := strings.Repeat("a", 64), strings.Repeat("b", 64)
	tk := &task.Task{ID: id, SHA256: digA}
	approval := &state.Approval{TaskID: id, TaskSHA256: digA, Commit: strings.Repeat("c", 40), ApprovedAt: time.Unix(1, 0)}
	tests := []struct {
		name  string
		st    state.RX
		want  Verdict
		first string
	}{
		{"fresh state", state.RX{}, Awaiting, ""},
		{"seen, same bytes", state.RX{SeenTaskDigests: map[string]string{id: digA}}, Awaiting, ""},
		{"seen, other bytes", state.RX{SeenTaskDigests: map[string]string{id: digB}}, Changed, digB},
		{"approved other bytes, digest not on record", state.RX{LastApprovedTaskID: id,
			Approval: &state.Approval{TaskID: id, TaskSHA256: digB}}, Changed, digB},
		{"deferred", state.RX{DeferredTaskID: id}, Deferred, ""},
		{"another task deferred", state.RX{DeferredTaskID: "OTHER"}, Awaiting, ""},
		{"approved", state.RX{LastApprovedTaskID: id, Approval: approval}, Approved, ""},
		{"approval of another task", state.RX{LastApprovedTaskID: "OTHER",
			Approval: &state.Approval{TaskID: "OTHER", TaskSHA256: digB}}, Awaiting, ""},
		{"last_approved without a bound approval", state.RX{LastApprovedTaskID: id}, Awaiting, ""},
		{"completed (list)", state.RX{CompletedTaskIDs: []string{id}}, Completed, ""},
		{"completed (last)", state.RX{LastCompletedTaskID: id}, Completed, ""},
		{"completed beats approved and deferred", state.RX{CompletedTaskIDs: []string{id}, DeferredTaskID: id,
			LastApprovedTaskID: id, Approval: approval}, Completed, ""},
		{"changed beats completed", state.RX{CompletedTaskIDs: []string{id},
			SeenTaskDigests: map[string]string{id: digB}}, Changed, digB},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := decide(&tt.st, tk)
			if d.Verdict != tt.want || d.FirstDigest != tt.first {
				t.Errorf("decide = %v (first %q), want %v (first %q)", d.Verdict, d.FirstDigest, tt.want, tt.first)
			}
			if d.Verdict.AwaitsApproval() != (tt.want == Awaiting || tt.want == Deferred) {
				t.Errorf("AwaitsApproval wrong for %v", d.Verdict)
			}
		})
	}
}
