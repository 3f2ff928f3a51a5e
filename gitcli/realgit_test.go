package gitcli_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"rfhandoff/exec"
	"rfhandoff/gitcli"
	"rfhandoff/internal/gittest"
)

const (
	taskBranch   = "video-development"
	resultBranch = "rx-node"
	taskFile     = "docs/handoff/NEXT_RX_TASK.md"
)

// checkout is an RX-style full clone of the task branch with a client on it.
type checkout struct {
	rem *gittest.Remote
	dir string
	c   *gitcli.Client
}

func newCheckout(t *testing.T) checkout {
	t.Helper()
	rem := gittest.NewBareRemote(t, taskBranch, resultBranch)
	dir := gittest.Clone(t, rem, taskBranch)
	return checkout{rem: rem, dir: dir, c: &gitcli.Client{R: rem.R, Dir: dir}}
}

func git(t *testing.T, co checkout, args ...string) string {
	t.Helper()
	return strings.TrimSpace(gittest.Git(t, co.rem.R, co.dir, args...))
}

func TestFetchBranchFollowsFastForward(t *testing.T) {
	t.Parallel()
	co := newCheckout(t)
	ctx := t.Context()
	before, err := co.c.ResolveCommit(ctx, "refs/remotes/origin/"+taskBranch)
	if err != nil {
		t.Fatal(err)
	}
	next := gittest.Seed(t, co.rem, taskBranch, map[string]string{taskFile: "TASK_ID = T_2\n"})
	if err := co.c.FetchBranch(ctx, "origin", taskBranch); err != nil {
		t.Fatalf("fetch: %v", err)
	}
	got, err := co.c.ResolveCommit(ctx, "refs/remotes/origin/"+taskBranch)
	if err != nil {
		t.Fatal(err)
	}
	if got != next {
		t.Errorf("tracking ref at %s, want the new commit %s", got, next)
	}
	if yes, err := co.c.IsAncestor(ctx, before, got); err != nil || !yes {
		t.Errorf("IsAncestor(old, new) = %v, %v; want true", yes, err)
	}
	// Only the one branch was fetched: no tracking ref for the result branch moved.
	if err := co.c.FetchBranch(ctx, "origin", taskBranch); err != nil {
		t.Errorf("no-op fetch: %v", err)
	}
}

func TestFetchBranchRefusesForcePush(t *testing.T) {
	t.Parallel()
	co := newCheckout(t)
	ctx := t.Context()
	gittest.Seed(t, co.rem, taskBranch, map[string]string{taskFile: "TASK_ID = T_1\n"})
	if err := co.c.FetchBranch(ctx, "origin", taskBranch); err != nil {
		t.Fatal(err)
	}
	held, _ := co.c.ResolveCommit(ctx, "refs/remotes/origin/"+taskBranch)
	gittest.Rewrite(t, co.rem, taskBranch, map[string]string{taskFile: "TASK_ID = EVIL\n"})

	err := co.c.FetchBranch(ctx, "origin", taskBranch)
	var fp *gitcli.ForcePushError
	if !errors.As(err, &fp) {
		t.Fatalf("fetch after force-push: %v (%T), want *ForcePushError", err, err)
	}
	if fp.Reason != "non-fast-forward" || fp.Branch != taskBranch || fp.Remote != "origin" {
		t.Errorf("ForcePushError %+v", fp)
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.Code != 1 {
		t.Errorf("ForcePushError does not carry git's exit 1: %v", err)
	}
	if now, _ := co.c.ResolveCommit(ctx, "refs/remotes/origin/"+taskBranch); now != held {
		t.Errorf("tracking ref moved to %s after a refused fetch; want it kept at %s", now, held)
	}
}

func TestFetchBranchMissingAndUnreachable(t *testing.T) {
	t.Parallel()
	co := newCheckout(t)
	ctx := t.Context()
	err := co.c.FetchBranch(ctx, "origin", "no-such-branch")
	if !errors.Is(err, gitcli.ErrNotFound) {
		t.Errorf("missing branch: %v, want ErrNotFound", err)
	}
	var re *gitcli.RemoteError
	if !errors.As(err, &re) || re.Cause != gitcli.CauseNotFound {
		t.Errorf("missing branch: %v, want a *RemoteError with CauseNotFound", err)
	}
	// The remote goes away: git says the repository is not there, which
	// is a RemoteError but not ErrNotFound (that is for a missing branch).
	if err := os.Rename(co.rem.Dir, co.rem.Dir+".gone"); err != nil {
		t.Fatal(err)
	}
	err = co.c.FetchBranch(ctx, "origin", taskBranch)
	var fp *gitcli.ForcePushError
	var ee *exec.ExitError
	if !errors.As(err, &re) || re.Cause != gitcli.CauseNotFound || errors.As(err, &fp) || errors.Is(err, gitcli.ErrNotFound) || !errors.As(err, &ee) {
		t.Errorf("vanished remote: %v (%T), want *gitcli.RemoteError (CauseNotFound) wrapping *exec.ExitError", err, err)
	}
}

func TestIsAncestorYesNoMissing(t *testing.T) {
	t.Parallel()
	co := newCheckout(t)
	ctx := t.Context()
	c1, err := co.c.Head(ctx)
	if err != nil {
		t.Fatal(err)
	}
	c2 := gittest.Seed(t, co.rem, taskBranch, map[string]string{"b.txt": "b\n"})
	if err := co.c.FetchBranch(ctx, "origin", taskBranch); err != nil {
		t.Fatal(err)
	}
	if yes, err := co.c.IsAncestor(ctx, c1, c2); err != nil || !yes {
		t.Errorf("IsAncestor(c1, c2) = %v, %v; want true", yes, err)
	}
	if yes, err := co.c.IsAncestor(ctx, c1, c1); err != nil || !yes {
		t.Errorf("IsAncestor(c1, c1) = %v, %v; want true", yes, err)
	}
	if yes, err := co.c.IsAncestor(ctx, c2, c1); err != nil || yes {
		t.Errorf("IsAncestor(c2, c1) = %v, %v; want false", yes, err)
	}
	missing := strings.Repeat("0", 39) + "1"
	yes, err := co.c.IsAncestor(ctx, missing, c2)
	var ee *exec.ExitError
	if yes || !errors.As(err, &ee) || ee.Code != 128 {
		t.Errorf("IsAncestor(missing, c2) = %v, %v; want an error carrying exit 128", yes, err)
	}
}

func TestRefsHeadBranchRemote(t *testing.T) {
	t.Parallel()
	co := newCheckout(t)
	ctx := t.Context()
	head, err := co.c.Head(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if want := gittest.Tip(t, co.rem, taskBranch); head != want {
		t.Errorf("Head = %s, want %s", head, want)
	}
	if b, err := co.c.CurrentBranch(ctx); err != nil || b != taskBranch {
		t.Errorf("CurrentBranch = %q, %v; want %q", b, err, taskBranch)
	}
	git(t, co, "update-ref", "--no-deref", "HEAD", head) // detach
	if b, err := co.c.CurrentBranch(ctx); err != nil || b != "" {
		t.Errorf("detached CurrentBranch = %q, %v; want \"\"", b, err)
	}
	if _, err := co.c.ResolveCommit(ctx, "refs/heads/nope"); !errors.Is(err, gitcli.ErrNotFound) {
		t.Errorf("ResolveCommit(missing) = %v, want ErrNotFound", err)
	}
	tree := git(t, co, "rev-parse", head+"^{tree}")
	if _, err := co.c.ResolveCommit(ctx, tree); !errors.Is(err, gitcli.ErrNotFound) {
		t.Errorf("ResolveCommit(tree) = %v, want ErrNotFound (not a commit)", err)
	}
	if u, err := co.c.RemoteURL(ctx, "origin"); err != nil || u != co.rem.URL {
		t.Errorf("RemoteURL = %q, %v; want %q", u, err, co.rem.URL)
	}
	if _, err := co.c.RemoteURL(ctx, "upstream"); !errors.Is(err, gitcli.ErrNotFound) {
		t.Errorf("RemoteURL(unknown) = %v, want ErrNotFound", err)
	}
	v, err := co.c.CheckVersion(ctx)
	if err != nil || !v.AtLeast(2, 36) || !strings.HasPrefix(v.Raw, "git version ") {
		t.Errorf("CheckVersion = %+v, %v; want at least 2.36 (fetch --refetch)", v, err)
	}
}

func TestRemoteBranchExists(t *testing.T) {
	t.Parallel()
	co := newCheckout(t)
	ctx := t.Context()
	ok, id, err := co.c.RemoteBranchExists(ctx, "origin", resultBranch)
	if err != nil || !ok || id != gittest.Tip(t, co.rem, resultBranch) {
		t.Errorf("RemoteBranchExists(rx-node) = %v, %q, %v", ok, id, err)
	}
	// A ref whose tail matches is not the branch.
	gittest.Seed(t, co.rem, "x/refs/heads/ghost", map[string]string{"a": "a\n"})
	ok, id, err = co.c.RemoteBranchExists(ctx, "origin", "ghost")
	if err != nil || ok || id != "" {
		t.Errorf("RemoteBranchExists(ghost) = %v, %q, %v; want false", ok, id, err)
	}
}

// One call lists the branches that exist, by their exact names only.
func TestRemoteBranches(t *testing.T) {
	t.Parallel()
	co := newCheckout(t)
	gittest.Seed(t, co.rem, "x/refs/heads/ghost", map[string]string{"a": "a\n"})
	got, err := co.c.RemoteBranches(t.Context(), "origin", []string{resultBranch, "ghost", "nowhere"})
	if err != nil || len(got) != 1 || got[resultBranch] != gittest.Tip(t, co.rem, resultBranch) {
		t.Errorf("RemoteBranches = %v, %v; want only %s", got, err, resultBranch)
	}
	if _, err := co.c.RemoteBranches(t.Context(), "origin", []string{"bad..name"}); err == nil {
		t.Error("an invalid branch name was asked about")
	}
}

func TestReadFilesFromCommit(t *testing.T) {
	t.Parallel()
	co := newCheckout(t)
	ctx := t.Context()
	task := "TASK_ID = T_1\n\nbody\n"
	id := gittest.Seed(t, co.rem, taskBranch, map[string]string{
		taskFile:            task,
		"docs/handoff/link": gittest.SymlinkPrefix + "NEXT_RX_TASK.md",
		"big.bin":           strings.Repeat("x", 1000),
	})
	if err := co.c.FetchBranch(ctx, "origin", taskBranch); err != nil {
		t.Fatal(err)
	}
	got, err := co.c.ShowFile(ctx, id, taskFile, 64<<10)
	if err != nil || string(got) != task {
		t.Fatalf("ShowFile = %q, %v; want %q", got, err, task)
	}
	if n, err := co.c.BlobSize(ctx, id, taskFile); err != nil || n != int64(len(task)) {
		t.Errorf("BlobSize = %d, %v; want %d", n, err, len(task))
	}
	if got, err := co.c.ShowFile(ctx, id, "big.bin", 1000); err != nil || len(got) != 1000 {
		t.Errorf("ShowFile at exactly the limit = %d bytes, %v", len(got), err)
	}
	_, err = co.c.ShowFile(ctx, id, "big.bin", 999)
	if !errors.Is(err, gitcli.ErrUnreadableFile) || !strings.Contains(err.Error(), "big.bin is 1000 bytes, more than the limit of 999") {
		t.Errorf("ShowFile over the limit: %v, want ErrUnreadableFile saying 1000 bytes over 999", err)
	}
	if m, err := co.c.EntryMode(ctx, id, "docs/handoff/link"); err != nil || m != gitcli.ModeSymlink {
		t.Errorf("EntryMode(symlink) = %s, %v", m, err)
	}
	notRegular := func(err error, m gitcli.Mode) bool {
		return errors.Is(err, gitcli.ErrUnreadableFile) && strings.Contains(err.Error(), fmt.Sprintf("is not a regular file (mode %s,", m))
	}
	if _, err := co.c.ShowFile(ctx, id, "docs/handoff/link", 1000); !notRegular(err, gitcli.ModeSymlink) {
		t.Errorf("ShowFile(symlink) = %v, want ErrUnreadableFile naming mode %s", err, gitcli.ModeSymlink)
	}
	if _, err := co.c.ShowFile(ctx, id, "docs/handoff", 1000); !notRegular(err, gitcli.ModeTree) {
		t.Errorf("ShowFile(directory) = %v, want ErrUnreadableFile naming mode %s", err, gitcli.ModeTree)
	}
	if _, err := co.c.BlobSize(ctx, id, "docs"); !notRegular(err, gitcli.ModeTree) {
		t.Errorf("BlobSize(directory) = %v, want ErrUnreadableFile naming mode %s", err, gitcli.ModeTree)
	}
	for _, p := range []string{"docs/handoff/missing.md", "NEXT_RX_TASK.md"} {
		if _, err := co.c.ShowFile(ctx, id, p, 1000); !errors.Is(err, gitcli.ErrNotFound) {
			t.Errorf("ShowFile(%s) = %v, want ErrNotFound", p, err)
		}
	}
	if _, err := co.c.ShowFile(ctx, strings.Repeat("0", 39)+"1", taskFile, 1000); err == nil || errors.Is(err, gitcli.ErrNotFound) || !strings.HasPrefix(err.Error(), "git ls-tree: ") {
		t.Errorf("ShowFile(missing commit) = %v, want git ls-tree's own failure, not ErrNotFound", err)
	}
}

func TestCheckIgnored(t *testing.T) {
	t.Parallel()
	co := newCheckout(t)
	ctx := t.Context()
	if err := os.WriteFile(filepath.Join(co.dir, ".gitignore"), []byte(".local/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(co.dir, ".local"), 0o700); err != nil {
		t.Fatal(err)
	}
	if yes, err := co.c.CheckIgnored(ctx, ".local"); err != nil || !yes {
		t.Errorf("CheckIgnored(.local) = %v, %v; want true", yes, err)
	}
	if yes, err := co.c.CheckIgnored(ctx, ".local/rx_agent_state.json"); err != nil || !yes {
		t.Errorf("CheckIgnored(.local/x) = %v, %v; want true", yes, err)
	}
	if yes, err := co.c.CheckIgnored(ctx, "README.md"); err != nil || yes {
		t.Errorf("CheckIgnored(README.md) = %v, %v; want false", yes, err)
	}
	// Outside a repository git fails with 128: an error, not "not ignored".
	out := &gitcli.Client{R: co.rem.R, Dir: t.TempDir()}
	if yes, err := out.CheckIgnored(ctx, ".local"); err == nil || yes {
		t.Errorf("CheckIgnored outside a repository = %v, %v; want an error", yes, err)
	}
}

// publish is the publisher's cycle on a fresh clone: write, stage, check,
// commit, push.
func publish(t *testing.T, co checkout, content string) (*gitcli.Client, string, error) {
	t.Helper()
	ctx := t.Context()
	clone, cleanup, err := co.c.TempClone(ctx, co.rem.URL, resultBranch)
	t.Cleanup(cleanup)
	if err != nil {
		t.Fatalf("TempClone: %v", err)
	}
	if err := clone.CheckoutNeutral(ctx); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(clone.Dir, "docs", "handoff", "results")
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"RX_RESULT.json", "RX_RESULT.md"} {
		if err := os.WriteFile(filepath.Join(p, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := clone.Add(ctx, "docs/handoff/results/RX_RESULT.json", "docs/handoff/results/RX_RESULT.md"); err != nil {
		t.Fatal(err)
	}
	id, err := clone.Commit(ctx, "RX result", []gitcli.Trailer{{Key: "Audit-Chain-Head", Value: "abc123"}})
	if err != nil {
		t.Fatalf("Commit: %v", err)
	}
	return clone, id, clone.Push(ctx, "origin", "HEAD", resultBranch)
}

func TestPublishCycle(t *testing.T) {
	t.Parallel()
	co := newCheckout(t)
	ctx := t.Context()
	clone, cleanup, err := co.c.TempClone(ctx, co.rem.URL, resultBranch)
	if err != nil {
		t.Fatal(err)
	}
	if err := clone.CheckoutNeutral(ctx); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(filepath.Dir(clone.Dir))
	if err != nil || !private(st) {
		t.Errorf("temp clone parent mode %v, %v; want private (0700)", st.Mode().Perm(), err)
	}
	if got := strings.TrimSpace(gittest.Git(t, co.rem.R, clone.Dir, "rev-parse", "--is-shallow-repository")); got != "true" {
		t.Errorf("clone is not shallow: %s", got)
	}
	refs := strings.Fields(gittest.Git(t, co.rem.R, clone.Dir, "for-each-ref", "--format=%(refname)"))
	if !slices.Equal(refs, []string{"refs/heads/" + resultBranch, "refs/remotes/origin/" + resultBranch}) {
		t.Errorf("clone refs %q, want only the result branch", refs)
	}
	if b, _ := clone.CurrentBranch(ctx); b != resultBranch {
		t.Errorf("clone on branch %q", b)
	}

	if dirty, err := clone.HasStagedChanges(ctx); err != nil || dirty {
		t.Errorf("fresh clone HasStagedChanges = %v, %v", dirty, err)
	}
	res := filepath.Join(clone.Dir, "docs", "handoff", "results")
	if err := os.MkdirAll(res, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(res, "RX_RESULT.json"), []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if fsLinksStaged {
		stagedLinkReplaced(t, clone, res)
	} else {
		if err := os.WriteFile(filepath.Join(res, "RX_RESULT.md"), []byte("# result\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := clone.Add(ctx, "docs/handoff/results/RX_RESULT.json"); err != nil {
			t.Fatal(err)
		}
	}
	if err := clone.Add(ctx, "docs/handoff/results/RX_RESULT.md"); err != nil {
		t.Fatal(err)
	}
	if changes, _ := clone.StagedChanges(ctx); len(changes) != 2 || changes[1].NewMode != gitcli.ModeFile {
		t.Fatalf("StagedChanges after fix = %+v", changes)
	}
	if dirty, err := clone.HasStagedChanges(ctx); err != nil || !dirty {
		t.Errorf("HasStagedChanges = %v, %v; want true", dirty, err)
	}
	id, err := clone.Commit(ctx, "RX result T_1\n", []gitcli.Trailer{{Key: "Audit-Chain-Head", Value: "abc123"}})
	if err != nil {
		t.Fatal(err)
	}
	if dirty, err := clone.HasStagedChanges(ctx); err != nil || dirty {
		t.Errorf("after commit HasStagedChanges = %v, %v; want false", dirty, err)
	}
	if err := clone.Push(ctx, "origin", "HEAD", resultBranch); err != nil {
		t.Fatalf("Push: %v", err)
	}
	if tip := gittest.Tip(t, co.rem, resultBranch); tip != id {
		t.Errorf("remote tip %s, want the pushed commit %s", tip, id)
	}
	msg := gittest.Git(t, co.rem.R, co.rem.Dir, "log", "-1", "--format=%B", id)
	if msg != "RX result T_1\n\nAudit-Chain-Head: abc123\n\n" {
		t.Errorf("commit message %q", msg)
	}
	trailers := gittest.Git(t, co.rem.R, co.rem.Dir, "log", "-1", "--format=%(trailers:key=Audit-Chain-Head,valueonly)", id)
	if strings.TrimSpace(trailers) != "abc123" {
		t.Errorf("git does not read the trailer: %q", trailers)
	}
	who := gittest.Git(t, co.rem.R, co.rem.Dir, "log", "-1", "--format=%an <%ae> %cn <%ce>", id)
	if want := gittest.UserName + " <" + gittest.UserEmail + "> " + gittest.UserName + " <" + gittest.UserEmail + ">\n"; who != want {
		t.Errorf("identity %q, want the configured %q", who, want)
	}
	cleanup()
	if _, err := os.Stat(filepath.Dir(clone.Dir)); !os.IsNotExist(err) {
		t.Errorf("cleanup left the temp clone: %v", err)
	}
}

func TestCommitDefaultIdentity(t *testing.T) {
	t.Parallel()
	r := gittest.RunnerWithHome(t, t.TempDir()) // no .gitconfig at all
	rem := gittest.NewBareRemote(t, resultBranch)
	c := &gitcli.Client{R: r}
	clone, cleanup, err := c.TempClone(t.Context(), rem.URL, resultBranch)
	t.Cleanup(cleanup)
	if err != nil {
		t.Fatal(err)
	}
	if err := clone.CheckoutNeutral(t.Context()); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(clone.Dir, "f"), []byte("f\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := clone.Add(t.Context(), "f"); err != nil {
		t.Fatal(err)
	}
	id, err := clone.Commit(t.Context(), "m", nil)
	if err != nil {
		t.Fatal(err)
	}
	who := gittest.Git(t, r, clone.Dir, "log", "-1", "--format=%an <%ae> %cn <%ce>", id)
	if who != "rfhandoff <rfhandoff@localhost> rfhandoff <rfhandoff@localhost>\n" {
		t.Errorf("identity %q, want the rfhandoff default", who)
	}
	clone.Identity = gitcli.Identity{Name: "RX laptop", Email: "rx@lab.example"}
	if err := os.WriteFile(filepath.Join(clone.Dir, "g"), []byte("g\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := clone.Add(t.Context(), "g"); err != nil {
		t.Fatal(err)
	}
	id, err = clone.Commit(t.Context(), "m2", nil)
	if err != nil {
		t.Fatal(err)
	}
	if who := gittest.Git(t, r, clone.Dir, "log", "-1", "--format=%an <%ae>", id); who != "RX laptop <rx@lab.example>\n" {
		t.Errorf("identity %q, want the caller's", who)
	}
}

func TestPushRejectedBecauseBranchMovedBefore(t *testing.T) {
	t.Parallel()
	co := newCheckout(t)
	ctx := t.Context()
	clone, cleanup, err := co.c.TempClone(ctx, co.rem.URL, resultBranch)
	t.Cleanup(cleanup)
	if err != nil {
		t.Fatal(err)
	}
	if err := clone.CheckoutNeutral(ctx); err != nil {
		t.Fatal(err)
	}
	other := gittest.Seed(t, co.rem, resultBranch, map[string]string{"other.txt": "someone else\n"})
	if err := os.WriteFile(filepath.Join(clone.Dir, "mine.txt"), []byte("mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := clone.Add(ctx, "mine.txt"); err != nil {
		t.Fatal(err)
	}
	if _, err := clone.Commit(ctx, "mine", nil); err != nil {
		t.Fatal(err)
	}
	err = clone.Push(ctx, "origin", "HEAD", resultBranch)
	var pr *gitcli.PushRejectedError
	if !errors.As(err, &pr) || !pr.Moved || pr.Reason != "fetch first" {
		t.Fatalf("push after the branch moved: %v, want *PushRejectedError{Moved: true, fetch first}", err)
	}
	if tip := gittest.Tip(t, co.rem, resultBranch); tip != other {
		t.Errorf("remote tip %s, want the other commit %s kept", tip, other)
	}
}

func TestPushRejectedBecauseBranchMovedDuringPushThenRetried(t *testing.T) {
	t.Parallel()
	co := newCheckout(t)
	moveTo := gittest.Commit(t, co.rem, resultBranch, map[string]string{"race.txt": "pushed meanwhile\n"})
	gittest.MoveOnPush(t, co.rem, resultBranch, moveTo)

	_, _, err := publish(t, co, "{\"n\":1}\n")
	var pr *gitcli.PushRejectedError
	if !errors.As(err, &pr) || !pr.Moved {
		t.Fatalf("push racing another: %v, want *PushRejectedError{Moved: true}", err)
	}
	if pr.Summary != "[remote rejected]" || pr.Reason != "failed to update ref" {
		t.Errorf("rejection %q %q", pr.Summary, pr.Reason)
	}
	if tip := gittest.Tip(t, co.rem, resultBranch); tip != moveTo {
		t.Fatalf("remote tip %s, want the racing commit %s", tip, moveTo)
	}
	// The publisher starts again from a fresh clone, which now succeeds on
	// top of the racing commit.
	_, id, err := publish(t, co, "{\"n\":2}\n")
	if err != nil {
		t.Fatalf("retry: %v", err)
	}
	if tip := gittest.Tip(t, co.rem, resultBranch); tip != id {
		t.Errorf("remote tip %s, want %s", tip, id)
	}
	bare := &gitcli.Client{R: co.rem.R, Dir: co.rem.Dir}
	if yes, err := bare.IsAncestor(t.Context(), moveTo, id); err != nil || !yes {
		t.Errorf("the retried commit does not build on the racing one: %v, %v", yes, err)
	}
}

func TestPushRejectedByHookIsNotMoved(t *testing.T) {
	t.Parallel()
	co := newCheckout(t)
	before := gittest.Tip(t, co.rem, resultBranch)
	gittest.DeclinePushes(t, co.rem, "protected branch")
	_, _, err := publish(t, co, "{}\n")
	var pr *gitcli.PushRejectedError
	if !errors.As(err, &pr) || pr.Moved || pr.Reason != "pre-receive hook declined" {
		t.Fatalf("declined push: %v, want *PushRejectedError{Moved: false, pre-receive hook declined}", err)
	}
	if tip := gittest.Tip(t, co.rem, resultBranch); tip != before {
		t.Errorf("remote tip moved to %s", tip)
	}
}

func TestPushToUnreachableRemoteIsNotRejection(t *testing.T) {
	t.Parallel()
	co := newCheckout(t)
	ctx := t.Context()
	clone, cleanup, err := co.c.TempClone(ctx, co.rem.URL, resultBranch)
	t.Cleanup(cleanup)
	if err != nil {
		t.Fatal(err)
	}
	if err := clone.CheckoutNeutral(ctx); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(co.rem.Dir, co.rem.Dir+".gone"); err != nil {
		t.Fatal(err)
	}
	err = clone.Push(ctx, "origin", "HEAD", resultBranch)
	var pr *gitcli.PushRejectedError
	var re *gitcli.RemoteError
	if errors.As(err, &pr) || !errors.As(err, &re) || re.Cause != gitcli.CauseNotFound {
		t.Errorf("push to a vanished remote: %v (%T), want *gitcli.RemoteError (CauseNotFound)", err, err)
	}
}

// TestInjectionNeverReachesGit tries option injection through every
// data-derived argument against real git: each is refused, nothing is
// written to the audit log (so nothing ran), and no file appears.
func TestInjectionNeverReachesGit(t *testing.T) {
	t.Parallel()
	co := newCheckout(t)
	ctx := t.Context()
	stack := co.rem.R.(*exec.Stack)
	pwned := filepath.Join(t.TempDir(), "pwned")
	upload := "--upload-pack=touch " + pwned
	output := "--output=" + pwned
	before, err := os.ReadFile(stack.AuditLog().Path())
	if err != nil {
		t.Fatal(err)
	}
	attempts := map[string]error{
		"fetch branch":  co.c.FetchBranch(ctx, "origin", upload),
		"fetch remote":  co.c.FetchBranch(ctx, upload, taskBranch),
		"ls-remote":     func() error { _, _, err := co.c.RemoteBranchExists(ctx, upload, resultBranch); return err }(),
		"ls-remote br":  func() error { _, _, err := co.c.RemoteBranchExists(ctx, "origin", upload); return err }(),
		"rev-parse":     func() error { _, err := co.c.ResolveCommit(ctx, output); return err }(),
		"merge-base":    func() error { _, err := co.c.IsAncestor(ctx, output, output); return err }(),
		"show path":     func() error { _, err := co.c.ShowFile(ctx, strings.Repeat("a", 40), "-x", 10); return err }(),
		"check-ignore":  func() error { _, err := co.c.CheckIgnored(ctx, "-x"); return err }(),
		"add":           co.c.Add(ctx, "-x"),
		"clone url":     co.c.CloneBranch(ctx, upload, resultBranch, filepath.Join(t.TempDir(), "c")),
		"clone ext url": co.c.CloneBranch(ctx, "ext::sh -c touch% "+pwned, resultBranch, filepath.Join(t.TempDir(), "c")),
		"push branch":   co.c.Push(ctx, "origin", "HEAD", upload),
		"push remote":   co.c.Push(ctx, "--receive-pack=touch "+pwned, "HEAD", resultBranch),
	}
	for name, err := range attempts {
		if !errors.Is(err, gitcli.ErrInvalidArg) {
			t.Errorf("%s: %v, want ErrInvalidArg", name, err)
		}
	}
	after, err := os.ReadFile(stack.AuditLog().Path())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, after) {
		t.Errorf("the audit log grew: something ran:\n%s", after[len(before):])
	}
	if _, err := os.Stat(pwned); !os.IsNotExist(err) {
		t.Errorf("%s exists: an injected command ran", pwned)
	}
}

// stagedLinkReplaced stages RX_RESULT.md as a symlink beside a JSON file,
// checks git sees the link as one, and replaces it by a real file, as the
// publisher must.
func stagedLinkReplaced(t *testing.T, clone *gitcli.Client, res string) {
	t.Helper()
	ctx := t.Context()
	if err := os.Symlink("/etc/passwd", filepath.Join(res, "RX_RESULT.md")); err != nil {
		t.Fatal(err)
	}
	if err := clone.Add(ctx, "docs/handoff/results/RX_RESULT.json", "docs/handoff/results/RX_RESULT.md"); err != nil {
		t.Fatal(err)
	}
	paths, err := clone.StagedPaths(ctx)
	if err != nil || !slices.Equal(paths, []string{"docs/handoff/results/RX_RESULT.json", "docs/handoff/results/RX_RESULT.md"}) {
		t.Errorf("StagedPaths = %q, %v", paths, err)
	}
	changes, err := clone.StagedChanges(ctx)
	if err != nil || len(changes) != 2 || changes[0].NewMode != gitcli.ModeFile || changes[1].NewMode != gitcli.ModeSymlink ||
		changes[0].Status != 'A' {
		t.Fatalf("StagedChanges = %+v, %v; want the JSON as a file and the symlink seen as one", changes, err)
	}
	// Replace the symlink by a real file, as the publisher must.
	if err := os.Remove(filepath.Join(res, "RX_RESULT.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(res, "RX_RESULT.md"), []byte("# result\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}
