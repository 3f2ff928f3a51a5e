package main

import (
	"fmt"
	"io"
)

// ConfigCheckCmd is `rfhandoff config check`: the policy was already loaded
// and validated while the CLI started (an invalid one exits 1 before this
// runs); this prints the effective values and where they came from.
type ConfigCheckCmd struct{}

// Run validates the effective policy once more (it may have been built
// without a file) and prints it as TOML to stdout.
func (c *ConfigCheckCmd) Run(app *App) error {
	if err := app.Policy.Validate(); err != nil {
		return fmt.Errorf("policy %s: %w", policySource(app.PolicyFile), err)
	}
	if _, err := fmt.Fprintf(app.Stdout, "# effective policy from %s\n", policySource(app.PolicyFile)); err != nil {
		return err
	}
	_, err := io.WriteString(app.Stdout, app.Policy.TOML())
	return err
}

// policySource names a policy's origin for people.
func policySource(path string) string {
	if path == "" {
		return "built-in defaults"
	}
	return path
}
