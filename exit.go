package main

import "fmt"

// exitStatusError carries a specific exit status out of a command.
type exitStatusError struct {
	Code int
	Err  error
}

func (e *exitStatusError) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("exit status %d", e.Code)
	}
	return e.Err.Error()
}

func (e *exitStatusError) Unwrap() error { return e.Err }

// exitCode makes Main exit with code (err may be nil).
func exitCode(code int, err error) error { return &exitStatusError{Code: code, Err: err} }
