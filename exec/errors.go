package exec

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"time"
)

// ExitError is a process that ran and exited non-zero (or died of a signal).
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

// ErrDenied matches (errors.Is) a command the allowlist refused: it never
// started, and running it again will not help.
var ErrDenied = errors.New("refused by the allowlist")

// ErrNotInstalled matches (errors.Is) a tool that could not be resolved to
// an absolute path: it never started.
var ErrNotInstalled = errors.New("tool not installed")

// deniedError is a command the allowlist refused; it never started. It
// matches ErrDenied.
type deniedError struct {
	Tool   Tool
	Reason string
}

func (e *deniedError) Error() string {
	return fmt.Sprintf("refused to run %s: %s", e.Tool, e.Reason)
}

func (e *deniedError) Is(target error) bool { return target == ErrDenied }

// notInstalledError is a tool that could not be resolved to an absolute
// path; it matches ErrNotInstalled.
type notInstalledError struct {
	Tool Tool
	Err  error
}

func (e *notInstalledError) Error() string {
	return fmt.Sprintf("%s not found: %v", e.Tool, e.Err)
}

func (e *notInstalledError) Unwrap() error        { return e.Err }
func (e *notInstalledError) Is(target error) bool { return target == ErrNotInstalled }

// timeoutError is a process stopped because its Cmd.Timeout elapsed.
// It matches context.DeadlineExceeded with errors.Is.
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

// outputLimitError is a process stopped because it wrote more than allowed.
type outputLimitError struct {
	Tool  Tool
	Argv  []string // redacted
	Limit int64
}

func (e *outputLimitError) Error() string {
	return fmt.Sprintf("%s: output exceeded %d bytes; stopped", strings.Join(e.Argv, " "), e.Limit)
}

// Detail is the full account of the failed subprocess in err's chain (its
// redacted argv and stderr, as the audit log's end line has it), or "" when
// err holds none. Errors that say the cause in short (gitcli.RemoteError)
// leave this out of their message; -v logs it.
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

// auditError means the audit log could not be written, so the command was
// not run (the log fails closed). Op says which step failed ("opening",
// "writing", "syncing", ...).
type auditError struct {
	Path string
	Op   string
	Err  error
}

func (e *auditError) Error() string {
	err := e.Err
	// The path is said once: an *fs.PathError naming it gives its cause.
	if pe, ok := err.(*fs.PathError); ok && pe.Path == e.Path {
		err = pe.Err
	}
	return fmt.Sprintf("audit log %s: %s: %v (command not run)", e.Path, e.Op, err)
}

func (e *auditError) Unwrap() error { return e.Err }

// stderrLines is how many lines of stderr an error message keeps.
const stderrLines = 20

// withStderr appends the non-blank lines of a stderr tail to msg, joined
// with " | ". All of them, up to stderrLines: the line that says what went
// wrong (ssh's "Permission denied") comes before git's footer, and an error
// message (and so the audit log's end line) must keep it.
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
