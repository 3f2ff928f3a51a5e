package publish

import (
	"context"
	"fmt"
	"slices"

	"rfhandoff/exec"
	"rfhandoff/gitcli"
)

// freshClone makes a temporary clone of the result branch alone (shallow, never checked out).
// cleanup removes it whatever happens (deferred, so also on a panic or a cancelled context).
func freshClone(ctx context.Context, d Deps, url, branch string) (*gitcli.Client, func(), error) {
	g := &gitcli.Client{R: d.runner(), Timeout: d.Git.Timeout, Identity: d.Git.Identity,
		SigningKey: d.Policy.SigningKeyPath()} // "" signs nothing
	// A publisher killed part-way cannot remove its clone; the next one does.
	if removed, err := gitcli.RemoveStaleClones(""); err != nil {
		d.logger().Warn("removing stale publish clones", "err", err)
	} else if len(removed) > 0 {
		d.logger().Info("removed clones left by killed publishers", "dirs", removed)
	}
	clone, cleanup, err := g.TempClone(ctx, url, branch)
	if err != nil {
		return nil, cleanup, fmt.Errorf("cloning result branch %s from %s: %w", branch, exec.RedactURL(url), err)
	}
	return clone, cleanup, nil
}

// attempt is one publish from a fresh clone. No work tree is ever checked out or written, so
// no filter or attribute can touch a byte.
func attempt(ctx context.Context, d Deps, c *checked, clone *gitcli.Client, files []file) (Outcome, error) {
	dir := d.Policy.Repo.ResultDir
	// The committer is read from the clone's config beside the reads and
	// the object write below; the commit waits for it.
	identityOf := clone.IdentityLater(ctx)
	defer identityOf() // never outlives the attempt
	levels, err := clone.DirLevels(ctx, "HEAD", dir)
	if err != nil {
		return Outcome{}, err
	}
	if err := checkLevels(ctx, clone, levels, dir, files); err != nil {
		return Outcome{}, err
	}
	if verifyBlobs(nil, levels, files) == nil {
		// The branch already holds every file as a 100644 blob of exactly its bytes: stop.
		head, err := clone.Head(ctx)
		if err != nil {
			return Outcome{}, err
		}
		return Outcome{Commit: head, NoOp: true}, nil
	}
	blobs := make(map[string][]byte, len(files))
	for _, f := range files {
		blobs[f.name()] = f.data
	}
	tree, objs, err := gitcli.ReplaceInDir(levels, dir, blobs)
	if err != nil {
		return Outcome{}, err
	}
	if err := clone.WriteObjects(ctx, objs); err != nil {
		return Outcome{}, err
	}
	if clone.Identity, err = identityOf(); err != nil {
		return Outcome{}, err
	}
	chain, err := d.Audit.Head()
	if err != nil {
		return Outcome{}, fmt.Errorf("reading the audit chain head for the commit trailer: %w", err)
	}
	if chain == "" {
		return Outcome{}, fmt.Errorf("audit log %s is empty: nothing for the %s trailer to name", d.Audit.Path(), AuditTrailer)
	}
	task := "task commit " + c.taskCommit
	if c.taskCommit == "" {
		task = "the task branch moved on after READY"
	}
	msg := fmt.Sprintf("rx result: %s %s\n\nsource_head %s, %s.\nPublished by rfhandoff.",
		c.res.TaskID, c.res.State, c.res.SourceHead, task)
	commit, err := clone.CommitTree(ctx, tree, "HEAD", msg, []gitcli.Trailer{{Key: AuditTrailer, Value: chain}})
	if err != nil {
		return Outcome{}, err
	}
	// Read the commit back as git sees it.
	changes, err := clone.TreeChanges(ctx, "HEAD", commit)
	if err != nil {
		return Outcome{}, err
	}
	if err := checkStaged(changes, files); err != nil {
		return Outcome{}, err
	}
	if err := verifyBlobs(changes, levels, files); err != nil {
		return Outcome{}, err
	}
	// Push the verified commit by ID, never with force.
	if err := clone.Push(ctx, "origin", commit, c.branch); err != nil {
		return Outcome{}, err
	}
	return Outcome{Commit: commit}, nil
}

// checkStaged accepts only the result files, each added or modified as a regular 100644 file.
func checkStaged(changes []gitcli.StagedChange, files []file) error {
	for _, ch := range changes {
		switch {
		case !slices.ContainsFunc(files, func(f file) bool { return f.path == ch.Path }):
			return stagedSet(ch, "not one of the result files")
		case ch.Status != 'A' && ch.Status != 'M':
			return stagedSet(ch, "a result file may only be added or modified")
		case ch.NewMode != gitcli.ModeFile:
			return stagedSet(ch, "a result file must be a regular file (100644)")
		}
	}
	return nil
}

// verifyBlobs checks that the new commit holds each file as a 100644 blob of exactly its
// bytes: as a change when it changed, else as the parent's entry.
func verifyBlobs(changes []gitcli.StagedChange, parent []gitcli.TreeEntry, files []file) error {
	for _, f := range files {
		want := gitcli.BlobID(f.data)
		got, mode := "", gitcli.Mode("")
		for _, e := range parent {
			if e.Path == f.path {
				got, mode = e.ID, e.Mode
			}
		}
		for _, ch := range changes {
			if ch.Path == f.path {
				got, mode = ch.NewID, ch.NewMode
			}
		}
		if got != want || mode != gitcli.ModeFile {
			// Git attributes or configuration transformed the bytes.
			return fmt.Errorf("refusing to push: %s was committed as blob %s mode %s, not the exact bytes written (blob %s mode %s)",
				f.path, got, mode, want, gitcli.ModeFile)
		}
	}
	return nil
}
