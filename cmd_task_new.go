package main

import (
	"fmt"

	"rfhandoff/exec"
	"rfhandoff/gate"
	"rfhandoff/node"
	"rfhandoff/task"
	"rfhandoff/tasknew"
)

// TaskNewCmd writes the next task file on the MAIN PC (PROTOCOL#task-new) under
// the rules the RX side enforces. It never commits or pushes.
type TaskNewCmd struct {
	TaskID         string `arg:"" name:"TASK_ID" help:"The new task's ID: ${task_id_pattern}, never used before on the task or result branch."`
	Title          string `required:"" placeholder:"TEXT" help:"TASK_TITLE: one line of 1-200 printable characters."`
	HardwareAccess bool   `name:"hardware-access" help:"HARDWARE_ACCESS = YES (implied by --rf-rx and --rf-tx)."`
	RFRX           bool   `name:"rf-rx" help:"RF_RX = YES: the RX laptop may run its bounded capture."`
	RFTX           bool   `name:"rf-tx" help:"RF_TX = YES: the RX node itself transmits (RED; its operator must type AUTHORIZE RF TX; rx capture refuses it). A capture while the MAIN PC transmits does not set it: use --rf-rx."`
	AllowCommit    bool   `name:"allow-commit" help:"ALLOW_COMMIT = YES."`
	AllowPush      string `name:"allow-push" enum:"NO,RX_RESULT_ONLY" default:"NO" help:"ALLOW_PUSH: NO or RX_RESULT_ONLY."`
	RiskLevel      string `name:"risk-level" placeholder:"GREEN|YELLOW|RED" help:"RISK_LEVEL (default: the derived minimum; a lower one is refused, a higher one kept)."`
	NoApproval     bool   `name:"no-approval" help:"REQUIRES_APPROVAL = NO (only a GREEN task accepts it)."`
	BodyFile       string `name:"body-file" type:"path" placeholder:"FILE" help:"The Markdown body (default: a short text of what the flags allow)."`
	ExpectedHead   string `name:"expected-head" placeholder:"HASH" help:"EXPECTED_HEAD (default: the fetched task branch tip; must be an ancestor of it)."`
	RXNodes        string `name:"rx-nodes" placeholder:"NAMES" help:"RX_NODES: the receivers of a multi-node task, comma-separated (1-8 distinct names ^[a-z0-9][a-z0-9-]{0,31}$; PROTOCOL#several-nodes)."`
	Output         string `short:"o" name:"output" type:"path" placeholder:"FILE" help:"Write here instead of the policy's task_file in the checkout."`
	Force          bool   `help:"Write the task even over a task file holding another task that has not completed, or while the current task is capturing (READY without COMPLETE on the result branch)."`
}

// Run exits 0 when the file was written, 1 when refused (every reason at
// once, nothing written); kong exits 2 for usage errors.
func (c *TaskNewCmd) Run(app *App) error {
	s := task.Spec{
		ID: c.TaskID, Title: c.Title, ExpectedHead: c.ExpectedHead,
		RequiresApproval: !c.NoApproval,
		HardwareAccess:   c.HardwareAccess || c.RFRX || c.RFTX,
		RFRX:             c.RFRX, RFTX: c.RFTX, AllowCommit: c.AllowCommit, AllowPush: c.AllowPush,
	}
	if c.RiskLevel != "" {
		l, err := gate.ParseLevel(c.RiskLevel)
		if err != nil {
			return exitCode(2, fmt.Errorf("--risk-level: %w", err))
		}
		s.Level = l
	}
	var problems []error
	if c.RXNodes != "" {
		l, probs := node.ParseList(c.RXNodes)
		for _, p := range probs {
			problems = append(problems, fmt.Errorf("--rx-nodes %q: %s", c.RXNodes, p))
		}
		s.Nodes = l
	}
	if c.BodyFile == "" {
		s.Body = task.DefaultBody(s)
	} else if body, err := readTaskFile(c.BodyFile, app.Policy.Limits.MaxTaskBytes); err != nil {
		problems = append(problems, fmt.Errorf("--body-file: %w", err))
	} else {
		s.Body = string(body)
	}
	r, err := app.Stack(exec.RoleGit)
	if err != nil {
		return err
	}
	w := &tasknew.Writer{Git: app.Git(r), Policy: app.Policy, Log: app.Logger}
	out, err := w.Write(app.Ctx, tasknew.Request{Spec: s, Out: c.Output, Force: c.Force, Problems: problems})
	if err != nil {
		return err
	}
	out.Print(app.Stdout, app.Policy.Repo.Remote, app.Policy.Repo.TaskBranch)
	return nil
}
