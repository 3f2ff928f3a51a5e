package main

import (
	"context"

	"rfhandoff/exec"
	"rfhandoff/hostclock"
)

// requireClock refuses action while the OS says the host clock is not
// synchronised, unless [clock] require_synchronized = false. A waived or
// unknown state is only logged.
func requireClock(ctx context.Context, app *App, r exec.Runner, action string) error {
	rep, err := hostclock.Require(ctx, r, app.Policy.Clock.RequireSynchronized, action)
	if err != nil {
		return err
	}
	switch rep.Sync {
	case hostclock.NotSynced:
		app.Logger.Warn("host clock NOT synchronised; going on, as the policy waives it", "waiver", hostclock.WaiverKey+" = false", "report", rep.String())
	case hostclock.Unknown:
		app.Logger.Info("host clock: the operating system cannot tell whether it is synchronised; not refused", "report", rep.String())
	}
	return nil
}
