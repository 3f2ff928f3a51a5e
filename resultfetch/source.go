package resultfetch

import (
	"context"
	"errors"
	"fmt"
	"path"
	"time"

	"rfhandoff/config"
	"rfhandoff/errlist"
	"rfhandoff/gitcli"
	"rfhandoff/result"
	"rfhandoff/state"
	"rfhandoff/task"
	"rfhandoff/taskfetch"
)

const resultFile = "RX_RESULT.json"

// Source reads the result and task branches through the MAIN side's mirror.
type Source struct {
	Git    ResultRepo
	Policy config.Policy
	// Node, for a node's branch (PROTOCOL#several-nodes): its branch and
	// signers are read, and only a node result naming it decodes. The zero
	// MainNode is the single node of PROTOCOL#main-pc.
	Node config.MainNode
}

func (s Source) ForNode(n config.MainNode) Source { s.Node = n; return s }

func (s Source) Branch() string {
	if s.Node.ResultBranch != "" {
		return s.Node.ResultBranch
	}
	return s.Policy.Repo.ResultBranch
}

// signersPath is the node's own allowed signers when it has them (a key
// listed for rx-a cannot speak for rx-b), else trust.result_signers.
func (s Source) signersPath() string {
	if s.Node.ResultSigners != "" {
		return s.Policy.NodeResultSignersPath(s.Node)
	}
	return s.Policy.ResultSignersPath()
}

// ResultRepo is where the MAIN side reads both branches (mirror.Mirror).
type ResultRepo interface {
	taskfetch.Repo
	FetchBranchesUpdated(ctx context.Context, remote string, branches []string) (map[string]gitcli.FetchUpdate, error)
	VerifyTip(ctx context.Context, tip, path, allowedSigners string) (gitcli.Signature, error)
	FileHistorySince(ctx context.Context, commit, since, path string, maxBytes int64, maxCommits int) ([]gitcli.FileVersion, bool, error)
}

func (s Source) ResultPath() string { return path.Join(s.Policy.Repo.ResultDir, resultFile) }

// FetchResultCommit does the one narrow fetch of the result branch
// (a force-push is a *gitcli.ForcePushError) and resolves it.
func (s Source) FetchResultCommit(ctx context.Context) (string, error) {
	return taskfetch.FetchCommit(ctx, s.Git, s.Policy, s.Branch())
}

type Snapshot struct {
	Commit string
	Data   []byte // the exact bytes; nil when the file is not there
	Digest string // SHA-256 of Data; "" when the file is not there
}

// ReadResult reads RX_RESULT.json at commit, bounded; a missing file is a
// Snapshot without data.
func (s Source) ReadResult(ctx context.Context, commit string) (Snapshot, error) {
	data, err := s.Git.ShowFile(ctx, commit, s.ResultPath(), s.Policy.Limits.MaxResultBytes)
	if err != nil {
		if errors.Is(err, gitcli.ErrNotFound) {
			return Snapshot{Commit: commit}, nil
		}
		return Snapshot{}, err
	}
	return Snapshot{Commit: commit, Data: data, Digest: result.SHA256(data)}, nil
}

// VerifyResult checks, when signers are set, that snap's commit speaks for
// RX_RESULT.json (PROTOCOL#trust). A tip that does not is NotSpeaking
// (refuse, never retry); any other error is git failing (retry).
func (s Source) VerifyResult(ctx context.Context, snap Snapshot, now time.Time) (*gitcli.Signature, error) {
	allowed := s.signersPath()
	if allowed == "" || snap.Data == nil {
		return nil, nil
	}
	sig, err := s.Git.VerifyTip(ctx, snap.Commit, s.ResultPath(), allowed)
	if err != nil {
		return nil, err
	}
	if err := taskfetch.ReadCert(ctx, s.Git, allowed, s.ResultPath(), &sig); err != nil {
		return nil, err
	}
	if err := taskfetch.KeyValid(allowed, sig, s.ResultPath(), config.KeyTime{What: "now", At: now}); err != nil {
		return nil, err
	}
	return &sig, nil
}

func NotSpeaking(err error) bool {
	var badSig *gitcli.SignatureError
	var badTip *gitcli.TipError
	return errors.As(err, &badSig) || errors.As(err, &badTip)
}

// CheckSigned is what a READY signed by sig must also pass (PROTOCOL#trust):
// the key valid at published_at too, and the committer date within the
// publication age of it (git checked the key's window at that date).
func (s Source) CheckSigned(sig *gitcli.Signature, r *result.Result, lim config.Limits) error {
	if sig == nil || r == nil || r.State != result.StateReady {
		return nil
	}
	errs := []error{taskfetch.KeyValid(s.signersPath(), *sig, s.ResultPath(), // nil is dropped by List
		config.KeyTime{What: "the result's published_at", At: r.PublishedAt})}
	if d := sig.CommittedAt.Sub(r.PublishedAt).Abs(); d > lim.PublicationAge() {
		errs = append(errs, fmt.Errorf("commit %s: committer date %s is %s away from published_at %s (more than %s): inconsistent, refused",
			sig.Commit, sig.CommittedAt.Format(time.RFC3339), d.Truncate(time.Second), r.PublishedAt.Format(time.RFC3339), lim.PublicationAgeName()))
	}
	return errlist.List(errs...)
}

// CompletedError refuses a READY for a task that is over (PROTOCOL#trust).
func CompletedError(st *state.TX, r *result.Result) error {
	if r == nil || r.State != result.StateReady {
		return nil
	}
	return TaskOver(st, r.TaskID)
}

func TaskOver(st *state.TX, taskID string) error {
	if at, ok := st.CompletedAt(taskID); ok {
		return fmt.Errorf("task %s is over: a CAPTURE_COMPLETE for it was seen at result commit %s, so no READY for it is offered or run again", taskID, at)
	}
	if at, ok := st.OverUnreadAt(taskID); ok {
		return fmt.Errorf("task %s is over: the look at result commit %s found more than %d results since the last one and read only those nearest the tip, "+
			"so a CAPTURE_COMPLETE for it could not be ruled out; no READY for it is offered or run again", taskID, at, MaxLookResults)
	}
	return nil
}

func Fingerprint(sig *gitcli.Signature) string {
	if sig == nil {
		return ""
	}
	return sig.Fingerprint
}

// CurrentTask fetches the task branch and returns the valid task on it.
func (s Source) CurrentTask(ctx context.Context) (*task.Task, error) {
	cur, err := taskfetch.Fetch(ctx, s.Git, s.Policy)
	if err != nil {
		return nil, err
	}
	return cur.Task, nil
}

// DecodeNode decodes snap strictly, with or without alignment (which one
// the current task needs is DecodeFor's).
func (s Source) DecodeNode(snap Snapshot) (*result.Result, result.NodeFields, error) {
	return result.DecodeNode(snap.Data, result.Options{MaxBytes: s.Policy.Limits.MaxResultBytes, Node: s.Node.Name, SyncMode: result.AnySync})
}

// DecodeFor decodes the READY of cur: with its START_AT and SYNC_MODE it
// needs alignment with both, without them none (PROTOCOL#result).
func (s Source) DecodeFor(snap Snapshot, cur *task.Task) (*result.Result, error) {
	r, _, err := result.DecodeNode(snap.Data, result.Options{MaxBytes: s.Policy.Limits.MaxResultBytes, Node: s.Node.Name,
		SyncMode: result.SyncMode(cur.Capture.SyncMode), StartAt: cur.Capture.StartAt})
	return r, err
}
