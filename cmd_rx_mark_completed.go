package main

import (
	"fmt"

	"rfhandoff/rxwatch"
	"rfhandoff/state"
)

// RxMarkCompletedCmd records a TASK_ID as completed (SPEC §13).
type RxMarkCompletedCmd struct {
	TaskID string `arg:"" name:"TASK_ID" help:"The completed task's ID."`
}

// Run sets last_completed_task_id and adds the ID to the completed list,
// under the state lock only, so it works beside a running watcher (which
// then stops offering the task).
func (c *RxMarkCompletedCmd) Run(app *App) error {
	if err := rxwatch.ValidTaskID(c.TaskID); err != nil {
		return err
	}
	env, err := rxEnv(app)
	if err != nil {
		return err
	}
	dir, err := rxwatch.Preflight(app.Ctx, env.Git, env.Policy)
	if err != nil {
		return err
	}
	store := &rxwatch.Store{Dir: dir}
	if _, err := store.Update(func(s *state.RX) error {
		s.MarkCompleted(c.TaskID)
		return nil
	}); err != nil {
		return err
	}
	fmt.Fprintf(app.Stdout, "task %s marked completed: it will never be offered again\n", c.TaskID)
	return nil
}
