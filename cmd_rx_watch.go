package main

import (
	"errors"

	"rfhandoff/capture"
	"rfhandoff/errlist"
	"rfhandoff/prompt"
	"rfhandoff/rxwatch"
)

// RxWatchCmd polls the task branch and offers each new valid task at the
// approval prompt (PROTOCOL §10, §13).
type RxWatchCmd struct{}

// Run holds the watcher lock for its whole life (a second watcher is
// refused) and returns nil on [S], SIGINT or SIGTERM, leaving running =
// false. Without a terminal it keeps watching and reports tasks awaiting
// approval, but approves nothing.
func (c *RxWatchCmd) Run(app *App) error {
	env, err := rxEnv(app, "rx watch")
	if err != nil {
		return err
	}
	s, err := rxwatch.Open(app.Ctx, env, rxwatch.RoleWatcher)
	if err != nil {
		return err
	}
	recoverCapture(app)
	var p rxwatch.Prompter
	term, err := prompt.Open(prompt.WithBell())
	switch {
	case err == nil:
		defer term.Close()
		p = term
	case !errors.Is(err, prompt.ErrNoTerminal):
		s.Close()
		return err
	}
	runErr := rxwatch.NewWatcher(s, p).Run(app.Ctx)
	return errlist.Join(runErr, s.Close())
}

// recoverCapture publishes the COMPLETE of a capture whose rx capture was
// killed (capture.Recover), once, as the watcher starts. A failure is
// reported and the watcher goes on: watching never depends on it.
func recoverCapture(app *App) {
	pub, err := newRXPublisher(app)
	if err == nil {
		var rec *capture.Recovered
		rec, err = capture.Recover(app.Ctx, capture.Deps{
			Git: pub.Git, Runner: pub.Runner, Policy: app.Policy, Audit: pub.Audit, Logger: app.Logger,
		}, capture.Options{})
		printRecovered(app.Stdout, rec)
	}
	if err != nil {
		app.Logger.Error("a capture recorded in progress still needs its COMPLETE", "err", err)
	}
}
