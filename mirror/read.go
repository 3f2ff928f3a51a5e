package mirror

import (
	"context"
	"fmt"

	"rfhandoff/gitcli"
)

// FetchBranchUpdated is gitcli's narrow, non-forced fetch of one branch
// into refs/remotes/<remote>/<branch>, blobless. The refusal of a
// force-push and the report of whether the ref moved are gitcli's; the
// first fetch of a branch after Open or a rebuild is also checked against
// the tip last accepted (the anchors file, see checkAnchor), so a rebuilt
// mirror refuses a rewritten branch too.
func (m *Mirror) FetchBranchUpdated(ctx context.Context, remote, branch string) (gitcli.FetchUpdate, error) {
	ups, err := m.FetchBranchesUpdated(ctx, remote, []string{branch})
	if err != nil {
		return gitcli.FetchUpdate{}, err
	}
	return ups[branch], nil
}

// FetchBranchesUpdated is FetchBranchUpdated for several branches in one
// git fetch (PROTOCOL#several-nodes: tx watch's idle poll of every node's branch is
// still one subprocess). The objects are judged once for all of them;
// each branch keeps its own anchor, checked as FetchBranchUpdated checks
// one. An error from any branch fails the whole fetch.
func (m *Mirror) FetchBranchesUpdated(ctx context.Context, remote string, branches []string) (map[string]gitcli.FetchUpdate, error) {
	if remote != m.Remote {
		return nil, fmt.Errorf("mirror: it mirrors remote %s, not %s", m.Remote, remote)
	}
	unlock, err := m.lock(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	if err := m.ensure(ctx); err != nil {
		return nil, err
	}
	before := packs(m.Dir)
	ups, err := m.git.FetchBranchesUpdated(ctx, remote, branches)
	if len(branches) > 0 {
		m.git.Promisor.Branch = branches[0]
	}
	if err != nil {
		removeStaleGitFiles(m.Dir) // an interrupted git leaves tmp_pack_*
		return nil, err
	}
	if err := m.checkObjects(ctx, branches, before); err != nil {
		return nil, err
	}
	moved := false
	for _, branch := range branches {
		u := ups[branch]
		if !m.vouched[branch] || u.MayHaveMoved() {
			if u.Tip, err = m.checkAnchor(ctx, branch); err != nil {
				return nil, err
			}
			ups[branch] = u
		}
		moved = moved || u.MayHaveMoved()
	}
	if moved {
		m.compact(ctx)
	}
	return ups, nil
}

// ResolveCommit resolves ref in the mirror.
func (m *Mirror) ResolveCommit(ctx context.Context, ref string) (string, error) {
	return m.git.ResolveCommit(ctx, ref)
}

// IsAncestor reports whether a is an ancestor of b in the mirror. The
// mirror holds the whole commit history of what it fetched (no depth), so
// a commit it does not have is no ancestor: it is answered so, rather than
// letting merge-base fetch it from the promisor remote outside the runner
// (gitcli.IsAncestorPresent: one call).
func (m *Mirror) IsAncestor(ctx context.Context, a, b string) (bool, error) {
	return m.git.IsAncestorPresent(ctx, a, b)
}

// ShowFile reads the file at path in commit, fetching its blob first when
// it is missing and within maxBytes (see gitcli.ShowFile).
func (m *Mirror) ShowFile(ctx context.Context, commit, path string, maxBytes int64) (data []byte, err error) {
	err = m.fetching(ctx, func() (err error) {
		data, err = m.git.ShowFile(ctx, commit, path, maxBytes)
		return err
	})
	return data, err
}

// VerifyLastChange checks the signature of the commit that last changed
// path (gitcli's; history and signatures need commits and trees only).
func (m *Mirror) VerifyLastChange(ctx context.Context, commit, path, allowedSigners string) (gitcli.Signature, error) {
	return m.git.VerifyLastChange(ctx, commit, path, allowedSigners)
}

// FileHistory lists every version of the file at path in commit's history
// and reads those within maxBytes (gitcli's, in its partial-clone form:
// the missing ones come in one fetch bounded by maxBytes, never one lazy
// fetch per blob; one withheld as over the limit has Size -1).
func (m *Mirror) FileHistory(ctx context.Context, commit, path string, maxBytes int64) (v []gitcli.FileVersion, err error) {
	err = m.fetching(ctx, func() (err error) {
		v, err = m.git.FileHistory(ctx, commit, path, maxBytes)
		return err
	})
	return v, err
}

// VerifyTip checks that the tip itself is a signed single-parent commit
// that changed path (gitcli's; commits and trees only).
func (m *Mirror) VerifyTip(ctx context.Context, tip, path, allowedSigners string) (gitcli.Signature, error) {
	return m.git.VerifyTip(ctx, tip, path, allowedSigners)
}

// FileHistorySince is gitcli's FileHistorySince in the mirror, under its
// lock: every version path got in commit's history since since, at most
// maxCommits commits, the missing blobs fetched as FileHistory fetches
// them.
func (m *Mirror) FileHistorySince(ctx context.Context, commit, since, path string, maxBytes int64, maxCommits int) (v []gitcli.FileVersion, more bool, err error) {
	err = m.fetching(ctx, func() (err error) {
		v, more, err = m.git.FileHistorySince(ctx, commit, since, path, maxBytes, maxCommits)
		return err
	})
	return v, more, err
}

// fetching runs fn, a read that may fetch missing blobs, under the
// mirror's lock; when it fails, what an interrupted git leaves is removed.
func (m *Mirror) fetching(ctx context.Context, fn func() error) error {
	unlock, err := m.lock(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	if err := fn(); err != nil {
		removeStaleGitFiles(m.Dir)
		return err
	}
	return nil
}

// Commits reads commit objects (gitcli's; commits are always present in
// the mirror, and the IDs given are ones git named in it).
func (m *Mirror) Commits(ctx context.Context, ids ...string) ([]gitcli.CommitObject, error) {
	return m.git.Commits(ctx, ids...)
}

// FileChanges lists the commits that changed path in commit's history
// (gitcli's; commits and trees only).
func (m *Mirror) FileChanges(ctx context.Context, commit, path string) ([]gitcli.FileChange, error) {
	return m.git.FileChanges(ctx, commit, path)
}

// LastChange is the commit that last changed path on commit's history
// (gitcli's; commits and trees only).
func (m *Mirror) LastChange(ctx context.Context, commit, path string) (gitcli.FileChange, error) {
	return m.git.LastChange(ctx, commit, path)
}

// TrailerValues lists the values of a trailer key in the history of
// commit (gitcli's; commits only), as `audit verify --remote` reads the
// result branch's Audit-Chain-Head trailers.
func (m *Mirror) TrailerValues(ctx context.Context, commit, key string) ([]gitcli.CommitTrailers, error) {
	return m.git.TrailerValues(ctx, commit, key)
}

// RemoteBranchExists asks the remote whether branch exists, and its tip
// (ls-remote; nothing is fetched). It runs in the mirror, like every call
// to the remote, so that only config rfhandoff wrote (and the operator's
// global config) decides where git goes.
func (m *Mirror) RemoteBranchExists(ctx context.Context, branch string) (bool, string, error) {
	unlock, err := m.lock(ctx)
	if err != nil {
		return false, "", err
	}
	defer unlock()
	if err := m.ensure(ctx); err != nil {
		return false, "", err
	}
	return m.git.RemoteBranchExists(ctx, m.Remote, branch)
}
