package main

import (
	"errors"
	"fmt"

	"rfhandoff/taskfetch"
)

// RxCheckCmd is the one-shot check for cron (PROTOCOL#command-line): fetch the task
// branch, read and validate the task, record it as seen, print a summary.
type RxCheckCmd struct{}

// Run exits 0 when there is nothing new to approve (already approved or
// completed, or no task file on the branch yet: a one-line note, so that
// cron does not mail an error until the first task), 10 when a valid task awaits approval (deferred ones
// included), 1 on any error: fetch, force-push, an invalid task (every
// reason listed), EXPECTED_HEAD not an ancestor, content changed under the
// same TASK_ID, a watcher already running.
func (c *RxCheckCmd) Run(app *App) error {
	env, err := rxEnv(app, "rx check")
	if err != nil {
		return err
	}
	s, res, err := rxCheckOnce(app, env)
	if errors.Is(err, taskfetch.ErrNoTask) {
		fmt.Fprintf(app.Stdout, "rx check: %v; nothing to approve\n", err)
		return nil
	}
	if err != nil {
		return err
	}
	defer s.Close()
	if res.Decision.Verdict.AwaitsApproval() {
		s.NotifyApprovalNeeded(res.Current)
		return exitCode(10, nil)
	}
	return nil
}
