package rxside

import (
	"cmp"
	"errors"
	"fmt"

	"rfhandoff/config"
	"rfhandoff/state"
	"rfhandoff/task"
	"rfhandoff/taskfetch"
)

// Verdict is what the RX side makes of a valid task given its state.
type Verdict int

const (
	Awaiting  Verdict = iota + 1 // nobody has decided on it yet
	Deferred                     // awaiting approval, deferred at a prompt before
	Approved                     // bound to these exact bytes
	Completed                    // never offered again
	// Changed: the content differs from what was first seen (or approved)
	// under this TASK_ID; rejected, never offered.
	Changed
	// Replaced: the RX side saw this TASK_ID replaced by another task;
	// rejected, never offered again (PROTOCOL#trust).
	Replaced
	// NotForNode: the task names its receivers (RX_NODES, PROTOCOL#several-nodes)
	// and this node is not one of them; never offered, not recorded.
	NotForNode
)

var verdictNames = map[Verdict]string{
	Awaiting:   "awaits approval",
	Deferred:   "deferred, awaits approval",
	Approved:   "already approved",
	Completed:  "completed, never offered again",
	Changed:    "rejected: content changed under the same TASK_ID",
	Replaced:   "rejected: replaced by another task before, never offered again",
	NotForNode: "not for this node",
}

func (v Verdict) String() string { return cmp.Or(verdictNames[v], fmt.Sprintf("Verdict(%d)", int(v))) }

func (v Verdict) AwaitsApproval() bool { return v == Awaiting || v == Deferred }

// Decision is a verdict with what it was based on.
type Decision struct {
	Verdict     Verdict
	FirstDigest string // Changed: the digest first seen (or approved) under the ID
}

// decide judges a valid task against the state. A changed content is
// reported first, even for a completed ID, so that a revised task re-using
// an old ID is visible as the mistake it is.
func decide(s *state.RX, t *task.Task) Decision {
	if first, ok := s.SeenTaskDigests[t.ID]; ok && first != t.SHA256 {
		return Decision{Verdict: Changed, FirstDigest: first}
	}
	approval := s.ApprovalOf(t.ID, t.SHA256)
	if approval == state.OtherBytes {
		return Decision{Verdict: Changed, FirstDigest: s.Approval.TaskSHA256}
	}
	switch {
	case s.Completed(t.ID):
		return Decision{Verdict: Completed}
	case s.Replaced(t.ID):
		return Decision{Verdict: Replaced}
	case approval == state.ApprovedBytes:
		return Decision{Verdict: Approved}
	case s.DeferredTaskID == t.ID:
		return Decision{Verdict: Deferred}
	}
	return Decision{Verdict: Awaiting}
}

// forNode judges the task's RX_NODES against this node's [node] name
// (PROTOCOL#several-nodes) and its CAPTURE_* fields against its allowed
// ranges (PROTOCOL#task-file): the zero Decision when the node takes part,
// NotForNode when it is not listed, else an error.
func forNode(pol config.Policy, t *task.Task) (Decision, error) {
	_, err := t.Node(pol.Node.Name)
	switch {
	case errors.Is(err, task.ErrNotForNode):
		return Decision{Verdict: NotForNode}, nil
	case err != nil:
		return Decision{}, fmt.Errorf("%w; nothing recorded, nothing approved", err)
	}
	if _, err := pol.CapturePlanFor(t.Capture); err != nil {
		return Decision{}, fmt.Errorf("task %s refused: %w; nothing recorded, nothing approved", t.ID, err)
	}
	return Decision{}, nil
}

// contentChangedError is a task whose content differs from the first seen under its TASK_ID.
type contentChangedError struct {
	TaskID       string
	FirstSHA256  string
	NowSHA256    string
	Commit       string
	DuringPrompt bool // it changed between the prompt and the approval
}

func (e *contentChangedError) Error() string {
	when := ""
	if e.DuringPrompt {
		when = " while the prompt was open"
	}
	return fmt.Sprintf("task %s changed%s: its content (sha256 %s at commit %s) differs from the one first seen under this TASK_ID (sha256 %s); "+
		"rejected, nothing approved: a revised task must get a new TASK_ID", e.TaskID, when, e.NowSHA256, e.Commit, e.FirstSHA256)
}

// replacedRefusal refuses task id at commit, whose TASK_ID the RX side saw replaced by another
// task: an old task brought back, even by a signed commit.
func replacedRefusal(id, commit string) error {
	return fmt.Errorf("task %s at commit %s was replaced by another task before: a TASK_ID once replaced is never offered or approved again; "+
		"rejected, nothing approved (a task to run again needs a new TASK_ID)", id, commit)
}

// CompletedRefusal refuses approving a completed task before any prompt.
func CompletedRefusal(taskID string) error {
	return fmt.Errorf("task %s is completed: a completed TASK_ID is never offered or approved again", taskID)
}

// Record judges cur under the state lock, keeps accept as the accepted tip (nil keeps the one
// on record) and records cur as seen (ID, commit and, the first time, digest). A Changed or
// Replaced task is not recorded, and one for other nodes only advances the accepted tip.
func (s *Session) Record(cur *taskfetch.Current, accept *state.AcceptedTask) (Decision, error) {
	if d, err := forNode(s.Policy, cur.Task); err != nil || d.Verdict == NotForNode {
		if aerr := s.Accept(accept); aerr != nil {
			return Decision{}, aerr
		}
		return d, err
	}
	// Most polls see a task already recorded: decide without the lock.
	if st, err := s.Store.Load(); err != nil {
		return Decision{}, err
	} else if d := decide(&st, cur.Task); accepted(&st, accept) && (rejection(d, cur) != nil || recorded(&st, cur)) {
		return d, nil
	}
	var d Decision
	_, err := s.Store.Update(func(st *state.RX) error {
		if accept != nil {
			st.AcceptedTask = accept
		}
		d = decide(st, cur.Task)
		if rejection(d, cur) != nil {
			return nil
		}
		st.SeeDigest(cur.Task.ID, cur.Task.SHA256)
		st.SeeTask(cur.Task.ID, cur.Commit)
		return nil
	})
	return d, err
}

// Accept keeps accept as the accepted tip (PROTOCOL#trust) when the read found no valid task
// there (withdrawn, invalid); nil keeps the one on record.
func (s *Session) Accept(accept *state.AcceptedTask) error {
	if st, err := s.Store.Load(); err != nil || accepted(&st, accept) {
		return err
	}
	_, err := s.Store.Update(func(st *state.RX) error {
		st.AcceptedTask = accept
		return nil
	})
	return err
}

func accepted(st *state.RX, accept *state.AcceptedTask) bool {
	return accept == nil || st.AcceptedTask != nil && *st.AcceptedTask == *accept
}

// rejection is the error of the verdicts that reject cur unrecorded (Changed, Replaced).
func rejection(d Decision, cur *taskfetch.Current) error {
	switch d.Verdict {
	case Changed:
		return &contentChangedError{TaskID: cur.Task.ID, FirstSHA256: d.FirstDigest, NowSHA256: cur.Task.SHA256, Commit: cur.Commit}
	case Replaced:
		return replacedRefusal(cur.Task.ID, cur.Commit)
	}
	return nil
}

func recorded(st *state.RX, cur *taskfetch.Current) bool {
	return st.LastSeenTaskID == cur.Task.ID && st.LastSeenTaskCommit == cur.Commit &&
		st.SeenTaskDigests[cur.Task.ID] == cur.Task.SHA256
}
