package rxside

import (
	"context"
	"errors"
	"fmt"
	"time"

	"rfhandoff/config"
	"rfhandoff/gitcli"
	"rfhandoff/state"
	"rfhandoff/task"
	"rfhandoff/taskfetch"
)

// defaultResync is how often the poller resolves the tracking ref even when fetch reported
// nothing, to notice a ref moved by something else (a person's own `git fetch`).
const defaultResync = 5 * time.Minute

// Poller watches the task branch (PROTOCOL#subprocesses). Each poll is one narrow fetch; the
// tracking ref is resolved only when the fetch reported an update (or output it does not
// recognise), on the first poll, after a failure, and every defaultResync, so an idle poll
// costs one subprocess. The task is read only at a new commit, through its ID.
type Poller struct {
	Git    taskfetch.Repo // the RX mirror
	Policy config.Policy
	// Store holds the accepted tip each new commit is read against
	// (PROTOCOL#trust: no going back); nil reads without one.
	Store *state.RXStore
	Now   func() time.Time

	resolved    bool      // commit reflects the tracking ref
	lastResolve time.Time // when it was resolved
	commit      string    // the commit last read ("" before the first)
	cur         *taskfetch.Current
	accept      *state.AcceptedTask
	taskErr     error
}

type Poll struct {
	Commit  string
	Changed bool // Commit differs from the previous successful poll's
	// Task is the task at Commit, or nil with TaskErr saying why; that
	// depends only on the commit, so it is not retried until it moves.
	Task    *taskfetch.Current
	TaskErr error
	// Accept is Commit as the accepted tip when it passed the trust
	// checks, for the caller to keep.
	Accept *state.AcceptedTask
}

// rewoundError is a tracking ref moved, not by the narrow fetch, to a commit that does not
// contain the previous one (a forced fetch outside rfhandoff); refused like a force-push.
type rewoundError struct {
	Ref      string
	Old, New string
}

func (e *rewoundError) Error() string {
	return fmt.Sprintf("%s moved from %s to %s, which does not contain it: the task branch was rewritten "+
		"(and fetched outside rfhandoff); refused, not followed", e.Ref, e.Old, e.New)
}

func (p *Poller) now() time.Time {
	if p.Now != nil {
		return p.Now()
	}
	return time.Now()
}

// Poll fetches the task branch once and reports the task at its tip. On a force-push
// (*gitcli.ForcePushError) the poller forgets its commit, so that once a person has
// re-anchored (docs/OPERATIONS.md#rx-side) the next poll accepts the branch.
func (p *Poller) Poll(ctx context.Context) (Poll, error) { return p.poll(ctx, false) }

// Refresh is Poll that always resolves: the approval's last look before recording.
func (p *Poller) Refresh(ctx context.Context) (Poll, error) { return p.poll(ctx, true) }

func (p *Poller) poll(ctx context.Context, force bool) (Poll, error) {
	pol := p.Policy
	up, err := p.Git.FetchBranchUpdated(ctx, pol.Repo.Remote, pol.Repo.TaskBranch)
	if err != nil {
		var fp *gitcli.ForcePushError
		if errors.As(err, &fp) {
			p.commit, p.cur, p.accept, p.taskErr = "", nil, nil, nil
		}
		p.resolved = false
		return Poll{}, err
	}
	if p.resolved && !force && !up.MayHaveMoved() && p.now().Sub(p.lastResolve) < defaultResync {
		return p.unchanged(), nil
	}
	p.resolved = false // until the ref is resolved and read: a failure looks again next time
	ref := taskfetch.TrackingRef(pol, pol.Repo.TaskBranch)
	commit, err := p.Git.ResolveCommit(ctx, ref)
	if err != nil {
		return Poll{}, err
	}
	p.lastResolve = p.now()
	if commit == p.commit {
		p.resolved = true
		return p.unchanged(), nil
	}
	if p.commit != "" {
		ok, err := p.Git.IsAncestor(ctx, p.commit, commit)
		if err != nil {
			return Poll{}, err
		}
		if !ok {
			// Stay on the old commit and look again every poll: refused
			// until the ref contains it again or a restart re-anchors.
			return Poll{}, &rewoundError{Ref: ref, Old: p.commit, New: commit}
		}
	}
	since, err := p.since()
	if err != nil {
		return Poll{}, err
	}
	cur, accept, err := taskfetch.ReadSince(ctx, p.Git, pol, commit, since)
	if err != nil && !isTaskProblem(err) {
		return Poll{}, err // a git failure: read again next time
	}
	p.resolved, p.commit, p.cur, p.accept, p.taskErr = true, commit, cur, accept, err
	return Poll{Commit: commit, Changed: true, Task: cur, TaskErr: err, Accept: accept}, nil
}

func (p *Poller) since() (*state.AcceptedTask, error) {
	if p.Store == nil {
		return nil, nil
	}
	st, err := p.Store.Load()
	return st.AcceptedTask, err
}

func (p *Poller) unchanged() Poll {
	return Poll{Commit: p.commit, Task: p.cur, TaskErr: p.taskErr, Accept: p.accept}
}

// isTaskProblem reports errors that depend only on the commit's content.
func isTaskProblem(err error) bool {
	var inv *task.InvalidError
	var se *gitcli.SignatureError
	return errors.As(err, &inv) || errors.Is(err, taskfetch.ErrRefusedContent) || errors.Is(err, gitcli.ErrUnreadableFile) ||
		errors.As(err, &se) || errors.Is(err, gitcli.ErrNotFound)
}
