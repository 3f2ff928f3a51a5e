package publish

import (
	"context"
	"errors"
	"path/filepath"

	"rfhandoff/gitcli"
	"rfhandoff/mirror"
	"rfhandoff/result"
	"rfhandoff/state"
	"rfhandoff/task"
	"rfhandoff/taskfetch"
)

// checked is what the seven checks established.
type checked struct {
	cur    *taskfetch.Current
	res    *result.Result
	branch string
	url    string         // the remote's URL, absolute (the RX mirror's)
	clone  *gitcli.Client // check 6's temporary clone of the result branch: the first attempt's
}

// check runs the seven checks of PROTOCOL §6 in order and returns the first
// failure as a *CheckError. Nothing is written to the remote or the
// checkout; the only remote traffic is the narrow fetch of the task branch
// into the RX mirror and, for check 6, the temporary clone of the result
// branch that the first attempt then builds on. That clone is started as
// soon as the remote's URL is known, beside checks 1 to 5, and looked at
// only at check 6; a publish refused before removes it unused (it read the
// result branch, nothing more). cleanup removes that clone; it is never
// nil and must be called whatever check returns.
func check(ctx context.Context, d Deps, data []byte) (c *checked, cleanup func(), err error) {
	cleanup = func() {}
	c, err = checkSteps(ctx, d, data, &cleanup)
	return c, cleanup, err
}

func checkSteps(ctx context.Context, d Deps, data []byte, cleanup *func()) (*checked, error) {
	p := d.Policy
	// The checkout's HEAD, for check 5, is read beside checks 1 to 4 (a
	// local read that changes nothing); it is looked at only at check 5.
	headOf := d.Git.HeadLater(ctx)
	defer headOf() // never outlives the checks

	// 1. The current task, freshly fetched, and the result agree on TASK_ID.
	m, err := mirror.Open(ctx, d.Git, p.Repo.Remote, filepath.Join(d.StateDir, mirror.RXName), d.Logger)
	if err != nil {
		return nil, refuse(StepTaskID, "opening the RX mirror: %w", err)
	}
	// Check 6's clone, beside checks 1 to 5, when check 6 can pass at all.
	branch := d.ResultBranch
	if branch == "" {
		branch = p.Repo.ResultBranch
	}
	var early *earlyClone
	if gitcli.ValidBranch(branch) == nil && branch != p.Repo.TaskBranch {
		early = startClone(ctx, d, m.URL, branch)
		*cleanup = early.remove
	}
	// Read against the accepted tip (PROTOCOL §17). A state that cannot
	// be read gives none here; check 4 then refuses, naming it.
	var since *state.AcceptedTask
	if st, err := state.LoadRX(d.StateDir); err == nil {
		since = st.AcceptedTask
	}
	cur, _, err := taskfetch.FetchSince(ctx, m, p, since)
	if err != nil {
		return nil, refuse(StepTaskID, "reading the current task from %s/%s: %w", p.Repo.Remote, p.Repo.TaskBranch, err)
	}
	id := cur.Task.ID
	ids, err := peekString(data, "task_id")
	if err != nil {
		return nil, refuse(StepTaskID, "cannot read task_id from the result (%v); the current task is %s", err, id)
	}
	for _, got := range ids {
		if got != id {
			return nil, refuse(StepTaskID, "result is for %q, the current task is %s", got, id)
		}
	}

	// 2 and 3: what the task allows.
	if cur.Task.AllowPush != task.PushRXResultOnly {
		return nil, refuse(StepAllowPush, "task %s has ALLOW_PUSH = %s; publishing needs RX_RESULT_ONLY", id, cur.Task.AllowPush)
	}
	if cur.Task.RFTX {
		return nil, refuse(StepRFTX, "task %s has RF_TX = YES; results are published only for tasks with RF_TX = NO", id)
	}

	// 4. Approved, and approved for exactly these bytes (PROTOCOL §3).
	if err := checkApproval(d.StateDir, cur); err != nil {
		return nil, err
	}

	// 5. The result describes this checkout.
	heads, err := peekString(data, "source_head")
	if err != nil {
		return nil, refuse(StepSourceHead, "cannot read source_head from the result: %v", err)
	}
	head, err := headOf()
	if err != nil {
		return nil, refuse(StepSourceHead, "reading the RX checkout's HEAD: %w", err)
	}
	for _, got := range heads {
		if got != head {
			return nil, refuse(StepSourceHead, "source_head is %q, the RX checkout's HEAD is %s", got, head)
		}
	}

	// 6. The result branch exists; it is never created and never the
	// task branch.
	if err := gitcli.ValidBranch(branch); err != nil {
		return nil, refuseErr(StepResultBranch, err)
	}
	if branch == p.Repo.TaskBranch {
		return nil, refuse(StepResultBranch, "result branch %s is the task branch; results are never pushed to the task branch", branch)
	}
	// The clone answers "exists" (a clone of a missing branch fails); only
	// a failed clone asks the remote, to tell a missing branch from a
	// clone that failed for another reason.
	clone, err := early.wait()
	if err != nil {
		exists, _, lerr := d.Git.RemoteBranchExists(ctx, p.Repo.Remote, branch)
		switch {
		case lerr != nil:
			return nil, refuse(StepResultBranch, "asking %s for branch %s: %w", p.Repo.Remote, branch, lerr)
		case !exists:
			return nil, refuse(StepResultBranch, "remote branch %s/%s does not exist; rfhandoff never creates it (the MAIN side must)", p.Repo.Remote, branch)
		}
		return nil, err
	}

	// 7. The strict schema, with the current task's ID and, for a task
	// naming its receivers, this node's name (PROTOCOL §23).
	want, err := cur.Task.Node(p.Node.Name)
	if err != nil {
		return nil, refuseErr(StepSchema, err)
	}
	res, err := result.Decode(data, result.Options{MaxBytes: p.Limits.MaxResultBytes, TaskID: id,
		PlannedDurationS: int64(p.Limits.PlannedDurationS), Node: want})
	if err != nil {
		return nil, refuseErr(StepSchema, err)
	}
	return &checked{cur: cur, res: res, branch: branch, url: m.URL, clone: clone}, nil
}

// checkApproval is check 4: last_approved_task_id names the task and the
// stored approval's digest is that of the task file read just now.
func checkApproval(stateDir string, cur *taskfetch.Current) error {
	id := cur.Task.ID
	st, err := state.LoadRX(stateDir)
	if err != nil {
		var ce *state.CorruptError
		if errors.As(err, &ce) {
			return refuseErr(StepApproved, err)
		}
		return refuse(StepApproved, "reading the RX state: %w", err)
	}
	switch {
	case st.LastApprovedTaskID == "":
		return refuse(StepApproved, "no task has been approved (last_approved_task_id is empty), result is for %s", id)
	case st.LastApprovedTaskID != id:
		return refuse(StepApproved, "last_approved_task_id is %s, result is for %s", st.LastApprovedTaskID, id)
	case st.Approval == nil || st.Approval.TaskID != id:
		return refuse(StepApproved, "last_approved_task_id is %s but no approval record for it is stored", id)
	case st.Approval.TaskSHA256 != cur.Task.SHA256:
		return refuse(StepApproved, "task %s changed since it was approved (approved SHA-256 %s, now %s at commit %s); a revised task needs a new TASK_ID and a new approval",
			id, st.Approval.TaskSHA256, cur.Task.SHA256, cur.Commit)
	case st.Replaced(id):
		return refuse(StepApproved, "task %s was replaced by another task before; a replaced TASK_ID is never published for again", id)
	}
	return nil
}

// earlyClone is check 6's clone of the result branch, made beside checks 1
// to 5 (freshClone in its own goroutine).
type earlyClone struct {
	cancel context.CancelFunc
	done   chan struct{}
	clone  *gitcli.Client
	rm     func()
	err    error
}

func startClone(ctx context.Context, d Deps, url, branch string) *earlyClone {
	ctx, cancel := context.WithCancel(ctx)
	e := &earlyClone{cancel: cancel, done: make(chan struct{}), rm: func() {}}
	go func() {
		defer close(e.done)
		e.clone, e.rm, e.err = freshClone(ctx, d, url, branch)
	}()
	return e
}

// wait is the clone once it is made.
func (e *earlyClone) wait() (*gitcli.Client, error) {
	<-e.done
	return e.clone, e.err
}

// remove stops a clone still being made (a publish refused before check 6
// does not wait for it), waits for it to end and removes it.
func (e *earlyClone) remove() {
	e.cancel()
	<-e.done
	e.rm()
}
