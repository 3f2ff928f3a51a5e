package main

import (
	"context"
	"errors"
	"path/filepath"

	"rfhandoff/capture"
	"rfhandoff/errlist"
	"rfhandoff/exec"
	"rfhandoff/localfile"
	"rfhandoff/prompt"
	"rfhandoff/rxside"
)

// RxWatchCmd polls the task branch and offers each new valid task at the
// approval prompt (PROTOCOL#subprocesses, PROTOCOL#command-line). Without a
// terminal it reports tasks awaiting approval, but approves nothing.
type RxWatchCmd struct{}

func (c *RxWatchCmd) Run(app *App) error {
	app.LongRunning = true
	env, err := rxEnv(app, "rx watch")
	if err != nil {
		return err
	}
	s, err := rxside.Open(app.Ctx, env, rxside.RoleWatcher)
	if err != nil {
		return err
	}
	// A capture killed before the watcher started; watching never depends on it.
	if err := recoverDeadCapture(app.Ctx, app); err != nil {
		app.Logger.Error("a capture recorded in progress still needs its COMPLETE", "err", err)
	}
	var p rxside.Prompter
	term, err := prompt.Open(prompt.WithBell())
	switch {
	case err == nil:
		defer term.Close()
		p = term
	case !errors.Is(err, prompt.ErrNoTerminal):
		s.Close()
		return err
	}
	w := rxside.NewWatcher(s, p)
	w.EachPoll = deadCaptureRecovery(app, s)
	runErr := w.Run(app.Ctx)
	return errlist.Join(runErr, s.Close())
}

// deadCaptureRecovery looks at every poll for a capture in progress whose
// rx capture died (the capture lock is free) and publishes its COMPLETE;
// a failure is reported once until it changes.
func deadCaptureRecovery(app *App, s *rxside.Session) func(context.Context) {
	last := ""
	return func(ctx context.Context) {
		st, err := s.Store.Load()
		// A COMPLETE the publisher refused waits for a person.
		if err != nil || st.CaptureInProgress == nil || st.CaptureInProgress.CompleteRefused {
			return
		}
		l, err := localfile.Acquire(filepath.Join(s.StateDir(), capture.LockFile))
		if err != nil {
			return
		}
		l.Release()
		if err := recoverDeadCapture(ctx, app); err == nil {
			last = ""
		} else if err.Error() != last {
			last = err.Error()
			app.Logger.Error("a capture recorded in progress still needs its COMPLETE", "err", err)
		}
	}
}

// rxWatchPublisher is exec.RoleProbe: a rebuilt COMPLETE asks hackrf_clock
// -i for clkin_after, and it can start no hackrf_transfer (PROTOCOL#subprocesses).
func rxWatchPublisher(app *App) (work, error) {
	return app.work(exec.RoleProbe)
}

func recoverDeadCapture(ctx context.Context, app *App) error {
	pub, err := rxWatchPublisher(app)
	if err != nil {
		return err
	}
	rec, err := capture.Recover(ctx, capture.Deps{
		Git: pub.Git, Runner: pub.Runner, Policy: app.Policy, Audit: pub.Audit, Logger: app.Logger, Author: operatorName(),
	}, capture.Options{})
	printRecovered(app.Stdout, rec)
	return err
}
