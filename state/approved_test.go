package state

import (
	"strings"
	"testing"
)

// ApprovalOf is the one "approved for these bytes" check: each way an
// approval can fail to cover a task's bytes is told apart, and only the
// approval of this ID with this digest, named by last_approved_task_id,
// passes.
func TestApprovalOf(t *testing.T) {
	const id = "TASK_A"
	digestB := strings.Repeat("b", 64)
	mine := &Approval{TaskID: id, TaskSHA256: digestA, Commit: commitA}
	for _, c := range []struct {
		name string
		st   RX
		want Standing
	}{
		{"fresh state", RX{}, NoneApproved},
		{"record without last_approved_task_id", RX{Approval: mine}, NoneApproved},
		{"another task approved", RX{LastApprovedTaskID: "TASK_B", Approval: &Approval{TaskID: "TASK_B", TaskSHA256: digestA}}, OtherApproved},
		{"named, no record", RX{LastApprovedTaskID: id}, NoRecord},
		{"named, the record is another task's", RX{LastApprovedTaskID: id, Approval: &Approval{TaskID: "TASK_B", TaskSHA256: digestA}}, NoRecord},
		{"approved for other bytes", RX{LastApprovedTaskID: id, Approval: &Approval{TaskID: id, TaskSHA256: digestB}}, OtherBytes},
		{"approved for these bytes", RX{LastApprovedTaskID: id, Approval: mine}, ApprovedBytes},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := c.st.ApprovalOf(id, digestA); got != c.want {
				t.Errorf("ApprovalOf = %d, want %d", got, c.want)
			}
		})
	}
	st := RX{LastApprovedTaskID: id, Approval: &Approval{TaskID: id, TaskSHA256: digestB}}
	want := "task TASK_A changed since it was approved (approved SHA-256 " + digestB + ", now " + digestA + " at commit " + commitA +
		"); a revised task needs a new TASK_ID and a new approval"
	if got := st.ChangedSinceApproval(id, digestA, commitA); got != want {
		t.Errorf("ChangedSinceApproval =\n%s\nwant\n%s", got, want)
	}
}
