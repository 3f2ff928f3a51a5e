package main

import (
	"fmt"

	"rfhandoff/capture"
	"rfhandoff/exec"
	"rfhandoff/publish"
)

// RxPublishResultCmd publishes an RX_RESULT.json to the result branch
// (PROTOCOL#publishing).
type RxPublishResultCmd struct {
	File         string `arg:"" type:"path" help:"The result file (RX_RESULT.json)."`
	ResultBranch string `name:"result-branch" placeholder:"NAME" help:"Result branch (default: the policy's repo.result_branch). It must already exist on the remote."`
}

func (c *RxPublishResultCmd) Run(app *App) error {
	data, err := readLimited(c.File, app.Policy.Limits.MaxResultBytes, "%s: more than %d bytes, the result size limit (limits.max_result_bytes)")
	if err != nil {
		return err
	}
	pub, err := app.work(exec.RoleGit)
	if err != nil {
		return err
	}
	if err := requireClock(app.Ctx, app, pub.Runner, "rx publish-result"); err != nil {
		return err
	}
	stateDir := app.Policy.StatePath()
	out, err := publish.Publish(app.Ctx, publish.Deps{
		Git:          pub.Git,
		Runner:       pub.Runner,
		Policy:       app.Policy,
		StateDir:     stateDir,
		Audit:        pub.Audit,
		ResultBranch: c.ResultBranch,
		Logger:       app.Logger,
	}, data)
	if err != nil {
		return err
	}
	// A COMPLETE published by hand ends its capture_in_progress record.
	if cleared, err := capture.ForgetPublished(stateDir, data); err != nil {
		app.Logger.Warn("could not clear capture_in_progress", "err", err)
	} else if cleared {
		fmt.Fprintln(app.Stdout, "capture_in_progress cleared: this was the COMPLETE it waited for")
	}
	if out.NoOp {
		fmt.Fprintf(app.Stdout, "already published (identical) at %s\n", out.Commit)
		return nil
	}
	fmt.Fprintf(app.Stdout, "published %s\n", out.Commit)
	return nil
}
