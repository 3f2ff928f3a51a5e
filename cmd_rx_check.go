package main

import (
	"errors"
	"fmt"

	"rfhandoff/taskfetch"
)

// RxCheckCmd is the one-shot check for cron (PROTOCOL#command-line).
type RxCheckCmd struct{}

// Run says no task file yet in a note, not an error, so that cron mails
// nothing until the first task.
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
