package main

import (
	"cmp"
	"fmt"
	"io"
	"strings"

	"rfhandoff/exec"
	"rfhandoff/notify"
)

// ConfigCheckCmd prints the effective policy (an invalid one exits 1
// before Run, as it loads).
type ConfigCheckCmd struct{}

// Run validates the policy once more (it may be the defaults) and prints
// it as TOML. MAIN-only problems are warnings: the RX commands work.
func (c *ConfigCheckCmd) Run(app *App) error {
	src := policySource(app.PolicyFile)
	if err := app.Policy.Validate(); err != nil {
		return fmt.Errorf("policy %s: %w", src, err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# effective policy from %s\n", src)
	b.WriteString(app.Policy.TOML())
	b.WriteString(app.Policy.DescribeSigners())
	// Comments, so the output still parses as the policy it shows.
	b.WriteString("\n# local paths, resolved (repo.path against the working directory, the rest against repo.path)\n")
	for _, kv := range app.Policy.ResolvedPaths() {
		fmt.Fprintf(&b, "#   %-27s %s\n", kv[0], kv[1])
	}
	b.WriteString(app.Policy.Tools.DescribeSimulator())
	if prog := app.Policy.NotifyProgram(); prog != "" {
		tools, _ := exec.ResolveTools(app.toolPaths(), app.Environ)
		if keygen, err := exec.ResolveSSHKeygen(app.Policy.Tools.SSHKeygen, app.Environ); err == nil {
			tools[exec.SSHKeygen] = keygen
		}
		if _, err := exec.ResolveNotify(prog, tools, app.Environ); err != nil {
			// What was checked before is printed all the same.
			if _, werr := io.WriteString(app.Stdout, b.String()); werr != nil {
				return werr
			}
			return fmt.Errorf("policy %s: notify.command = %q: %w", src, prog, err)
		}
	}
	b.WriteString(notify.Preview(app.Policy, nodeName()))
	if _, err := io.WriteString(app.Stdout, b.String()); err != nil {
		return err
	}
	if err := app.Policy.InCheckout(); err != nil {
		fmt.Fprintf(app.Stderr, "warning: every command that uses the checkout (rx, tx, task new, audit) refuses to run here: %v\n", err)
	}
	if err := app.Policy.ValidateMAIN(); err != nil {
		fmt.Fprintf(app.Stderr, "warning: policy %s: tx watch and tx execute refuse it (the RX commands do not use these keys): %v\n", src, err)
	}
	return nil
}

func policySource(path string) string {
	return cmp.Or(path, "built-in defaults")
}
