package publish

import (
	"cmp"
	"context"
	"errors"

	"rfhandoff/captureplan"
	"rfhandoff/gitcli"
	"rfhandoff/mirror"
	"rfhandoff/result"
	"rfhandoff/state"
	"rfhandoff/task"
	"rfhandoff/taskfetch"
)

// checked is what the seven checks established.
type checked struct {
	taskCommit string // "" for the COMPLETE of a capture whose task branch moved on (movedOn)
	res        *result.Result
	branch     string
	url        string         // the remote's URL, absolute (the RX mirror's)
	clone      *gitcli.Client // check 6's temporary clone of the result branch: the first attempt's
}

// prepared is the git side of the checks (the task read, HEAD, check 6's clone), started at
// once but each looked at only at its check, so the checks are still decided in order. close
// must always be called: it waits for all of it and removes the clone.
type prepared struct {
	branch string
	headOf func() (string, error)
	// Set by the task read before taskDone is closed.
	taskDone chan struct{}
	cur      *taskfetch.Current
	url      string         // the remote's URL, absolute (the RX mirror's)
	mirror   *mirror.Mirror // set with url: every other call to the remote goes through it
	early    *earlyClone    // nil when check 6 cannot pass or the mirror did not open
	taskErr  error          // check 1's refusal
}

func prepare(ctx context.Context, d Deps) *prepared {
	p := d.Policy
	pr := &prepared{branch: cmp.Or(d.ResultBranch, p.Repo.ResultBranch), headOf: d.Git.HeadLater(ctx),
		taskDone: make(chan struct{})}
	go func() {
		defer close(pr.taskDone)
		m, err := mirror.ForRX(ctx, d.Git, p, d.Logger)
		if err != nil {
			pr.taskErr = refuse(StepTaskID, "opening the RX mirror: %w", err)
			return
		}
		pr.url, pr.mirror = m.URL, m
		if gitcli.ValidBranch(pr.branch) == nil && pr.branch != p.Repo.TaskBranch {
			pr.early = startClone(ctx, d, m.URL, pr.branch)
		}
		// Read against the accepted tip (PROTOCOL#trust). A state that cannot
		// be read gives none here; check 4 then refuses, naming it.
		var since *state.AcceptedTask
		if st, err := state.LoadRX(d.StateDir); err == nil {
			since = st.AcceptedTask
		}
		cur, _, err := taskfetch.FetchSince(ctx, m, p, since)
		if err != nil {
			pr.taskErr = refuse(StepTaskID, "reading the current task from %s/%s: %w", p.Repo.Remote, p.Repo.TaskBranch, err)
			return
		}
		pr.cur = cur
	}()
	return pr
}

func (pr *prepared) close() {
	_, _ = pr.headOf()
	<-pr.taskDone
	if pr.early != nil {
		pr.early.remove()
	}
}

// check runs the seven checks of PROTOCOL#publishing in order; it writes nothing.
func check(ctx context.Context, d Deps, pr *prepared, data []byte) (*checked, error) {
	p := d.Policy

	// 1. The current task, freshly fetched, and the result agree on TASK_ID
	// — or the result is the COMPLETE of this node's running capture,
	// whose READY was published while its task was current (PROTOCOL#publishing).
	<-pr.taskDone
	// Without the mirror (it did not open) nothing can pass check 6: check
	// 1 refuses, naming it, whatever the result is.
	if rec := movedOn(d, pr.cur, data); rec != nil && pr.mirror != nil {
		d.logger().Warn("the task branch moved on during the capture: publishing its COMPLETE all the same (PROTOCOL#publishing)",
			"task_id", rec.TaskID, "ready_commit", rec.ReadyCommit)
		return checkRest(ctx, d, pr, data, rec.TaskID, rec.Node, "", withSchedule(result.Options{PlannedDurationS: rec.PlannedDurationS}, recordSchedule(rec)))
	}
	if pr.taskErr != nil {
		return nil, pr.taskErr
	}
	cur := pr.cur
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

	// 4. Approved, and approved for exactly these bytes (PROTOCOL#task-file).
	if err := checkApproval(d.StateDir, cur); err != nil {
		return nil, err
	}
	want, err := cur.Task.Node(p.Node.Name)
	if err != nil {
		return nil, refuseErr(StepSchema, err)
	}
	// The task's CAPTURE_DURATION_S where it has one (PROTOCOL#task-file).
	planned := result.Options{PlannedDurationS: cur.Task.Capture.DurationS, PlannedByTask: true}
	if planned.PlannedDurationS == 0 {
		planned = result.Options{PlannedDurationS: int64(p.Limits.PlannedDurationS)}
	}
	return checkRest(ctx, d, pr, data, id, want, cur.Commit, withSchedule(planned, cur.Task.Capture))
}

// checkRest is checks 5 to 7 for a result of task id (node: this node's
// name for a task with RX_NODES, else "").
func checkRest(ctx context.Context, d Deps, pr *prepared, data []byte, id, node, taskCommit string, planned result.Options) (*checked, error) {
	p := d.Policy

	// 5. The result describes this checkout.
	heads, err := peekString(data, "source_head")
	if err != nil {
		return nil, refuse(StepSourceHead, "cannot read source_head from the result: %v", err)
	}
	head, err := pr.headOf()
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
	branch := pr.branch
	if err := gitcli.ValidBranch(branch); err != nil {
		return nil, refuseErr(StepResultBranch, err)
	}
	if branch == p.Repo.TaskBranch {
		return nil, refuse(StepResultBranch, "result branch %s is the task branch; results are never pushed to the task branch", branch)
	}
	// The clone answers "exists"; only a failed one asks the remote, to
	// tell a missing branch from a clone that failed for another reason.
	clone, err := pr.early.wait()
	if err != nil {
		exists, _, lerr := pr.mirror.RemoteBranchExists(ctx, branch)
		switch {
		case lerr != nil:
			return nil, refuse(StepResultBranch, "asking %s for branch %s: %w", p.Repo.Remote, branch, lerr)
		case !exists:
			return nil, refuse(StepResultBranch, "remote branch %s/%s does not exist; rfhandoff never creates it (the MAIN side must)", p.Repo.Remote, branch)
		}
		return nil, err
	}

	// 7. The strict schema, with the task's ID and, for a task naming its
	// receivers, this node's name (PROTOCOL#several-nodes).
	planned.MaxBytes, planned.TaskID, planned.Node = p.Limits.MaxResultBytes, id, node
	res, err := result.Decode(data, planned)
	if err != nil {
		return nil, refuseErr(StepSchema, err)
	}
	return &checked{taskCommit: taskCommit, res: res, branch: branch, url: pr.url, clone: clone}, nil
}

// movedOn returns the capture_in_progress record when data is its
// COMPLETE (same pid and start) and the task branch no longer holds its
// task: checks 1 to 4 passed for its READY. Anything else is nil.
func movedOn(d Deps, cur *taskfetch.Current, data []byte) *state.CaptureInProgress {
	st, err := state.LoadRX(d.StateDir)
	if err != nil {
		return nil
	}
	rec := st.CaptureInProgress
	if rec == nil || !rec.ReadyPublished || (cur != nil && cur.Task.ID == rec.TaskID) {
		return nil
	}
	r, err := result.Decode(data, withSchedule(result.Options{MaxBytes: d.Policy.Limits.MaxResultBytes, TaskID: rec.TaskID,
		PlannedDurationS: rec.PlannedDurationS, Node: rec.Node}, recordSchedule(rec)))
	if err != nil || r.State != result.StateComplete || r.CapturePID != int64(rec.CapturePID) || !r.CaptureStartedAt.Equal(rec.StartedAt) {
		return nil
	}
	return rec
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
	switch st.ApprovalOf(id, cur.Task.SHA256) {
	case state.NoneApproved:
		return refuse(StepApproved, "no task has been approved (last_approved_task_id is empty), result is for %s", id)
	case state.OtherApproved:
		return refuse(StepApproved, "last_approved_task_id is %s, result is for %s", st.LastApprovedTaskID, id)
	case state.NoRecord:
		return refuse(StepApproved, "last_approved_task_id is %s but no approval record for it is stored", id)
	case state.OtherBytes:
		return refuseErr(StepApproved, errors.New(st.ChangedSinceApproval(id, cur.Task.SHA256, cur.Commit)))
	}
	if st.Replaced(id) {
		return refuse(StepApproved, "task %s was replaced by another task before; a replaced TASK_ID is never published for again", id)
	}
	return nil
}

// earlyClone is check 6's clone, made beside checks 1 to 5.
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

func (e *earlyClone) wait() (*gitcli.Client, error) {
	<-e.done
	return e.clone, e.err
}

// remove cancels a clone still being made, waits for it and removes it.
func (e *earlyClone) remove() {
	e.cancel()
	<-e.done
	e.rm()
}

// withSchedule makes o require a scheduled result exactly when t has START_AT.
func withSchedule(o result.Options, t captureplan.Task) result.Options {
	if !t.StartAt.IsZero() {
		o.SyncMode, o.StartAt = result.SyncMode(t.SyncMode), t.StartAt
	}
	return o
}

// recordSchedule is the schedule of the plan a capture_in_progress ran.
func recordSchedule(rec *state.CaptureInProgress) captureplan.Task {
	if rec.Capture == nil || rec.Capture.Sync == nil {
		return captureplan.Task{}
	}
	return captureplan.Task{StartAt: rec.Capture.Sync.StartAt, SyncMode: rec.Capture.Sync.Mode}
}
