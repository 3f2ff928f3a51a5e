package main

import (
	"fmt"

	"rfhandoff/node"
	"rfhandoff/result"
)

// ResultValidateCmd checks an RX_RESULT.json offline (PROTOCOL#result, PROTOCOL#command-line).
type ResultValidateCmd struct {
	File   string `arg:"" type:"path" help:"The result file (RX_RESULT.json)."`
	TaskID string `name:"task-id" placeholder:"ID" help:"Also require task_id to be this ID."`
	Node   string `name:"node" placeholder:"NAME" help:"Require a node result (schema_version 2) from this node (PROTOCOL#several-nodes); without it both versions are accepted."`
	// CAPTURE_DURATION_S stands for the policy's planned duration (PROTOCOL#task-file).
	DurationS int64 `name:"duration-s" placeholder:"SECONDS" help:"The task's CAPTURE_DURATION_S, when it has one: planned_duration_s must equal it (default: the policy's limits.planned_duration_s)."`
}

func (c *ResultValidateCmd) Run(app *App) error {
	want := result.AnyNode
	if c.Node != "" {
		if why := node.Check(c.Node); why != "" {
			return exitCode(2, fmt.Errorf("--node: %s", why))
		}
		want = c.Node
	}
	opts := result.Options{
		MaxBytes: app.Policy.Limits.MaxResultBytes,
		TaskID:   c.TaskID,
		// As publish and tx watch would: the task's planned duration, else the policy's.
		PlannedDurationS: int64(app.Policy.Limits.PlannedDurationS),
		Node:             want,
		SyncMode:         result.AnySync, // scheduled (version 3) results too
	}
	if c.DurationS != 0 {
		if c.DurationS < 0 {
			return exitCode(2, fmt.Errorf("--duration-s %d: must be positive", c.DurationS))
		}
		opts.PlannedDurationS, opts.PlannedByTask = c.DurationS, true
	}
	r, data, err := result.ReadFile(c.File, opts)
	if err != nil {
		return err
	}
	from := ""
	if _, nf, err := result.DecodeNode(data, opts); err == nil && nf.Node != "" {
		from = ", node " + nf.Node
	}
	fmt.Fprintf(app.Stdout, "valid result: task %s, state %s%s, sha256 %s\n", r.TaskID, r.State, from, result.SHA256(data))
	return nil
}
