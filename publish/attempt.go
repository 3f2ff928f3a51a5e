package publish

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"strconv"

	"rfhandoff/exec"
	"rfhandoff/gitcli"
)

// attempt is one publish from a fresh clone: write, stage, check, commit,
// verify, push. The clone is removed whatever happens (the deferred
// cleanup also runs on a panic or a cancelled context).
func attempt(ctx context.Context, d Deps, c *checked, url string, files []file) (Outcome, error) {
	g := &gitcli.Client{R: d.runner(), Timeout: d.Git.Timeout, Identity: d.Git.Identity,
		SigningKey: d.Policy.SigningKeyPath()} // "" signs nothing
	// A publisher killed part-way cannot remove its clone; the next one does.
	if removed, err := gitcli.RemoveStaleClones(""); err != nil {
		d.logger().Warn("removing stale publish clones", "err", err)
	} else if len(removed) > 0 {
		d.logger().Info("removed clones left by killed publishers", "dirs", removed)
	}
	clone, cleanup, err := g.TempClone(ctx, url, c.branch)
	defer cleanup()
	if err != nil {
		return Outcome{}, fmt.Errorf("cloning result branch %s from %s: %w", c.branch, exec.RedactURL(url), err)
	}
	if err := prepareDir(clone.Dir, d.Policy.Repo.ResultDir); err != nil {
		return Outcome{}, err
	}
	paths := make([]string, len(files))
	for i, f := range files {
		if err := writeFile(clone.Dir, f); err != nil {
			return Outcome{}, err
		}
		paths[i] = f.path
	}
	if err := clone.Add(ctx, paths...); err != nil {
		return Outcome{}, err
	}
	changes, err := clone.StagedChanges(ctx)
	if err != nil {
		return Outcome{}, err
	}
	if err := checkStaged(changes, files); err != nil {
		return Outcome{}, err
	}
	if len(changes) == 0 {
		// The branch already holds these files: prove it, then stop.
		head, err := clone.Head(ctx)
		if err != nil {
			return Outcome{}, err
		}
		if err := verifyBlobs(ctx, clone, head, files); err != nil {
			return Outcome{}, err
		}
		return Outcome{Commit: head, NoOp: true}, nil
	}
	chain, err := d.Audit.Head()
	if err != nil {
		return Outcome{}, fmt.Errorf("reading the audit chain head for the commit trailer: %w", err)
	}
	if chain == "" {
		return Outcome{}, fmt.Errorf("audit log %s is empty: nothing for the %s trailer to name", d.Audit.Path(), AuditTrailer)
	}
	msg := fmt.Sprintf("rx result: %s %s\n\nsource_head %s, task commit %s.\nPublished by rfhandoff.",
		c.res.TaskID, c.res.State, c.res.SourceHead, c.cur.Commit)
	commit, err := clone.Commit(ctx, msg, []gitcli.Trailer{{Key: AuditTrailer, Value: chain}})
	if err != nil {
		return Outcome{}, err
	}
	if err := verifyBlobs(ctx, clone, commit, files); err != nil {
		return Outcome{}, err
	}
	// Push the verified commit by ID, never with force.
	if err := clone.Push(ctx, "origin", commit, c.branch); err != nil {
		return Outcome{}, err
	}
	return Outcome{Commit: commit}, nil
}

// checkStaged accepts only the result files, each added or modified as a
// regular 100644 file. An empty set is fine (nothing changed).
func checkStaged(changes []gitcli.StagedChange, files []file) error {
	want := make(map[string]bool, len(files))
	for _, f := range files {
		want[f.path] = true
	}
	for _, ch := range changes {
		switch {
		case !want[ch.Path]:
			return &StagedSetError{Change: ch, Reason: "not one of the result files"}
		case ch.Status != 'A' && ch.Status != 'M':
			return &StagedSetError{Change: ch, Reason: "a result file may only be added or modified"}
		case ch.NewMode != gitcli.ModeFile:
			return &StagedSetError{Change: ch, Reason: "a result file must be a regular file (100644)"}
		}
	}
	return nil
}

// verifyBlobs checks that commit holds each file as a 100644 blob of
// exactly its bytes.
func verifyBlobs(ctx context.Context, clone *gitcli.Client, commit string, files []file) error {
	for _, f := range files {
		e, err := clone.Entry(ctx, commit, f.path)
		if err != nil {
			return err
		}
		want := blobID(f.data)
		if e.ID != want || e.Mode != gitcli.ModeFile {
			return &ContentError{Path: f.path, Want: want, Got: e.ID, WantMode: gitcli.ModeFile, GotMode: e.Mode}
		}
	}
	return nil
}

// blobID is git's (SHA-1) object ID of a blob holding data.
func blobID(data []byte) string {
	h := sha1.New()
	h.Write([]byte("blob " + strconv.Itoa(len(data)) + "\x00"))
	h.Write(data)
	return hex.EncodeToString(h.Sum(nil))
}
