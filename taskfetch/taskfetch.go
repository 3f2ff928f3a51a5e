package taskfetch

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"rfhandoff/config"
	"rfhandoff/gitcli"
	"rfhandoff/state"
	"rfhandoff/task"
)

// Current is the task file as read from one commit of the task branch.
type Current struct {
	Commit string // the task branch commit it was read from
	Data   []byte // the exact bytes; Task.SHA256 is their digest
	Task   *task.Task
	// Signer signed the task file's last change; nil without trust.task_signers.
	Signer *gitcli.Signature
}

// ErrRefusedContent matches a task refused for what its commit holds:
// EXPECTED_HEAD not an ancestor, or an old task brought back.
var ErrRefusedContent = errors.New("task refused for its content")

// notAncestorError: the task was written against another history.
type notAncestorError struct {
	TaskID       string
	ExpectedHead string
	Commit       string
}

func (e *notAncestorError) Is(target error) bool { return target == ErrRefusedContent }

func (e *notAncestorError) Error() string {
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
	CommitReader
	FileChanges(ctx context.Context, commit, path string) ([]gitcli.FileChange, error)
	LastChange(ctx context.Context, commit, path string) (gitcli.FileChange, error)
}

// KeyValid checks sig's key window (and its certificate's, as ReadCert
// left it) at each of times: git checks them only at the commit's own date
// (PROTOCOL#trust). Outside the window is a *gitcli.SignatureError.
func KeyValid(allowedSigners string, sig gitcli.Signature, path string, times ...config.KeyTime) error {
	if err := config.CheckKeyWindow(allowedSigners, sig.Principal, sig.Fingerprint, sig.Cert, times...); err != nil {
		return &gitcli.SignatureError{Path: path, Sig: sig, Key: err}
	}
	return nil
}

// CommitReader reads commit objects: a side's mirror, or a *gitcli.Client.
type CommitReader interface {
	Commits(ctx context.Context, ids ...string) ([]gitcli.CommitObject, error)
}

// ReadCert sets sig.Cert to the certificate sig was made with, reading the
// commit only when a cert-authority line may cover sig's principal. The key
// the signature names must be the one git verified (else a
// *gitcli.SignatureError).
func ReadCert(ctx context.Context, g CommitReader, allowedSigners, path string, sig *gitcli.Signature) error {
	sig.Cert = nil
	ca, err := config.CertAuthorityFor(allowedSigners, sig.Principal)
	if err != nil || !ca {
		return err
	}
	objs, err := g.Commits(ctx, sig.Commit)
	if err != nil {
		return err
	}
	k, err := objs[0].SigningKey()
	switch {
	case err != nil:
		err = fmt.Errorf("its signature cannot be read to check a certificate: %v", err)
	case k.Fingerprint != sig.Fingerprint:
		err = fmt.Errorf("its signature names key %s, not the key git verified", k.Fingerprint)
	}
	if err != nil {
		return &gitcli.SignatureError{Path: path, Sig: *sig, Key: err}
	}
	sig.Cert = k.Cert
	return nil
}

// FetchCommit fetches branch once and returns its tip, preferring the
// fetcher's own resolution (the mirror's, checked against its anchor).
func FetchCommit(ctx context.Context, g Repo, p config.Policy, branch string) (string, error) {
	u, err := g.FetchBranchUpdated(ctx, p.Repo.Remote, branch)
	if err != nil {
		return "", err
	}
	if u.Tip != "" {
		return u.Tip, nil
	}
	return g.ResolveCommit(ctx, TrackingRef(p, branch))
}

// ErrNoTask matches a task branch commit without the task file.
var ErrNoTask = errors.New("no task yet")

// noTaskError matches ErrNoTask and gitcli.ErrNotFound.
type noTaskError struct {
	Path   string
	Commit string
	Err    error // matches gitcli.ErrNotFound
}

func (e *noTaskError) Error() string {
	return fmt.Sprintf("no task yet: %s is not in task branch commit %s", e.Path, e.Commit)
}

func (e *noTaskError) Unwrap() error        { return e.Err }
func (e *noTaskError) Is(target error) bool { return target == ErrNoTask }

// TrackingRef is where the narrow fetch stores the task branch.
func TrackingRef(p config.Policy, branch string) string {
	return "refs/remotes/" + p.Repo.Remote + "/" + branch
}

// Fetch reads the task at the fetched tip without an accepted tip (MAIN's reading).
func Fetch(ctx context.Context, g Repo, p config.Policy) (*Current, error) {
	cur, _, err := FetchSince(ctx, g, p, nil)
	return cur, err
}

// FetchSince reads the task at the fetched tip with ReadSince.
func FetchSince(ctx context.Context, g Repo, p config.Policy, since *state.AcceptedTask) (*Current, *state.AcceptedTask, error) {
	commit, err := FetchCommit(ctx, g, p, p.Repo.TaskBranch)
	if err != nil {
		return nil, nil, err
	}
	return ReadSince(ctx, g, p, commit, since)
}

// ReadAt reads the task at commit with ReadSince and no accepted tip.
func ReadAt(ctx context.Context, g Repo, p config.Policy, commit string) (*Current, error) {
	cur, _, err := ReadSince(ctx, g, p, commit, nil)
	return cur, err
}

// replayError is an old task brought back (PROTOCOL#trust): the file at
// Commit differs from the accepted tip's, and its signed LastChange is that
// tip's past (see noGoingBack).
type replayError struct {
	Path       string
	Commit     string // the task branch commit read
	LastChange string // the signed commit the file came from
	SHA256     string // the file's at Commit ("" when there is none)
	Accepted   state.AcceptedTask
	// Copy: the accepted history's commit LastChange copies under another ID.
	Copy string
	// Known: the accepted history's commit that gave the file these bytes;
	// InForce: the accepted tip's last change of it, not older than
	// LastChange (dated SignedAt).
	Known    string
	InForce  gitcli.FileChange
	SignedAt time.Time
}

func (e *replayError) Is(target error) bool { return target == ErrRefusedContent }

func (e *replayError) Error() string {
	there := "no task file"
	if e.Accepted.TaskSHA256 != "" {
		there = "sha256 " + e.Accepted.TaskSHA256
	}
	here := "no task file"
	if e.SHA256 != "" {
		here = "sha256 " + e.SHA256
	}
	why, more := "that commit is in the history of "+e.Accepted.Commit, ""
	switch {
	case e.Copy != "":
		why = fmt.Sprintf("it carries the same signed content as commit %s under another ID (they differ only in headers git leaves out of what is signed), and %s is in the history of %s",
			e.Copy, e.Copy, e.Accepted.Commit)
	case e.Known != "":
		what := "the task file of commit " + e.Known
		if e.SHA256 == "" {
			what = "no task file, as commit " + e.Known + " left it"
		}
		why = fmt.Sprintf("it gives the file %s, which is in the history of %s", what, e.Accepted.Commit)
		more = fmt.Sprintf(", and its signature (committer date %s) is not newer than that of commit %s (%s), the last change of the file at that tip",
			e.SignedAt.Format(time.RFC3339), e.InForce.Commit, e.InForce.CommittedAt.Format(time.RFC3339))
	}
	return fmt.Sprintf("task file %s at %s is an old task brought back from commit %s: %s, "+
		"the task branch tip this RX side last accepted, where the file was different (%s there, %s here)%s; refused, not read: "+
		"a task signer must commit the task again (signed) for the RX side to read the branch", e.Path, e.Commit, e.LastChange, why,
		there, here, more)
}

// ReadSince reads and validates the task file at commit. With
// trust.task_signers, the signature on its last change is checked first, so
// an unsigned task's content is never read; then noGoingBack against since.
// Then the strict parse and EXPECTED_HEAD's ancestry (only git's exit 0 is
// yes).
//
// accept is the new accepted tip: non-nil once the trust checks passed,
// even if the content is invalid (the branch as its signer left it).
func ReadSince(ctx context.Context, g Repo, p config.Policy, commit string, since *state.AcceptedTask) (cur *Current, accept *state.AcceptedTask, err error) {
	var signer *gitcli.Signature
	allowed := p.TaskSignersPath()
	if allowed != "" {
		sig, err := g.VerifyLastChange(ctx, commit, p.Repo.TaskFile, allowed)
		switch {
		case errors.Is(err, gitcli.ErrNotFound):
			// No commit ever wrote the file: the read below says so the
			// way it does without [trust].
		case err != nil:
			return nil, nil, fmt.Errorf("task file %s at %s: %w", p.Repo.TaskFile, commit, err)
		default:
			err := ReadCert(ctx, g, allowed, p.Repo.TaskFile, &sig)
			if err == nil {
				err = KeyValid(allowed, sig, p.Repo.TaskFile, config.KeyTime{What: "now", At: time.Now()})
			}
			if err != nil {
				return nil, nil, fmt.Errorf("task file %s at %s: %w", p.Repo.TaskFile, commit, err)
			}
			signer = &sig
		}
	}
	data, err := g.ShowFile(ctx, commit, p.Repo.TaskFile, p.Limits.MaxTaskBytes)
	absent := errors.Is(err, gitcli.ErrNotFound)
	if err != nil && !absent {
		return nil, nil, err
	}
	digest := ""
	if !absent {
		digest = task.Digest(data)
	}
	if allowed != "" {
		if signer == nil && !absent {
			return nil, nil, fmt.Errorf("task file %s at %s: git found no commit that wrote it, so no signature to check: refused", p.Repo.TaskFile, commit)
		}
		if signer != nil {
			if err := noGoingBack(ctx, g, p, commit, signer.Commit, data, digest, since); err != nil {
				return nil, nil, err
			}
		}
		accept = &state.AcceptedTask{Commit: commit, TaskSHA256: digest}
	}
	if absent {
		return nil, accept, &noTaskError{Path: p.Repo.TaskFile, Commit: commit, Err: err}
	}
	t, err := task.Parse(data, task.Options{TaskBranch: p.Repo.TaskBranch, MaxBytes: p.Limits.MaxTaskBytes})
	if err != nil {
		return nil, accept, err
	}
	ok, err := g.IsAncestor(ctx, t.ExpectedHead, commit)
	if err != nil {
		return nil, nil, fmt.Errorf("task %s: ancestry check of EXPECTED_HEAD %s: %w", t.ID, t.ExpectedHead, err)
	}
	if !ok {
		return nil, accept, &notAncestorError{TaskID: t.ID, ExpectedHead: t.ExpectedHead, Commit: commit}
	}
	return &Current{Commit: commit, Data: data, Task: t, Signer: signer}, accept, nil
}

// noGoingBack is PROTOCOL#trust's rule against an old task brought back.
// It has something to say only when since (the tip the RX side accepted)
// is in commit's history and the file there (data, its digest; "" for
// none) differs from since's. lastChange, the signed commit the file came
// from, is then:
//   - since's commit or one of its ancestors: an old task (*replayError);
//   - a descendant of since: signed after it, a new change;
//   - beside since's history (a merged side branch): a copy of a commit
//     of that history with the same signed content under another ID is
//     an old task; so is one that gives the file bytes a commit of that
//     history gave it (or removes it as one did) and is dated no later
//     than the last change of the file at since (signatures vouch for
//     content and the signed date, not for commit IDs); else a new change.
//
// A since outside commit's history (the branch re-anchored after a
// deliberate force-push, PROTOCOL#mirror) has nothing to say about it.
func noGoingBack(ctx context.Context, g Repo, p config.Policy, commit, lastChange string, data []byte, digest string, since *state.AcceptedTask) error {
	if since == nil || digest == since.TaskSHA256 {
		return nil
	}
	file := p.Repo.TaskFile
	fail := func(what string, err error) error {
		return fmt.Errorf("task file %s at %s: %s: %w", file, commit, what, err)
	}
	inHistory, err := g.IsAncestor(ctx, since.Commit, commit)
	if err != nil {
		return fail("is the accepted tip "+since.Commit+" in its history", err)
	}
	if !inHistory {
		return nil
	}
	replay := &replayError{Path: file, Commit: commit, LastChange: lastChange, SHA256: digest, Accepted: *since}
	old, err := g.IsAncestor(ctx, lastChange, since.Commit)
	if err != nil {
		return fail("is its last change "+lastChange+" in the history of the accepted tip "+since.Commit, err)
	}
	if old {
		return replay
	}
	newer, err := g.IsAncestor(ctx, since.Commit, lastChange)
	if err != nil {
		return fail("is the accepted tip "+since.Commit+" in the history of its last change "+lastChange, err)
	}
	if newer {
		return nil // signed on top of the accepted tip: a new change
	}
	changes, err := g.FileChanges(ctx, since.Commit, file)
	if err != nil {
		return fail("the changes of the file in the accepted tip's history", err)
	}
	signed, err := g.Commits(ctx, lastChange)
	if err != nil {
		return fail("its last change "+lastChange, err)
	}
	s := signed[0]
	var twins []string
	for _, c := range changes {
		if c.Commit != s.ID && c.Tree == s.Tree && slices.Equal(c.Parents, s.Parents) {
			twins = append(twins, c.Commit)
		}
	}
	if len(twins) > 0 {
		objs, err := g.Commits(ctx, twins...)
		if err != nil {
			return fail("the commits like "+lastChange+" in the accepted tip's history", err)
		}
		for _, o := range objs {
			if o.SamePayload(s) {
				replay.Copy = o.ID
				return replay
			}
		}
	}
	absent, blob := digest == "", gitcli.BlobID(data)
	for _, c := range changes { // newest first
		if absent && c.Removed || !absent && c.Blob == blob {
			replay.Known = c.Commit
			break
		}
	}
	if replay.Known == "" {
		return nil
	}
	inForce, err := g.LastChange(ctx, since.Commit, file)
	switch {
	case errors.Is(err, gitcli.ErrNotFound):
		return nil // only side branches of the accepted tip touched the file: nothing in force there
	case err != nil:
		return fail("the last change of the file at the accepted tip", err)
	}
	if s.CommittedAt.After(inForce.CommittedAt) {
		return nil // the signer's newer word on those bytes
	}
	replay.InForce, replay.SignedAt = inForce, s.CommittedAt
	return replay
}
