package mirror

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// packs lists the mirror's .pack files.
func packs(dir string) map[string]bool {
	found, _ := filepath.Glob(filepath.Join(dir, "objects", "pack", "pack-*.pack"))
	out := make(map[string]bool, len(found))
	for _, p := range found {
		out[p] = true
	}
	return out
}

// checkObjects judges the packs a branch fetch brought (PROTOCOL#mirror)
// with git fsck, before the branch is accepted: a harmless malformation
// (a bad date, a zero-padded mode, ...) is let through and reported once,
// here, naming the object (the pack is kept, so no later fetch brings it
// again); an object git refuses undoes the fetch (the tracking ref goes
// back to its anchor, the new packs are removed) and is an
// error naming it and saying what the remote's owner must do. The caller
// holds the mirror lock.
func (m *Mirror) checkObjects(ctx context.Context, branches []string, before map[string]bool) error {
	var fresh []string
	for p := range packs(m.Dir) {
		if !before[p] {
			fresh = append(fresh, p)
		}
	}
	if len(fresh) == 0 {
		return nil // nothing new arrived: every object here was checked when it came
	}
	errs, warns, err := m.git.FsckPacks(ctx, fresh)
	branch := strings.Join(branches, ",") // how messages name what was fetched
	if len(branches) > 1 {
		branch = "{" + branch + "}"
	}
	for _, w := range warns {
		m.log.Warn("accepted an object git finds malformed but harmless: "+w.String(),
			"mirror", m.Dir, "branch", m.Remote+"/"+branch)
	}
	if err == nil && len(errs) == 0 {
		return nil
	}
	undo := m.undoFetch(ctx, branches, fresh)
	if err != nil {
		return fmt.Errorf("mirror: checking the objects fetched for %s/%s: %w; nothing was accepted%s", m.Remote, branch, err, undo)
	}
	names := make([]string, len(errs))
	for i, e := range errs {
		names[i] = e.String()
	}
	return fmt.Errorf("%s/%s brings an object git refuses as unsafe to check out: %s; nothing was accepted from this fetch%s. "+
		"What to do: the remote's owner must take the commit that brings it off the branch (reset the branch to a commit "+
		"before it and push again); as long as the new history contains the last tip fetched here (%s), this side takes it "+
		"with no action of its own", m.Remote, branch, strings.Join(names, "; "), undo, m.anchorsOf(branches))
}

// anchorsOf is the anchored tip of each branch, or "none yet"; one
// branch's alone, as before, for a fetch of one.
func (m *Mirror) anchorsOf(branches []string) string {
	anchors, err := readAnchors(AnchorsPath(m.Dir))
	var out []string
	for _, b := range branches {
		a := "none yet"
		if err == nil && anchors[b] != "" {
			a = anchors[b]
		}
		if len(branches) == 1 {
			return a
		}
		out = append(out, b+": "+a)
	}
	return strings.Join(out, ", ")
}

// undoFetch puts the tracking ref of branch back to its anchor (or
// removes it when there is none yet) and removes the packs the fetch
// brought. It returns "" or what could not be undone.
func (m *Mirror) undoFetch(ctx context.Context, branches []string, packs []string) string {
	var failed []string
	anchors, aerr := readAnchors(AnchorsPath(m.Dir))
	for _, branch := range branches {
		ref := "refs/remotes/" + m.Remote + "/" + branch
		err := aerr
		if err == nil {
			if old, ok := anchors[branch]; ok {
				err = m.git.SetRef(ctx, ref, old)
			} else {
				err = m.git.DeleteRef(ctx, ref)
			}
		}
		if err != nil {
			failed = append(failed, fmt.Sprintf("resetting %s: %v", ref, err))
		}
		delete(m.vouched, branch)
	}
	for _, p := range packs {
		base := strings.TrimSuffix(p, ".pack")
		for _, ext := range []string{".pack", ".idx", ".promisor", ".rev", ".keep"} {
			if err := os.Remove(base + ext); err != nil && !os.IsNotExist(err) {
				failed = append(failed, err.Error())
			}
		}
	}
	if len(failed) == 0 {
		return ""
	}
	return " (undoing it failed: " + strings.Join(failed, "; ") + ")"
}
