package gitcli_test

import (
	"errors"
	"strings"
	"testing"

	"rfhandoff/gitcli"
	"rfhandoff/internal/gittest"
)

// TestFetchBranchUpdatedReal checks the parser against what real git
// prints: nothing when idle, an update line when the branch moved or the
// tracking ref is new, and the typed errors FetchBranch gives.
func TestFetchBranchUpdatedReal(t *testing.T) {
	const branch = "video-development"
	rem := gittest.NewBareRemote(t, "main", branch)
	dir := gittest.Clone(t, rem, "main")
	c := &gitcli.Client{R: rem.R, Dir: dir}
	ctx := t.Context()
	tracking := "refs/remotes/origin/" + branch

	// The clone already has the tracking ref: an idle fetch prints nothing.
	u, err := c.FetchBranchUpdated(ctx, "origin", branch)
	if err != nil || u.MayHaveMoved() {
		t.Fatalf("idle fetch: %+v, %v; want no change", u, err)
	}

	next := gittest.Seed(t, rem, branch, map[string]string{"docs/a.md": "a\n"})
	u, err = c.FetchBranchUpdated(ctx, "origin", branch)
	if err != nil || !u.Updated || u.Old == "" || !strings.HasPrefix(next, u.New) {
		t.Fatalf("fetch after a push: %+v, %v; want an update to %s", u, err, next)
	}
	if got, _ := c.ResolveCommit(ctx, tracking); got != next {
		t.Fatalf("tracking ref at %s, want %s", got, next)
	}
	if u, err = c.FetchBranchUpdated(ctx, "origin", branch); err != nil || u.MayHaveMoved() {
		t.Fatalf("second idle fetch: %+v, %v", u, err)
	}

	// A tracking ref that does not exist yet is reported as new.
	gittest.Git(t, rem.R, dir, "update-ref", "-d", "--end-of-options", tracking)
	if u, err = c.FetchBranchUpdated(ctx, "origin", branch); err != nil || !u.Updated || u.Old != "" {
		t.Fatalf("fetch into a missing tracking ref: %+v, %v; want a new ref", u, err)
	}

	gittest.Rewrite(t, rem, branch, map[string]string{"docs/a.md": "evil\n"})
	_, err = c.FetchBranchUpdated(ctx, "origin", branch)
	var fp *gitcli.ForcePushError
	if !errors.As(err, &fp) || fp.Reason != "non-fast-forward" {
		t.Fatalf("fetch after a force-push: %v; want *ForcePushError", err)
	}
	if got, _ := c.ResolveCommit(ctx, tracking); got != next {
		t.Fatalf("force-push followed: tracking ref at %s, want %s", got, next)
	}

	_, err = c.FetchBranchUpdated(ctx, "origin", "no-such-branch")
	if !errors.Is(err, gitcli.ErrNotFound) {
		t.Fatalf("fetch of a missing branch: %v; want ErrNotFound", err)
	}
	if _, err = c.FetchBranchUpdated(ctx, "origin", "-x"); !errors.Is(err, gitcli.ErrInvalidArg) {
		t.Fatalf("fetch of branch -x: %v; want ErrInvalidArg", err)
	}
}
