package mirror

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"

	"rfhandoff/gitcli"
	"rfhandoff/localfile"
	"rfhandoff/localfile/private"
)

// anchorsSuffix names <mirror>.anchors, the last accepted tip per branch.
// It lives outside the mirror so that a rebuilt mirror still refuses a
// rewritten branch (PROTOCOL#mirror).
const anchorsSuffix = ".anchors"

// AnchorsPath is the anchors file of the mirror at dir.
func AnchorsPath(dir string) string { return dir + anchorsSuffix }

// maxAnchorsBytes bounds the read of an anchors file: one line per branch.
const maxAnchorsBytes = 1 << 20

// readAnchors reads "<commit> <branch>" lines. A file that is not exactly
// that is an error naming it, never a silent reset: forgetting an anchor
// would accept a rewritten branch.
func readAnchors(path string) (map[string]string, error) {
	data, err := private.Read(path, maxAnchorsBytes)
	if errors.Is(err, os.ErrNotExist) {
		return map[string]string{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("mirror anchors %s: %w", path, err)
	}
	out := map[string]string{}
	for n, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		commit, branch, ok := strings.Cut(line, " ")
		if !ok || gitcli.ValidObjectID(commit) != nil || gitcli.ValidBranch(branch) != nil {
			return nil, fmt.Errorf("mirror anchors %s: line %d %q: want \"<commit ID> <branch>\" (remove the file only to re-anchor: see OPERATIONS)", path, n+1, line)
		}
		out[branch] = commit
	}
	return out, nil
}

func writeAnchors(path string, anchors map[string]string) error {
	var b strings.Builder
	for _, br := range slices.Sorted(maps.Keys(anchors)) {
		b.WriteString(anchors[br] + " " + br + "\n")
	}
	return localfile.WriteFileAtomic(path, []byte(b.String()), 0o600)
}

// checkAnchor returns the fetched tip once it contains the anchored one, and
// anchors it. Otherwise it is a *gitcli.ForcePushError and the tracking ref
// is removed, so the next fetch is checked again rather than taken as a
// fast-forward from the rewritten tip. The caller holds the mirror lock.
func (m *Mirror) checkAnchor(ctx context.Context, branch string) (string, error) {
	ref := "refs/remotes/" + m.Remote + "/" + branch
	tip, err := m.git.ResolveCommit(ctx, ref)
	if err != nil {
		return "", err
	}
	path := AnchorsPath(m.Dir)
	anchors, err := readAnchors(path)
	if err != nil {
		return "", err
	}
	old, had := anchors[branch]
	// Once vouched for, the ref only moves by git's non-forced fetch,
	// which refuses anything but a fast-forward: no second check.
	if had && old != tip && !m.vouched[branch] {
		ok, err := m.git.IsAncestorPresent(ctx, old, tip)
		if err != nil {
			return "", fmt.Errorf("mirror: checking %s against its last accepted tip %s: %w", ref, old, err)
		}
		if !ok {
			if err := m.git.DeleteRef(ctx, ref); err != nil {
				m.log.Warn("removing the refused tracking ref failed", "mirror", m.Dir, "ref", ref, "err", err)
			}
			return "", &gitcli.ForcePushError{Remote: m.Remote, Branch: branch,
				Reason: fmt.Sprintf("the tip %s does not contain %s, the last tip accepted (kept in %s)", tip, old, path)}
		}
	}
	if !had || old != tip {
		anchors[branch] = tip
		if err := writeAnchors(path, anchors); err != nil {
			return "", fmt.Errorf("mirror: recording the accepted tip of %s: %w", branch, err)
		}
	}
	m.vouched[branch] = true
	return tip, nil
}
