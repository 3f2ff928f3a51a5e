package rxside

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"rfhandoff/captureplan"
	"rfhandoff/exec"
	"rfhandoff/localfile"
	"rfhandoff/prompt"
	"rfhandoff/state"
	"rfhandoff/task"
	"rfhandoff/taskfetch"
)

// Prompter asks the operator; *prompt.Terminal (the controlling terminal only) is the real one.
type Prompter interface {
	Approve(ctx context.Context, t prompt.Task) (prompt.Choice, error)
	Phrase(ctx context.Context, phrase string, deadline time.Time) (bool, error)
}

// Outcome is how an offer ended.
type Outcome int

const (
	OutcomeApproved    Outcome = iota + 1 // recorded, outbox prepared
	OutcomeDeferred                       // [D]: deferred_task_id recorded
	OutcomeStopped                        // [S], end of input or cancellation
	OutcomeWrongPhrase                    // [A] but not the exact phrase: nothing approved
	OutcomeRefused                        // the re-read refused it (changed, completed, unreadable)
)

type Offered struct {
	Outcome  Outcome
	Approval *state.Approval // when approved
	Outbox   string          // the prepared outbox directory, when approved
	Err      error           // why it was refused, or what failed after the approval (the outbox)
}

// Offer shows the approval prompt for cur and carries out the answer. For
// [A] it asks for the phrase the level requires, re-reads the task through
// reread and records the approval only when the bytes are the ones shown
// (SHA-256), the ID is not completed and its content never changed; then
// the ManualExecutor prepares the outbox.
func (s *Session) Offer(ctx context.Context, p Prompter, cur *taskfetch.Current,
	reread func(context.Context) (*taskfetch.Current, error), mx *ManualExecutor) (Offered, error) {
	t := cur.Task
	// Each decision on record (PROTOCOL#audit-log): the task shown before it is
	// shown, the approval before it is recorded.
	if err := s.decide(exec.DecisionTaskShown, t, cur.Commit, ""); err != nil {
		return Offered{}, err
	}
	stopped := func(why string) (Offered, error) {
		if err := s.decide(exec.DecisionTaskStopped, t, cur.Commit, why); err != nil {
			s.log().Warn("stopped at the approval prompt", "task_id", t.ID, "err", err)
		}
		return Offered{Outcome: OutcomeStopped}, nil
	}
	refused := func(why error) (Offered, error) {
		if err := s.decide(exec.DecisionApprovalRefused, t, cur.Commit, why.Error()); err != nil {
			s.log().Warn("approval refused", "task_id", t.ID, "err", err)
		}
		return Offered{Outcome: OutcomeRefused, Err: why}, nil
	}
	plan, err := s.Policy.CapturePlanFor(t.Capture)
	if err != nil {
		return refused(fmt.Errorf("task %s refused: %w; nothing approved", t.ID, err))
	}
	if err := s.startRefusal(t); err != nil {
		return refused(err)
	}
	choice, err := p.Approve(ctx, s.promptTask(cur, plan))
	if err != nil {
		if ctx.Err() != nil {
			return stopped("interrupted at the prompt")
		}
		return Offered{}, err
	}
	switch choice {
	case prompt.ChoiceStop:
		return stopped("[S] or end of input")
	case prompt.ChoiceDefer:
		if err := s.decide(exec.DecisionTaskDeferred, t, cur.Commit, ""); err != nil {
			return Offered{}, err
		}
		_, err := s.Store.Update(func(st *state.RX) error {
			st.DeferredTaskID = t.ID
			return nil
		})
		if err != nil {
			return Offered{}, err
		}
		return Offered{Outcome: OutcomeDeferred}, nil
	case prompt.ChoiceApprove:
	default:
		return Offered{}, fmt.Errorf("approval prompt returned %v", choice)
	}

	phrase, needed := t.ApprovalPhrase()
	if needed {
		ok, err := p.Phrase(ctx, phrase, time.Time{})
		if err != nil {
			if ctx.Err() != nil {
				return stopped("interrupted at the phrase")
			}
			return Offered{}, err
		}
		if !ok {
			if err := s.decide(exec.DecisionApprovalRefused, t, cur.Commit, "wrong phrase"); err != nil {
				return Offered{}, err
			}
			return Offered{Outcome: OutcomeWrongPhrase}, nil
		}
	}

	// Bind the approval to the bytes shown: read the branch once more.
	now, err := reread(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return stopped("interrupted while re-reading the task")
		}
		return refused(fmt.Errorf("re-reading the task before recording the approval: %w; nothing approved", err))
	}
	if now.Task.ID != t.ID {
		return refused(fmt.Errorf("the task branch now holds task %s, not %s: nothing approved", now.Task.ID, t.ID))
	}
	if now.Task.SHA256 != t.SHA256 {
		return refused(&contentChangedError{TaskID: t.ID, FirstSHA256: t.SHA256,
			NowSHA256: now.Task.SHA256, Commit: now.Commit, DuringPrompt: true})
	}

	if shown, got := signerOf(cur), signerOf(now); (shown == nil) != (got == nil) || shown != nil && *shown != *got {
		return refused(fmt.Errorf("task %s is now signed by %s, not by %s as shown: nothing approved",
			t.ID, describeSigner(got), describeSigner(shown)))
	}
	// The prompt may have stood open past the lead a START_AT needs.
	if err := s.startRefusal(t); err != nil {
		return refused(fmt.Errorf("at the answer: %w", err))
	}
	a := &state.Approval{TaskID: t.ID, TaskSHA256: t.SHA256, Commit: now.Commit, ApprovedAt: s.now().UTC(), Signer: signerOf(now), Capture: &plan}
	if err := s.decide(exec.DecisionTaskApproved, t, now.Commit, ""); err != nil {
		return Offered{}, fmt.Errorf("%w: nothing approved", err)
	}
	var refusal error // the state's judgement, told apart from a failed update
	_, err = s.Store.Update(func(st *state.RX) error {
		d := decide(st, now.Task)
		refusal = rejection(d, now)
		if d.Verdict == Completed {
			refusal = CompletedRefusal(t.ID)
		}
		if refusal != nil {
			return refusal
		}
		st.SeeDigest(t.ID, t.SHA256)
		st.SeeTask(t.ID, now.Commit)
		st.Approval = a
		st.LastApprovedTaskID = t.ID // only now: the approval succeeded
		if st.DeferredTaskID == t.ID {
			st.DeferredTaskID = ""
		}
		return nil
	})
	switch {
	case refusal != nil:
		return refused(refusal)
	case err != nil:
		return Offered{}, err
	}
	dir, err := mx.Prepare(now, *a, phrase)
	return Offered{Outcome: OutcomeApproved, Approval: a, Outbox: dir, Err: err}, nil
}

// promptTask is what the approval prompt shows (it sanitizes every field): the task and, for a
// task that captures, the effective capture plan with the free space where it writes.
func (s *Session) promptTask(cur *taskfetch.Current, plan captureplan.Plan) prompt.Task {
	t := cur.Task
	pt := prompt.Task{
		ID: t.ID, Title: t.Title,
		DeclaredLevel: t.DeclaredLevel.String(), DerivedLevel: t.DerivedLevel.String(),
		EffectiveLevel: t.EffectiveLevel.String(), Body: t.Body,
		Watcher: s.role == RoleWatcher,
	}
	if t.HardwareAccess && t.RFRX && !t.RFTX {
		free, err := localfile.FreeBytes(plan.Dir)
		if err != nil {
			free = -1
		}
		pt.Capture = plan.Describe(free, err)
		if plan.Sync != nil {
			pt.Capture = append(pt.Capture, fmt.Sprintf("Lead:          %s from this prompt; approve, and start rx capture, at least sync.min_lead_s (%d s) before it",
				plan.Sync.StartAt.Sub(s.now()).Round(time.Second), s.Policy.Sync.MinLeadS))
		}
	}
	if cur.Signer != nil {
		pt.Signer = cur.Signer.String()
	}
	return pt
}

// signerOf is the approval record's copy of cur's signer (nil when none was required).
func signerOf(cur *taskfetch.Current) *state.Signer {
	if cur.Signer == nil {
		return nil
	}
	return &state.Signer{Principal: cur.Signer.Principal, Fingerprint: cur.Signer.Fingerprint}
}

// EnsurePrepared prepares the outbox of a task approved for these exact bytes again when its
// TASK.md is missing (the preparation failed after the approval was recorded).
func (s *Session) EnsurePrepared(cur *taskfetch.Current, mx *ManualExecutor) (string, error) {
	st, err := s.Store.Load()
	if err != nil {
		return "", err
	}
	if st.ApprovalOf(cur.Task.ID, cur.Task.SHA256) != state.ApprovedBytes {
		return "", fmt.Errorf("task %s has no approval for these bytes (sha256 %s)", cur.Task.ID, cur.Task.SHA256)
	}
	dir := mx.TaskDir(cur.Task.ID)
	if _, err := os.Stat(filepath.Join(dir, OutboxTaskFile)); err == nil {
		return dir, nil
	}
	phrase, _ := cur.Task.ApprovalPhrase()
	return mx.Prepare(cur, *st.Approval, phrase)
}

// PlanChanges lists how t's capture plan under this policy differs from the one the approval
// bound (nil: the same, or nothing approved); such a task is offered again.
func (s *Session) PlanChanges(t *task.Task) ([]string, error) {
	st, err := s.Store.Load()
	if err != nil {
		return nil, err
	}
	plan, err := s.Policy.CapturePlanFor(t.Capture)
	if err != nil {
		return nil, err
	}
	return st.Approval.PlanChanges(plan), nil
}

func describeSigner(s *state.Signer) string {
	if s == nil {
		return "nobody (no signature required)"
	}
	return s.Principal + " " + s.Fingerprint
}
