package main

import (
	"errors"

	"rfhandoff/prompt"
	"rfhandoff/rxwatch"
)

// RxWatchCmd polls the task branch and offers each new valid task at the
// approval prompt (SPEC §10, §13).
type RxWatchCmd struct{}

// Run holds the watcher lock for its whole life (a second watcher is
// refused) and returns nil on [S], SIGINT or SIGTERM, leaving running =
// false. Without a terminal it keeps watching and reports tasks awaiting
// approval, but approves nothing.
func (c *RxWatchCmd) Run(app *App) error {
	env, err := rxEnv(app)
	if err != nil {
		return err
	}
	s, err := rxwatch.Open(app.Ctx, env, rxwatch.RoleWatcher)
	if err != nil {
		return err
	}
	var p rxwatch.Prompter
	term, err := prompt.Open()
	switch {
	case err == nil:
		defer term.Close()
		p = term
	case !errors.Is(err, prompt.ErrNoTerminal):
		s.Close()
		return err
	}
	runErr := rxwatch.NewWatcher(s, p).Run(app.Ctx)
	return errors.Join(runErr, s.Close())
}
