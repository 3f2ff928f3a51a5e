package main

import (
	"rfhandoff/exec"
	"rfhandoff/gitcli"
	"rfhandoff/rxwatch"
)

// rxEnv is what the RX commands share: git on the RX checkout through the
// audited RX runner, the policy, the logger and stdout.
func rxEnv(app *App) (rxwatch.Env, error) {
	r, err := app.Runner(exec.RoleRX)
	if err != nil {
		return rxwatch.Env{}, err
	}
	return rxwatch.Env{
		Git:    &gitcli.Client{R: r, Dir: app.RepoPath(), Timeout: app.Policy.Poll.GitTimeout.Duration},
		Policy: app.Policy,
		Log:    app.Logger,
		Out:    app.Stdout,
	}, nil
}
