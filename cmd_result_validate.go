package main

import (
	"fmt"

	"rfhandoff/result"
)

// ResultValidateCmd checks an RX_RESULT.json offline (PROTOCOL §5, §13).
type ResultValidateCmd struct {
	File   string `arg:"" type:"path" help:"The result file (RX_RESULT.json)."`
	TaskID string `name:"task-id" placeholder:"ID" help:"Also require task_id to be this ID."`
}

// Run decodes the file strictly, reading no more than the policy's result
// size limit. Exit 0 with a one-line summary when valid; otherwise the
// error lists every reason (Main prints it to stderr and exits 1).
func (c *ResultValidateCmd) Run(app *App) error {
	r, data, err := result.ReadFile(c.File, result.Options{
		MaxBytes: app.Policy.Limits.MaxResultBytes,
		TaskID:   c.TaskID,
		// As publish and tx watch would: a result must carry the policy's
		// planned duration.
		PlannedDurationS: int64(app.Policy.Limits.PlannedDurationS),
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(app.Stdout, "valid result: task %s, state %s, sha256 %s\n", r.TaskID, r.State, result.SHA256(data))
	return nil
}
