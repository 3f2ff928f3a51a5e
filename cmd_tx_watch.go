package main

import (
	"context"

	"rfhandoff/exec"
	"rfhandoff/notify"
	"rfhandoff/txwatch"
)

// TxWatchCmd polls the result branch and writes authorization records
// after the exact phrase (PROTOCOL#main-pc, PROTOCOL#command-line). It never transmits.
type TxWatchCmd struct{}

func (c *TxWatchCmd) Run(app *App) error {
	w, err := c.watcher(app)
	if err != nil {
		return err
	}
	return w.Run(app.Ctx)
}

// watcher builds Run's watcher: tx watch holds no runner that may start a
// HackRF tool (PROTOCOL#subprocesses).
func (c *TxWatchCmd) watcher(app *App) (*txwatch.Watcher, error) {
	app.LongRunning = true
	w, err := app.work(exec.RoleGit)
	if err != nil {
		return nil, err
	}
	n, err := app.Notifier(notify.SideMain)
	if err != nil {
		return nil, err
	}
	return &txwatch.Watcher{
		Git:            w.Git,
		Policy:         app.Policy,
		Out:            app.Stdout,
		Logger:         app.Logger,
		Notify:         n,
		Audit:          w.Audit,
		ExecuteCommand: app.CommandLine("tx", "execute"),
		Clock:          func(ctx context.Context) error { return requireClock(ctx, app, w.Runner, "offering a READY result") },
	}, nil
}
