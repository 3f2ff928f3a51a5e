package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"

	"rfhandoff/demo"
)

// DemoCmd runs the protocol once in a throw-away sandbox (PROTOCOL#command-line).
type DemoCmd struct {
	Auto bool `help:"Answer the prompts automatically (on the demo's own pseudo-terminals, inside its sandbox only)."`
	Keep bool `help:"Keep the sandbox directory at the end (its path is printed either way)."`
	// A string, so that Run refuses "x" naming the flag, like 0 and 9.
	RXNodes string `name:"rx-nodes" placeholder:"N" default:"1" help:"How many RX nodes (1-8): with 2 or more the task has RX_NODES and MAIN asks the phrase once for all (PROTOCOL#several-nodes)."`
	Sync    string `name:"sync" placeholder:"pps|host" help:"A scheduled capture: the task gets START_AT and SYNC_MODE (PPS or HOST_CLOCK), every simulated node its own clock offset and distance, and the demo proves the alignment by cross-correlating the nodes' recordings of the burst."`
}

// Run exits 2 for bad flags (nothing created), 130 when interrupted, 1
// when a step failed. The demo writes its own policies: --config does not
// apply to it.
func (c *DemoCmd) Run(app *App) error {
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("demo: locating the rfhandoff binary: %w", err)
	}
	n, err := strconv.Atoi(c.RXNodes)
	if err != nil {
		return exitCode(2, fmt.Errorf("demo: --rx-nodes %q is not a whole number of RX nodes (1 to %d)", c.RXNodes, demo.MaxRXNodes))
	}
	if err := demo.CheckRXNodes(n); err != nil {
		return exitCode(2, fmt.Errorf("demo: %w", err))
	}
	var mode string
	if c.Sync != "" {
		if mode, err = demo.ParseSync(c.Sync); err != nil {
			return exitCode(2, fmt.Errorf("demo: %w", err))
		}
	}
	err = demo.Run(app.Ctx, demo.Options{
		Exe: exe, Auto: c.Auto, Keep: c.Keep, RXNodes: n, Sync: mode,
		Out: app.Stdout, Environ: app.Environ,
	})
	if errors.Is(err, context.Canceled) {
		return exitCode(130, err)
	}
	return err
}
