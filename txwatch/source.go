package txwatch

import (
	"context"
	"errors"
	"path"

	"rfhandoff/config"
	"rfhandoff/gitcli"
	"rfhandoff/result"
	"rfhandoff/task"
	"rfhandoff/taskfetch"
)

// ResultFile is the result's name inside repo.result_dir.
const ResultFile = "RX_RESULT.json"

// Source reads the result branch and the task branch through the MAIN
// side's mirror.
type Source struct {
	Git    taskfetch.Repo
	Policy config.Policy
}

// ResultPath is RX_RESULT.json's path in the result branch's tree.
func (s Source) ResultPath() string { return path.Join(s.Policy.Repo.ResultDir, ResultFile) }

// FetchResultCommit does the one narrow fetch of the result branch
// (refspec without '+': a force-pushed branch is a *gitcli.ForcePushError)
// and resolves the fetched commit once (two git processes; tx watch's
// own poll skips the second when nothing moved).
func (s Source) FetchResultCommit(ctx context.Context) (string, error) {
	return taskfetch.FetchCommit(ctx, s.Git, s.Policy, s.Policy.Repo.ResultBranch)
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
		var nf *gitcli.NotFoundError
		if errors.As(err, &nf) {
			return Snapshot{Commit: commit}, nil
		}
		return Snapshot{}, err
	}
	return Snapshot{Commit: commit, Data: data, Digest: result.SHA256(data)}, nil
}

// VerifyResult checks, when trust.result_signers is set, that the commit
// that last changed RX_RESULT.json on snap's commit carries a good
// signature by a listed key, and returns it; nil, nil when no signature is
// required or there is no file. A bad or missing signature is a
// *gitcli.SignatureError (refuse the result like an invalid one); any
// other error is git failing (retry).
func (s Source) VerifyResult(ctx context.Context, snap Snapshot) (*gitcli.Signature, error) {
	allowed := s.Policy.ResultSignersPath()
	if allowed == "" || snap.Data == nil {
		return nil, nil
	}
	sig, err := s.Git.VerifyLastChange(ctx, snap.Commit, s.ResultPath(), allowed)
	if err != nil {
		return nil, err
	}
	return &sig, nil
}

// signerFingerprint is what a record keeps of a signer ("" for none).
func signerFingerprint(sig *gitcli.Signature) string {
	if sig == nil {
		return ""
	}
	return sig.Fingerprint
}

// Fetch is FetchResultCommit then ReadResult.
func (s Source) Fetch(ctx context.Context) (Snapshot, error) {
	commit, err := s.FetchResultCommit(ctx)
	if err != nil {
		return Snapshot{}, err
	}
	return s.ReadResult(ctx, commit)
}

// CurrentTaskID fetches the task branch and returns the ID of the valid
// task on it (taskfetch: size, strict parse, EXPECTED_HEAD ancestry).
func (s Source) CurrentTaskID(ctx context.Context) (string, error) {
	t, err := s.CurrentTask(ctx)
	if err != nil {
		return "", err
	}
	return t.ID, nil
}

// CurrentTask is CurrentTaskID's task itself, for what a notification
// may say about it (its title and effective risk level, PROTOCOL §21).
func (s Source) CurrentTask(ctx context.Context) (*task.Task, error) {
	cur, err := taskfetch.Fetch(ctx, s.Git, s.Policy)
	if err != nil {
		return nil, err
	}
	return cur.Task, nil
}

// Decode parses a snapshot's bytes strictly under the policy's size limit.
func (s Source) Decode(snap Snapshot) (*result.Result, error) {
	return result.Decode(snap.Data, result.Options{MaxBytes: s.Policy.Limits.MaxResultBytes})
}
