// Package taskfetch reads the current task from the task branch the way
// PROTOCOL §3 and §10 require: one narrow fetch, the commit resolved once, and
// only that ID used afterwards (ancestry check, size check, read, parse).
// The RX side (check, watch, approve, publish, capture) and the MAIN side
// (which compares a result's TASK_ID with it) share it. They read through
// their side's mirror (package mirror, PROTOCOL §20), never the checkout.
package taskfetch

import (
	"context"
	"errors"
	"fmt"
	"time"

	"rfhandoff/config"
	"rfhandoff/gitcli"
	"rfhandoff/task"
)

// Current is the task file as read from one commit of the task branch.
type Current struct {
	Commit string // the task branch commit it was read from
	Data   []byte // the exact bytes; Task.SHA256 is their digest
	Task   *task.Task
	// Signer is the good signature on the commit that last changed the
	// task file, when the policy's trust.task_signers requires one (nil
	// otherwise).
	Signer *gitcli.Signature
}

// NotAncestorError is a task whose EXPECTED_HEAD is not an ancestor of the
// commit it was read from: it was written against another history.
type NotAncestorError struct {
	TaskID       string
	ExpectedHead string
	Commit       string
}

func (e *NotAncestorError) Error() string {
	return fmt.Sprintf("task %s: EXPECTED_HEAD %s is not an ancestor of task branch commit %s", e.TaskID, e.ExpectedHead, e.Commit)
}

// Repo is where the task branch is fetched and read: a side's
// *mirror.Mirror, or any complete repository's *gitcli.Client.
type Repo interface {
	FetchBranchUpdated(ctx context.Context, remote, branch string) (gitcli.FetchUpdate, error)
	ResolveCommit(ctx context.Context, ref string) (string, error)
	ShowFile(ctx context.Context, commit, path string, maxBytes int64) ([]byte, error)
	IsAncestor(ctx context.Context, a, b string) (bool, error)
	VerifyLastChange(ctx context.Context, commit, path, allowedSigners string) (gitcli.Signature, error)
}

// KeyValid checks a good signature's key against its valid-after and
// valid-before in the allowed-signers file at each of times (PROTOCOL
// §17: git checks them only at the commit's own date). A key outside its
// window is a *gitcli.SignatureError, refused like any bad signature.
func KeyValid(allowedSigners string, sig gitcli.Signature, path string, times ...config.KeyTime) error {
	if err := config.CheckKeyWindow(allowedSigners, sig.Principal, sig.Fingerprint, times...); err != nil {
		return &gitcli.SignatureError{Path: path, Sig: sig, Key: err}
	}
	return nil
}

// FetchCommit does the one narrow fetch of branch and resolves its
// tracking ref once.
func FetchCommit(ctx context.Context, g Repo, p config.Policy, branch string) (string, error) {
	if _, err := g.FetchBranchUpdated(ctx, p.Repo.Remote, branch); err != nil {
		return "", err
	}
	return g.ResolveCommit(ctx, TrackingRef(p, branch))
}

// NoTaskError is a task branch commit without the task file: the MAIN PC
// has not written a task yet. It matches gitcli.ErrNotFound.
type NoTaskError struct {
	Path   string
	Commit string
	Err    error // the *gitcli.NotFoundError
}

func (e *NoTaskError) Error() string {
	return fmt.Sprintf("no task yet: %s is not in task branch commit %s", e.Path, e.Commit)
}

func (e *NoTaskError) Unwrap() error { return e.Err }

// TrackingRef is where the narrow fetch stores the task branch.
func TrackingRef(p config.Policy, branch string) string {
	return "refs/remotes/" + p.Repo.Remote + "/" + branch
}

// Fetch fetches the task branch once and reads the task at the fetched commit.
func Fetch(ctx context.Context, g Repo, p config.Policy) (*Current, error) {
	commit, err := FetchCommit(ctx, g, p, p.Repo.TaskBranch)
	if err != nil {
		return nil, err
	}
	return ReadAt(ctx, g, p, commit)
}

// ReadAt reads and validates the task file at commit: with
// trust.task_signers set, a good signature by a listed key, inside its
// valid-after/valid-before window now, on the commit that last changed the
// file (checked first, so an unsigned task's content
// is never read: a *gitcli.SignatureError); then regular file, size limit
// before reading, strict header, and EXPECTED_HEAD an ancestor of commit
// (only git's exit 0 counts as yes).
func ReadAt(ctx context.Context, g Repo, p config.Policy, commit string) (*Current, error) {
	var signer *gitcli.Signature
	if allowed := p.TaskSignersPath(); allowed != "" {
		sig, err := g.VerifyLastChange(ctx, commit, p.Repo.TaskFile, allowed)
		switch {
		case errors.Is(err, gitcli.ErrNotFound):
			// No commit ever wrote the file: the read below says so the
			// way it does without [trust].
		case err != nil:
			return nil, fmt.Errorf("task file %s at %s: %w", p.Repo.TaskFile, commit, err)
		}
		if err == nil {
			if err := KeyValid(allowed, sig, p.Repo.TaskFile, config.KeyTime{What: "now", At: time.Now()}); err != nil {
				return nil, fmt.Errorf("task file %s at %s: %w", p.Repo.TaskFile, commit, err)
			}
			signer = &sig
		}
	}
	data, err := g.ShowFile(ctx, commit, p.Repo.TaskFile, p.Limits.MaxTaskBytes)
	var nf *gitcli.NotFoundError
	if errors.As(err, &nf) {
		return nil, &NoTaskError{Path: p.Repo.TaskFile, Commit: commit, Err: err}
	}
	if err != nil {
		return nil, err
	}
	if p.TaskSignersPath() != "" && signer == nil {
		return nil, fmt.Errorf("task file %s at %s: git found no commit that wrote it, so no signature to check: refused", p.Repo.TaskFile, commit)
	}
	t, err := task.Parse(data, task.Options{TaskBranch: p.Repo.TaskBranch, MaxBytes: p.Limits.MaxTaskBytes})
	if err != nil {
		return nil, err
	}
	ok, err := g.IsAncestor(ctx, t.ExpectedHead, commit)
	if err != nil {
		return nil, fmt.Errorf("task %s: ancestry check of EXPECTED_HEAD %s: %w", t.ID, t.ExpectedHead, err)
	}
	if !ok {
		return nil, &NotAncestorError{TaskID: t.ID, ExpectedHead: t.ExpectedHead, Commit: commit}
	}
	return &Current{Commit: commit, Data: data, Task: t, Signer: signer}, nil
}
