package main

import (
	"fmt"

	"rfhandoff/exec"
	"rfhandoff/notify"
	"rfhandoff/transmit"
)

// TxExecuteCmd is the separate RED action that consumes one authorization
// record (PROTOCOL#main-pc).
type TxExecuteCmd struct {
	Record string `arg:"" optional:"" help:"The authorization record: its name in <state_dir>/tx_authorizations/ or a path to it. Without it, the one unused, unexpired record (several: they are listed, none is run)."`
}

func (c *TxExecuteCmd) Run(app *App) error {
	w, err := app.work(exec.RoleTransmit)
	if err != nil {
		return err
	}
	// Before the record is read or consumed: the re-checks compare the
	// result's times with this clock (PROTOCOL#main-pc).
	if err := requireClock(app.Ctx, app, w.Runner, "tx execute"); err != nil {
		return err
	}
	n, err := app.Notifier(notify.SideMain)
	if err != nil {
		return err
	}
	x := &transmit.Executor{
		Git:    w.Git,
		Runner: w.Runner,
		Policy: app.Policy,
		Out:    app.Stdout,
		Notify: n, // tx_executed once the action ran, never for a refusal
		Audit:  w.Audit,
	}
	o, path, err := x.Execute(app.Ctx, c.Record)
	if err != nil {
		return err
	}
	fmt.Fprintf(app.Stdout, "outcome %s: action %s, RF TX = %d\n", path, o.Action, o.RFTX)
	return nil
}
