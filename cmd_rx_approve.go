package main

import (
	"errors"
	"fmt"
	"strings"

	"rfhandoff/exec"
	"rfhandoff/ident"
	"rfhandoff/prompt"
	"rfhandoff/rxside"
)

type RxApproveCmd struct {
	TaskID string `arg:"" optional:"" name:"TASK_ID" help:"The TASK_ID expected on the task branch (refused if the current task is another)."`
}

func (c *RxApproveCmd) Run(app *App) error {
	if c.TaskID != "" {
		if err := ident.CheckTaskID(c.TaskID); err != nil {
			return err
		}
	}
	env, err := rxEnv(app, "rx approve")
	if err != nil {
		return err
	}
	// Before anything touches state: no terminal, no approval.
	term, err := prompt.Open()
	if err != nil {
		if errors.Is(err, prompt.ErrNoTerminal) {
			if derr := env.Audit.RecordDecision(exec.Decision{Side: exec.SideRX, Kind: exec.DecisionApprovalRefused,
				Command: "rx approve", TaskID: c.TaskID, Reason: "no terminal"}); derr != nil {
				app.Logger.Warn("the refusal is not on record", "err", derr)
			}
			return fmt.Errorf("no terminal: nothing can be approved (%v); run rfhandoff rx approve at a terminal", err)
		}
		return err
	}
	defer term.Close()

	s, res, err := rxCheckOnce(app, env)
	if err != nil {
		return err
	}
	defer s.Close()
	cur := res.Current
	if c.TaskID != "" && cur.Task.ID != c.TaskID {
		return fmt.Errorf("the current task on %s/%s is %s, not %s: nothing approved",
			env.Policy.Repo.Remote, env.Policy.Repo.TaskBranch, cur.Task.ID, c.TaskID)
	}
	mx := rxside.NewManualExecutor(s.StateDir(), env.Policy)
	switch res.Decision.Verdict {
	case rxside.NotForNode:
		return fmt.Errorf("task %s is not for this node (RX_NODES = %s, [node] name = %q): nothing approved",
			cur.Task.ID, cur.Task.Nodes, env.Policy.Node.Name)
	case rxside.Completed:
		return rxside.CompletedRefusal(cur.Task.ID)
	case rxside.Approved:
		changes, err := s.PlanChanges(cur.Task)
		if err != nil {
			return err
		}
		if len(changes) > 0 {
			// What was approved is no longer what would run: ask again.
			fmt.Fprintf(app.Stdout, "task %s was approved with other capture parameters than the policy's now (%s): approve what will run\n",
				cur.Task.ID, strings.Join(changes, "; "))
			break
		}
		dir, err := s.EnsurePrepared(cur, mx)
		if err != nil {
			return err
		}
		fmt.Fprintf(app.Stdout, "task %s is already approved with these exact bytes; prepared in %s\n", cur.Task.ID, dir)
		return nil
	}

	out, err := s.Offer(app.Ctx, term, cur, s.Reread, mx)
	if err != nil {
		return err
	}
	switch out.Outcome {
	case rxside.OutcomeApproved:
		if out.Err != nil {
			return fmt.Errorf("task %s approved, but preparing the outbox failed (run rfhandoff rx approve again to retry): %w", cur.Task.ID, out.Err)
		}
		fmt.Fprintf(app.Stdout, "approved task %s (sha256 %s); prepared in %s\n", cur.Task.ID, out.Approval.TaskSHA256, out.Outbox)
		return nil
	case rxside.OutcomeRefused:
		return out.Err
	case rxside.OutcomeDeferred:
		return fmt.Errorf("task %s deferred: nothing approved", cur.Task.ID)
	case rxside.OutcomeWrongPhrase:
		return fmt.Errorf("wrong phrase for task %s: nothing approved", cur.Task.ID)
	default:
		return fmt.Errorf("stopped: nothing approved")
	}
}
