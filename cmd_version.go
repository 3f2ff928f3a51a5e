package main

import (
	"fmt"
	"runtime/debug"

	"rfhandoff/exec"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

type VersionCmd struct{}

func (c *VersionCmd) Run(app *App) error {
	v := version
	if bi, ok := debug.ReadBuildInfo(); ok && v == "dev" {
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				v = "dev-" + s.Value[:12]
			}
		}
	}
	fmt.Fprintf(app.Stdout, "rfhandoff %s\n", v)
	paths, missing := exec.ResolveTools(app.toolPaths(), app.Environ)
	for _, t := range exec.Tools {
		switch p, ok := paths[t]; {
		case !ok:
			fmt.Fprintf(app.Stdout, "%-16s not found (%v)\n", t, missing[t])
		case isSimulator(p): // this binary (PROTOCOL#simulator)
			fmt.Fprintf(app.Stdout, "%-16s %s (rfhandoff's HackRF simulator, not a HackRF tool)\n", t, p)
		default:
			fmt.Fprintf(app.Stdout, "%-16s %s\n", t, p)
		}
	}
	// Not run by rfhandoff itself: git runs it to sign and verify ([trust]).
	if p, err := exec.ResolveSSHKeygen(app.Policy.Tools.SSHKeygen, app.Environ); err == nil {
		fmt.Fprintf(app.Stdout, "%-16s %s (for git's signatures)\n", exec.SSHKeygen, p)
	} else {
		fmt.Fprintf(app.Stdout, "%-16s not found (%v): [trust] signatures cannot be made or checked\n", exec.SSHKeygen, err)
	}
	return nil
}
