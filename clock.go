package main

import (
	"context"

	"rfhandoff/exec"
	"rfhandoff/hostclock"
)

// requireClock asks the operating system whether the host clock is
// synchronised (hostclock, through r: on record) before action, and
// refuses while it says no, unless the policy waives it ([clock]
// require_synchronized = false). A clock the OS cannot judge, or a waived
// one, never refuses but is said on stderr.
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
