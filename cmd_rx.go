package main

import (
	"rfhandoff/exec"
	"rfhandoff/notify"
	"rfhandoff/rxside"
)

// rxEnv is what rx watch, check and approve share: exec.RoleGit (no
// HackRF tool) and the RX notifier; command names the command in the RX lock.
func rxEnv(app *App, command string) (rxside.Env, error) {
	w, err := app.work(exec.RoleGit)
	if err != nil {
		return rxside.Env{}, err
	}
	n, err := app.Notifier(notify.SideRX)
	if err != nil {
		return rxside.Env{}, err
	}
	return rxside.Env{
		Audit:   w.Audit,
		Git:     w.Git,
		Policy:  app.Policy,
		Log:     app.Logger,
		Command: command,
		Notify:  n,
	}, nil
}

// rxCheckOnce opens a one-shot RX session (the RX lock), checks the task
// branch once and prints the task's summary. On success the caller closes
// the session.
func rxCheckOnce(app *App, env rxside.Env) (*rxside.Session, rxside.Checked, error) {
	s, err := rxside.Open(app.Ctx, env, rxside.RoleOneShot)
	if err != nil {
		return nil, rxside.Checked{}, err
	}
	res, err := s.Check(app.Ctx)
	if res.Current != nil {
		rxside.WriteSummary(app.Stdout, res.Current, res.Decision.Verdict)
	}
	if err != nil {
		s.Close()
		return nil, res, err
	}
	return s, res, nil
}
