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

// resultFile is the result's name inside repo.result_dir.
const resultFile = "RX_RESULT.json"

// Source reads the result branch and the task branch through the MAIN
// side's mirror.
type Source struct {
	Git    ResultRepo
	Policy config.Policy
	// Node, for a node's branch (PROTOCOL#several-nodes), is that [[nodes]] table:
	// its branch is read instead of repo.result_branch, its result_signers
	// (when set) instead of trust.result_signers, and only a node result
	// (schema_version 2) naming it decodes. The zero MainNode is the
	// single node of PROTOCOL#main-pc.
	Node config.MainNode
}

// ForNode is s reading node's branch.
func (s Source) ForNode(n config.MainNode) Source { s.Node = n; return s }

// Branch is the result branch s reads.
func (s Source) Branch() string {
	if s.Node.ResultBranch != "" {
		return s.Node.ResultBranch
	}
	return s.Policy.Repo.ResultBranch
}

// signersPath is the allowed-signers file results on s's branch must be
// signed by: the node's own when it has one (a key listed for rx-a cannot
// speak for rx-b), else trust.result_signers; "" for none.
func (s Source) signersPath() string {
	if s.Node.ResultSigners != "" {
		return s.Policy.NodeResultSignersPath(s.Node)
	}
	return s.Policy.ResultSignersPath()
}

// ResultRepo is where the MAIN side reads both branches: taskfetch's Repo,
// the check that the result branch's tip speaks for the result, and the
// results since a look (mirror.Mirror's).
type ResultRepo interface {
	taskfetch.Repo
	FetchBranchesUpdated(ctx context.Context, remote string, branches []string) (map[string]gitcli.FetchUpdate, error)
	VerifyTip(ctx context.Context, tip, path, allowedSigners string) (gitcli.Signature, error)
	FileHistorySince(ctx context.Context, commit, since, path string, maxBytes int64, maxCommits int) ([]gitcli.FileVersion, bool, error)
}

// ResultPath is RX_RESULT.json's path in the result branch's tree.
func (s Source) ResultPath() string { return path.Join(s.Policy.Repo.ResultDir, resultFile) }

// FetchResultCommit does the one narrow fetch of the result branch
// (refspec without '+': a force-pushed branch is a *gitcli.ForcePushError)
// and resolves the fetched commit once (two git processes; tx watch's
// own poll skips the second when nothing moved).
func (s Source) FetchResultCommit(ctx context.Context) (string, error) {
	return taskfetch.FetchCommit(ctx, s.Git, s.Policy, s.Branch())
}

// Snapshot is RX_RESULT.json as read from one commit of the result branch.
type Snapshot struct {
	Commit string
	Data   []byte // the exact bytes; nil when the file is not there
	Digest string // SHA-256 of Data; "" when the file is not there
}

// ReadResult reads RX_RESULT.json at commit: a regular file, its size
// checked against max_result_bytes before anything is read. A missing file
// is a Snapshot without data, not an error.
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

// VerifyResult checks, when trust.result_signers is set, that the result
// branch's tip (snap's commit) speaks for RX_RESULT.json (PROTOCOL#trust): a
// single-parent commit that changed the file itself, with a good signature
// by a key listed now, inside its valid-after/valid-before window at now
// (and a certificate's validity, read from the signature: see
// taskfetch.ReadCert). It returns the signature, with its certificate
// for CheckSigned; nil, nil when no signature is required or
// there is no file. A tip that does not speak is a *gitcli.TipError or a
// *gitcli.SignatureError ("no valid result now": refuse, never retry);
// any other error is git failing (retry).
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

// NotSpeaking reports whether err from VerifyResult means the tip does
// not speak for a result (refused, reported once per tip), not a failure.
func NotSpeaking(err error) bool {
	var badSig *gitcli.SignatureError
	var badTip *gitcli.TipError
	return errors.As(err, &badSig) || errors.As(err, &badTip)
}

// CheckSigned is what a READY signed by sig must also pass (PROTOCOL#trust):
// the key inside its window (a certificate, inside its validity) at the
// result's published_at too, and the commit's committer date within
// the publication age limit of published_at (a commit dated otherwise is
// inconsistent: its date is the signer's word, and git checked the key's
// window at that date); lim is the task's (config.Policy.ForTask). nil
// when no signature is required.
func (s Source) CheckSigned(sig *gitcli.Signature, r *result.Result, lim config.Limits) error {
	if sig == nil || r == nil || r.State != result.StateReady {
		return nil
	}
	var errs []error
	if err := taskfetch.KeyValid(s.signersPath(), *sig, s.ResultPath(),
		config.KeyTime{What: "the result's published_at", At: r.PublishedAt}); err != nil {
		errs = append(errs, err)
	}
	if d := sig.CommittedAt.Sub(r.PublishedAt).Abs(); d > lim.PublicationAge() {
		errs = append(errs, fmt.Errorf("commit %s: committer date %s is %s away from published_at %s (more than %s): inconsistent, refused",
			sig.Commit, sig.CommittedAt.Format(time.RFC3339), d.Truncate(time.Second), r.PublishedAt.Format(time.RFC3339), lim.PublicationAgeName()))
	}
	return errlist.List(errs...)
}

// CompletedError refuses a READY for a task the MAIN side saw a
// CAPTURE_COMPLETE for (PROTOCOL#trust), or is nil.
func CompletedError(st *state.TX, r *result.Result) error {
	if r == nil || r.State != result.StateReady {
		return nil
	}
	return TaskOver(st, r.TaskID)
}

// TaskOver says that taskID is over for the MAIN side, or is nil.
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

// Fingerprint is what a record keeps of a signer ("" for none).
func Fingerprint(sig *gitcli.Signature) string {
	if sig == nil {
		return ""
	}
	return sig.Fingerprint
}

// CurrentTask fetches the task branch and returns the valid task on it
// (taskfetch: size, strict parse, EXPECTED_HEAD ancestry).
func (s Source) CurrentTask(ctx context.Context) (*task.Task, error) {
	cur, err := taskfetch.Fetch(ctx, s.Git, s.Policy)
	if err != nil {
		return nil, err
	}
	return cur.Task, nil
}

// DecodeNode parses a snapshot's bytes strictly under the policy's size
// limit, with a node result's own keys; for a node's
// branch only a node result naming that node decodes. It accepts results
// with and without alignment (result.AnySync): which one the current task
// needs is DecodeFor's.
func (s Source) DecodeNode(snap Snapshot) (*result.Result, result.NodeFields, error) {
	return result.DecodeNode(snap.Data, result.Options{MaxBytes: s.Policy.Limits.MaxResultBytes, Node: s.Node.Name, SyncMode: result.AnySync})
}

// DecodeFor is DecodeNode for the READY of cur, the current task: with its
// START_AT and SYNC_MODE a result needs alignment with both (schema_version
// 3), without them it must have none (PROTOCOL#result).
func (s Source) DecodeFor(snap Snapshot, cur *task.Task) (*result.Result, error) {
	r, _, err := result.DecodeNode(snap.Data, result.Options{MaxBytes: s.Policy.Limits.MaxResultBytes, Node: s.Node.Name,
		SyncMode: result.SyncMode(cur.Capture.SyncMode), StartAt: cur.Capture.StartAt})
	return r, err
}
