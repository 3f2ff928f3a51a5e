package capture

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"rfhandoff/captureplan"
	"rfhandoff/errlist"
	"rfhandoff/gitcli"
	"rfhandoff/localfile"
	"rfhandoff/mirror"
	"rfhandoff/state"
	"rfhandoff/task"
	"rfhandoff/taskfetch"
)

// LockFile is the capture lock in the state directory: two captures must
// never share a HackRF or a result branch.
const LockFile = "rx_capture.lock"

// lock takes the capture lock; a held lock is a *busyError.
func lock(stateDir string) (*localfile.Lock, error) {
	l, err := localfile.Acquire(filepath.Join(stateDir, LockFile))
	if le, ok := errors.AsType[*localfile.LockedError](err); ok {
		return nil, &busyError{Path: le.Path, PID: le.PID}
	}
	return l, err
}

// approved re-reads the current task and checks, all at once, that it may
// run; plan is what runs.
func approved(ctx context.Context, d Deps, stateDir, wantID string) (_ *taskfetch.Current, _ *mirror.Mirror, plan captureplan.Plan, err error) {
	p := d.Policy
	m, err := mirror.ForRX(ctx, d.Git, p, d.Logger)
	if err != nil {
		return nil, nil, plan, err
	}
	st, err := state.LoadRX(stateDir)
	if err != nil {
		return nil, nil, plan, err
	}
	// Read against the accepted tip (PROTOCOL#trust); only rx check and rx
	// watch move it.
	cur, _, err := taskfetch.FetchSince(ctx, m, p, st.AcceptedTask)
	if err != nil {
		return nil, nil, plan, fmt.Errorf("reading the current task from %s/%s: %w", p.Repo.Remote, p.Repo.TaskBranch, err)
	}
	t := cur.Task
	var why []string
	if wantID != "" && wantID != t.ID {
		why = append(why, fmt.Sprintf("TASK_ID %s was given, but the current task on %s is %s", wantID, p.Repo.TaskBranch, t.ID))
	}
	// A value outside this node's ranges is refused (PROTOCOL#task-file).
	plan, planErr := p.CapturePlanFor(t.Capture)
	if planErr != nil {
		for _, e := range errlist.Flatten(planErr) {
			why = append(why, e.Error())
		}
	}
	// A START_AT past or too close is refused, whatever was approved.
	if err := p.CheckStartAt(t.Capture, time.Now()); err != nil {
		why = append(why, err.Error())
	}
	switch st.ApprovalOf(t.ID, t.SHA256) {
	case state.NoneApproved, state.OtherApproved, state.NoRecord:
		why = append(why, fmt.Sprintf("task %s is not approved (last_approved_task_id is %q); run `rfhandoff rx approve` first", t.ID, st.LastApprovedTaskID))
	case state.OtherBytes:
		why = append(why, st.ChangedSinceApproval(t.ID, t.SHA256, cur.Commit))
	default:
		// The approval binds what runs, not only the task's bytes.
		if changes := st.Approval.PlanChanges(plan); planErr == nil && len(changes) > 0 {
			why = append(why, fmt.Sprintf("task %s was approved to run other capture parameters than the policy's now (%s); "+
				"run `rfhandoff rx approve` to see and approve what will run", t.ID, strings.Join(changes, "; ")))
		}
	}
	if st.Completed(t.ID) {
		why = append(why, fmt.Sprintf("task %s is already completed; a completed TASK_ID is never run again", t.ID))
	}
	if st.Replaced(t.ID) {
		why = append(why, fmt.Sprintf("task %s was replaced by another task before; a replaced TASK_ID is never run again", t.ID))
	}
	why = append(why, flagProblems(t)...)
	if len(why) > 0 {
		return nil, nil, plan, &refusedError{TaskID: t.ID, Reasons: why}
	}
	return cur, m, plan, nil
}

func flagProblems(t *task.Task) []string {
	var why []string
	if !t.HardwareAccess {
		why = append(why, "HARDWARE_ACCESS is NO; a capture opens the HackRF")
	}
	if !t.RFRX {
		why = append(why, "RF_RX is NO; a capture receives RF")
	}
	if t.RFTX {
		why = append(why, "RF_TX is YES; the RX side never runs a task that transmits")
	}
	if t.AllowPush != task.PushRXResultOnly {
		why = append(why, fmt.Sprintf("ALLOW_PUSH is %s; READY and COMPLETE can only be published with RX_RESULT_ONLY", t.AllowPush))
	}
	return why
}

// resultBranchExists refuses early when READY could never be published:
// the publisher never creates the result branch.
func resultBranchExists(ctx context.Context, m *mirror.Mirror, remote, branch, id string) error {
	ok, _, err := m.RemoteBranchExists(ctx, branch)
	if err != nil {
		return fmt.Errorf("asking %s for the result branch %s: %w", remote, branch, err)
	}
	if !ok {
		return refuse(id, fmt.Sprintf("the result branch %s does not exist on %s; rfhandoff never creates it (the MAIN side must)", branch, remote))
	}
	return nil
}

// captureDir creates <capture.dir>/<TASK_ID> (0700) once git is known to
// ignore capture.dir inside the checkout: raw IQ never enters git.
func captureDir(ctx context.Context, g *gitcli.Client, repo, base, id string) (string, error) {
	err := g.MakePrivateDir(ctx, repo, base, "capture directory")
	if ni, ok := errors.AsType[*gitcli.NotIgnoredError](err); ok {
		return "", refuse(id, ni.Error()+" (raw IQ must never enter git; a [capture] dir inside the state directory is ignored with it)")
	}
	if err != nil {
		return "", err
	}
	dir := filepath.Join(base, id)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("capture directory: %w", err)
	}
	return dir, nil
}
