package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"rfhandoff/demo"
)

// DemoCmd runs the whole protocol once in a throw-away sandbox (PROTOCOL §13).
type DemoCmd struct {
	Auto bool `help:"Answer the prompts automatically (on the demo's own pseudo-terminals, inside its sandbox only)."`
	Keep bool `help:"Keep the sandbox directory at the end (its path is printed either way)."`
}

// Run exits 0 when the fake TX action wrote RF TX = 0 and the capture
// published COMPLETE; 130 when interrupted (Ctrl-C, SIGTERM); 1 otherwise,
// naming the step that failed, or saying that the interactive demo needs
// a terminal. The demo writes its own policies into its sandbox; --config
// does not apply to it.
func (c *DemoCmd) Run(app *App) error {
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("demo: locating the rfhandoff binary: %w", err)
	}
	err = demo.Run(app.Ctx, demo.Options{
		Exe: exe, Auto: c.Auto, Keep: c.Keep,
		Out: app.Stdout, Environ: app.Environ,
	})
	if errors.Is(err, context.Canceled) {
		return exitCode(130, err)
	}
	return err
}
