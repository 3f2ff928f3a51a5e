package prompt

import (
	"errors"
	"fmt"
	"time"
)

// ErrNoTerminal matches every failure to use a controlling terminal: nothing can be approved
// without one.
var ErrNoTerminal = errors.New("no controlling terminal")

// ErrExpired matches a prompt whose deadline passed before a confirmed answer arrived.
var ErrExpired = errors.New("prompt expired")

type noTerminalError struct {
	Path string
	Err  error // the open error, or nil when Path is not a terminal
}

func (e *noTerminalError) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("no controlling terminal: %s is not a terminal", e.Path)
	}
	return fmt.Sprintf("no controlling terminal: %v", e.Err)
}

func (e *noTerminalError) Is(target error) bool { return target == ErrNoTerminal }
func (e *noTerminalError) Unwrap() error        { return e.Err }

// expiredError is a prompt that ran out of time; it approved nothing.
type expiredError struct {
	Deadline time.Time
}

func (e *expiredError) Error() string {
	return fmt.Sprintf("prompt expired at %s: nothing approved", e.Deadline.Format(time.RFC3339))
}

func (e *expiredError) Is(target error) bool { return target == ErrExpired }
