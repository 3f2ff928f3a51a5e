package main

import (
	"errors"
	"fmt"

	"rfhandoff/capture"
	"rfhandoff/ident"
	"rfhandoff/state"
)

// RxMarkCompletedCmd records a TASK_ID as completed (PROTOCOL#command-line).
type RxMarkCompletedCmd struct {
	TaskID string `arg:"" name:"TASK_ID" help:"The completed task's ID."`
}

// Run takes the state lock only, so it works beside a running watcher.
func (c *RxMarkCompletedCmd) Run(app *App) error {
	if err := ident.CheckTaskID(c.TaskID); err != nil {
		return err
	}
	env, err := rxEnv(app, "rx mark-completed")
	if err != nil {
		return err
	}
	dir := env.Policy.StatePath()
	if err := env.Git.MakePrivateDir(app.Ctx, env.Policy.Repo.Path, dir, "state directory"); err != nil {
		return err
	}
	store := &state.RXStore{Dir: dir}
	if _, err := store.Update(func(s *state.RX) error {
		s.MarkCompleted(c.TaskID)
		return nil
	}); err != nil {
		return err
	}
	fmt.Fprintf(app.Stdout, "task %s marked completed: it will never be offered again\n", c.TaskID)
	// The person has decided about a capture whose COMPLETE could not be
	// published: its record goes.
	dropped, err := capture.Forget(dir, c.TaskID)
	switch {
	case errors.Is(err, capture.ErrRunning):
		fmt.Fprintf(app.Stdout, "an rx capture is running; capture_in_progress is left to it\n")
	case err != nil:
		return err
	case dropped != nil:
		ready := "its READY was published"
		if !dropped.ReadyPublished {
			ready = "its READY may have been published"
		}
		fmt.Fprintf(app.Stdout, "dropped the record of its capture in progress (data %s): %s and no COMPLETE ever was\n",
			dropped.DataPath, ready)
	}
	return nil
}
