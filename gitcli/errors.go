package gitcli

import (
	"errors"
	"fmt"
)

// ErrNotFound matches a path, ref or remote branch that does not exist.
var ErrNotFound = errors.New("not found")

// ErrInvalidArg matches a data-derived argument refused before git ran.
var ErrInvalidArg = errors.New("invalid argument")

// opError is a git operation that failed for a reason with no type of its own.
type opError struct {
	Op  string
	Err error
}

func (e *opError) Error() string { return fmt.Sprintf("git %s: %v", e.Op, e.Err) }
func (e *opError) Unwrap() error { return e.Err }

type invalidArgError struct {
	Arg    string // what the value was meant to be ("branch", "path", ...)
	Value  string
	Reason string
}

func (e *invalidArgError) Error() string {
	return fmt.Sprintf("invalid %s %q: %s", e.Arg, e.Value, e.Reason)
}

func (e *invalidArgError) Is(target error) bool { return target == ErrInvalidArg }

type notFoundError struct {
	What string // e.g. "path docs/x.md in <commit>", "remote branch origin/rx-node"
	Err  error  // the underlying exec error, if any
}

func (e *notFoundError) Error() string        { return e.What + " not found" }
func (e *notFoundError) Unwrap() error        { return e.Err }
func (e *notFoundError) Is(target error) bool { return target == ErrNotFound }

// ForcePushError is a narrow fetch refused because the remote branch was
// rewritten: the watcher reports it and waits for a human.
type ForcePushError struct {
	Remote, Branch string
	Reason         string // git's reason, e.g. "non-fast-forward"
	Err            error
}

func (e *ForcePushError) Error() string {
	return fmt.Sprintf("remote branch %s/%s was rewritten (force-push refused: %s)", e.Remote, e.Branch, e.Reason)
}
func (e *ForcePushError) Unwrap() error { return e.Err }

// PushRejectedError is a push the remote did not accept. Moved: the branch
// moved on (start again from a fresh clone); otherwise retrying will not
// help (a hook declined, permissions, a protected branch).
type PushRejectedError struct {
	Remote, Ref string
	Moved       bool
	Summary     string // "[rejected]", "[remote rejected]", ...
	Reason      string // "fetch first", "pre-receive hook declined", ...
	Err         error
}

func (e *PushRejectedError) Error() string {
	what := "rejected"
	if e.Moved {
		what = "rejected because the branch moved"
	}
	return fmt.Sprintf("push to %s %s %s: %s %s", e.Remote, e.Ref, what, e.Summary, e.Reason)
}
func (e *PushRejectedError) Unwrap() error { return e.Err }

// ErrUnreadableFile matches a file refused before its content was read,
// bigger than allowed or not a regular file: the commit's doing.
var ErrUnreadableFile = errors.New("unreadable file")

type tooLargeError struct {
	Path  string
	Size  int64 // -1: too large to be fetched, so not known exactly
	Limit int64
}

func (e *tooLargeError) Is(target error) bool { return target == ErrUnreadableFile }

func (e *tooLargeError) Error() string {
	if e.Size < 0 {
		return fmt.Sprintf("%s is more than the limit of %d bytes (the server did not send it)", e.Path, e.Limit)
	}
	return fmt.Sprintf("%s is %d bytes, more than the limit of %d", e.Path, e.Size, e.Limit)
}

type notRegularFileError struct {
	Path string
	Mode Mode
}

func (e *notRegularFileError) Is(target error) bool { return target == ErrUnreadableFile }

func (e *notRegularFileError) Error() string {
	return fmt.Sprintf("%s is not a regular file (mode %s, %s)", e.Path, e.Mode, e.Mode.kind())
}
