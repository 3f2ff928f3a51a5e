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
		if p, ok := paths[t]; ok {
			fmt.Fprintf(app.Stdout, "%-16s %s%s\n", t, p, simulatorNote(p))
		} else {
			fmt.Fprintf(app.Stdout, "%-16s not found (%v)\n", t, missing[t])
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

// simulatorNote marks a tool that is rfhandoff's simulator (PROTOCOL#simulator).
func simulatorNote(path string) string {
	if isSimulator(path) {
		return " (rfhandoff's HackRF simulator, not a HackRF tool)"
	}
	return ""
}
