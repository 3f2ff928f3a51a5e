package mirror

import (
	"context"
	"fmt"

	"rfhandoff/gitcli"
)

// FetchBranchUpdated is gitcli's narrow, non-forced, blobless fetch of one
// branch, also checked against the anchors file (checkAnchor) so that a
// rebuilt mirror refuses a rewritten branch too.
func (m *Mirror) FetchBranchUpdated(ctx context.Context, remote, branch string) (gitcli.FetchUpdate, error) {
	ups, err := m.FetchBranchesUpdated(ctx, remote, []string{branch})
	if err != nil {
		return gitcli.FetchUpdate{}, err
	}
	return ups[branch], nil
}

// FetchBranchesUpdated is FetchBranchUpdated for several branches in one
// git fetch (PROTOCOL#several-nodes), each with its own anchor. An error
// from any branch fails the whole fetch.
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

// IsAncestor answers from the mirror alone: it holds the whole commit
// history it fetched, so a missing commit is no ancestor, and merge-base
// must not fetch it lazily outside the runner.
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

// VerifyLastChange is gitcli's (commits and trees only).
func (m *Mirror) VerifyLastChange(ctx context.Context, commit, path, allowedSigners string) (gitcli.Signature, error) {
	return m.git.VerifyLastChange(ctx, commit, path, allowedSigners)
}

// FileHistory is gitcli's, under the lock: missing blobs come in one fetch
// bounded by maxBytes, never one lazy fetch per blob.
func (m *Mirror) FileHistory(ctx context.Context, commit, path string, maxBytes int64) (v []gitcli.FileVersion, err error) {
	err = m.fetching(ctx, func() (err error) {
		v, err = m.git.FileHistory(ctx, commit, path, maxBytes)
		return err
	})
	return v, err
}

// VerifyTip is gitcli's (commits and trees only).
func (m *Mirror) VerifyTip(ctx context.Context, tip, path, allowedSigners string) (gitcli.Signature, error) {
	return m.git.VerifyTip(ctx, tip, path, allowedSigners)
}

// FileHistorySince is gitcli's, fetching as FileHistory does.
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

// Commits is gitcli's: commits are always present in the mirror.
func (m *Mirror) Commits(ctx context.Context, ids ...string) ([]gitcli.CommitObject, error) {
	return m.git.Commits(ctx, ids...)
}

// FileChanges is gitcli's (commits and trees only).
func (m *Mirror) FileChanges(ctx context.Context, commit, path string) ([]gitcli.FileChange, error) {
	return m.git.FileChanges(ctx, commit, path)
}

// LastChange is gitcli's (commits and trees only).
func (m *Mirror) LastChange(ctx context.Context, commit, path string) (gitcli.FileChange, error) {
	return m.git.LastChange(ctx, commit, path)
}

// TrailerValues is gitcli's (commits only), for `audit verify --remote`.
func (m *Mirror) TrailerValues(ctx context.Context, commit, key string) ([]gitcli.CommitTrailers, error) {
	return m.git.TrailerValues(ctx, commit, key)
}

// RemoteBranchExists runs ls-remote in the mirror, like every call to the
// remote, so that only config rfhandoff wrote decides where git goes.
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
