package main

import (
	"context"

	"rfhandoff/exec"
	"rfhandoff/txwatch"
)

// TxWatchCmd polls the result branch and writes authorization records
// after the exact phrase (PROTOCOL §7, §13). It never transmits.
type TxWatchCmd struct{}

// Run holds the TX watcher lock for its whole life and returns nil on
// SIGINT or SIGTERM, leaving running = false. Without a terminal it keeps
// watching and reports READY results awaiting authorization, but
// authorizes nothing. Its runner has no role that may run hackrf_transfer.
func (c *TxWatchCmd) Run(app *App) error {
	app.LongRunning = true
	r, err := app.Stack(exec.RoleNone)
	if err != nil {
		return err
	}
	n, err := app.Notifier(exec.RoleTX)
	if err != nil {
		return err
	}
	audit, err := app.AuditLog()
	if err != nil {
		return err
	}
	w := &txwatch.Watcher{
		Git:    app.Git(r),
		Policy: app.Policy,
		Out:    app.Stdout,
		Logger: app.Logger,
		Notify: n,
		Audit:  audit,
		// The command printed after a record: the operator copies no path.
		ExecuteCommand: app.CommandLine("tx", "execute"),
		Clock:          func(ctx context.Context) error { return requireClock(ctx, app, r, "offering a READY result") },
	}
	return w.Run(app.Ctx)
}
