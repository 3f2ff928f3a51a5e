package main

import (
	"errors"
	"fmt"
	"io/fs"

	"rfhandoff/exec"
)

// AuditVerifyCmd checks the audit log's hash chain and names the first
// broken line.
type AuditVerifyCmd struct{}

func (c *AuditVerifyCmd) Run(app *App) error {
	path := app.Local(app.Policy.Audit.Path)
	st, err := exec.VerifyAuditLog(path)
	var ce *exec.ChainError
	if errors.As(err, &ce) {
		return exitCode(1, ce)
	}
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("no audit log at %s: nothing has run here yet, or the log was removed", path)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(app.Stdout, "%s: intact, %d lines, head %s\n", path, st.Lines, st.Head)
	return nil
}
