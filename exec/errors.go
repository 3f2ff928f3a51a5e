package exec

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"time"
)

// ExitError is a process that exited non-zero or died of a signal.
type ExitError struct {
	Tool       Tool
	Argv       []string // redacted
	Code       int      // -1 when ended by a signal
	Signal     string
	StderrTail string
}

func (e *ExitError) Error() string {
	how := fmt.Sprintf("exit status %d", e.Code)
	if e.Signal != "" {
		how = "killed by " + e.Signal
	}
	return withStderr(fmt.Sprintf("%s: %s", strings.Join(e.Argv, " "), how), e.StderrTail)
}

// ErrDenied matches a command the allowlist refused: running it again will
// not help.
var ErrDenied = errors.New("refused by the allowlist")

// ErrNotInstalled matches a tool that could not be resolved.
var ErrNotInstalled = errors.New("tool not installed")

type deniedError struct {
	Tool   Tool
	Reason string
}

func (e *deniedError) Error() string {
	return fmt.Sprintf("refused to run %s: %s", e.Tool, e.Reason)
}

func (e *deniedError) Is(target error) bool { return target == ErrDenied }

type notInstalledError struct {
	Tool Tool
	Err  error
}

func (e *notInstalledError) Error() string {
	return fmt.Sprintf("%s not found: %v", e.Tool, e.Err)
}

func (e *notInstalledError) Unwrap() error        { return e.Err }
func (e *notInstalledError) Is(target error) bool { return target == ErrNotInstalled }

type timeoutError struct {
	Tool       Tool
	Argv       []string // redacted
	After      time.Duration
	StderrTail string
}

func (e *timeoutError) Error() string {
	return withStderr(fmt.Sprintf("%s: timed out after %s", strings.Join(e.Argv, " "), e.After), e.StderrTail)
}

func (e *timeoutError) Is(target error) bool { return target == context.DeadlineExceeded }

type outputLimitError struct {
	Tool  Tool
	Argv  []string // redacted
	Limit int64
}

func (e *outputLimitError) Error() string {
	return fmt.Sprintf("%s: output exceeded %d bytes; stopped", strings.Join(e.Argv, " "), e.Limit)
}

// Detail is the failed subprocess's redacted argv and stderr in err's chain,
// or "": for -v, where an error says its cause in short (gitcli.RemoteError).
func Detail(err error) string {
	var ee *ExitError
	var te *timeoutError
	switch {
	case errors.As(err, &ee):
		return ee.Error()
	case errors.As(err, &te):
		return te.Error()
	}
	return ""
}

// auditError: the log could not be written, so the command was not run.
type auditError struct {
	Path string
	Op   string
	Err  error
}

func (e *auditError) Error() string {
	err := e.Err
	if pe, ok := err.(*fs.PathError); ok && pe.Path == e.Path { // say the path once
		err = pe.Err
	}
	return fmt.Sprintf("audit log %s: %s: %v (command not run)", e.Path, e.Op, err)
}

func (e *auditError) Unwrap() error { return e.Err }

const stderrLines = 20

// withStderr appends the last stderrLines non-blank lines of a stderr tail
// to msg: the one that says what went wrong (ssh's "Permission denied")
// comes before git's footer.
func withStderr(msg, tail string) string {
	var lines []string
	for _, l := range strings.FieldsFunc(tail, func(r rune) bool { return r == '\n' || r == '\r' }) {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) == 0 {
		return msg
	}
	if len(lines) > stderrLines {
		lines = lines[len(lines)-stderrLines:]
	}
	return msg + ": " + strings.Join(lines, " | ")
}
