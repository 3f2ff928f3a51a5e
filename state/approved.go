package state

import "fmt"

// Standing is how the RX state's approval stands for one task's bytes
// (PROTOCOL#task-file): the one check rx capture, rx publish-result, rx check and
// rx approve share.
type Standing int

const (
	ApprovedBytes Standing = iota // approved, for exactly these bytes
	NoneApproved                  // last_approved_task_id is empty
	OtherApproved                 // last_approved_task_id names another task
	NoRecord                      // last_approved_task_id names it, but no approval record for it is stored
	OtherBytes                    // approved, for other bytes: the task changed since
)

// ApprovalOf judges whether task id, whose task file has SHA-256 digest,
// is approved for exactly these bytes.
func (s *RX) ApprovalOf(id, digest string) Standing {
	switch {
	case s.LastApprovedTaskID == "":
		return NoneApproved
	case s.LastApprovedTaskID != id:
		return OtherApproved
	case s.Approval == nil || s.Approval.TaskID != id:
		return NoRecord
	case s.Approval.TaskSHA256 != digest:
		return OtherBytes
	}
	return ApprovedBytes
}

// ChangedSinceApproval says that task id, approved for other bytes
// (OtherBytes), now has digest at commit.
func (s *RX) ChangedSinceApproval(id, digest, commit string) string {
	return fmt.Sprintf("task %s changed since it was approved (approved SHA-256 %s, now %s at commit %s); a revised task needs a new TASK_ID and a new approval",
		id, s.Approval.TaskSHA256, digest, commit)
}
