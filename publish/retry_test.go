package publish_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"rfhandoff/gitcli"
	"rfhandoff/internal/gittest"
	"rfhandoff/internal/publishtest"
	"rfhandoff/publish"
)

// hookEnv lets a hook change refs and write objects for real: git runs
// pre-receive inside a quarantine that refuses ref updates and discards
// new objects when the push fails.
const hookEnv = `unset GIT_QUARANTINE_PATH GIT_OBJECT_DIRECTORY GIT_ALTERNATE_OBJECT_DIRECTORIES
export GIT_AUTHOR_NAME=other GIT_AUTHOR_EMAIL=other@example.invalid GIT_COMMITTER_NAME=other GIT_COMMITTER_EMAIL=other@example.invalid
`

// TestBranchMovedDuringPushRetries: the first push finds that someone
// else's commit landed on the result branch after our clone (a pre-receive
// hook moves the branch once, so receive-pack's compare-and-swap fails);
// publish starts again from a fresh clone and lands on top of it.
func TestBranchMovedDuringPushRetries(t *testing.T) {
	tmp := privateTemp(t)
	f := publishtest.New(t, publishtest.Options{})
	branch := f.Policy.Repo.ResultBranch
	other := gittest.Commit(t, f.Remote, branch, map[string]string{"NOTES.md": "someone else's commit\n"})
	once := filepath.Join(t.TempDir(), "moved-once")
	gittest.InstallHook(t, f.Remote, "pre-receive", fmt.Sprintf(`#!/bin/sh
%s
if [ ! -e %q ]; then
	touch %q
	git update-ref refs/heads/%s %s
fi
exit 0
`, hookEnv, once, once, branch, other))
	snap := f.Snapshot(t)

	out, err := publish.Publish(t.Context(), f.Deps(), publishtest.Encode(t, f.Ready()))
	if err != nil {
		t.Fatal(err)
	}
	if out.Attempts != 2 || out.NoOp {
		t.Errorf("outcome %+v, want published on attempt 2", out)
	}
	if tip := f.ResultTip(t); tip != out.Commit {
		t.Errorf("branch tip %s, want our commit %s", tip, out.Commit)
	}
	if parent := strings.TrimSpace(bareGit(t, f, "rev-parse", out.Commit+"^")); parent != other {
		t.Errorf("our commit's parent %s, want the other commit %s", parent, other)
	}
	if got := bareGit(t, f, "cat-file", "blob", out.Commit+":NOTES.md"); got != "someone else's commit\n" {
		t.Errorf("the other commit's file was lost: %q", got)
	}
	if got := f.Snapshot(t); got != snap {
		t.Errorf("RX checkout changed:\n%s\nwant:\n%s", got, snap)
	}
	if left := leftovers(t, tmp); len(left) > 0 {
		t.Errorf("temporary clones left behind: %v", left)
	}
}

// TestBranchKeepsMovingGivesUp: a branch that moves before every push
// exhausts publish_attempts and reports it; none of our commits lands.
func TestBranchKeepsMovingGivesUp(t *testing.T) {
	t.Parallel()
	f := publishtest.New(t, publishtest.Options{})
	branch := f.Policy.Repo.ResultBranch
	gittest.InstallHook(t, f.Remote, "pre-receive", fmt.Sprintf(`#!/bin/sh
%s
tip=$(git rev-parse refs/heads/%[2]s)
new=$(git commit-tree -p "$tip" -m "someone else" "$tip^{tree}")
git update-ref refs/heads/%[2]s "$new" "$tip"
exit 0
`, hookEnv, branch))
	d := f.Deps()
	d.Policy.Limits.PublishAttempts = 2
	before := f.ResultTip(t)

	out, err := publish.Publish(t.Context(), d, publishtest.Encode(t, f.Ready()))
	if err == nil || !strings.HasPrefix(err.Error(), "gave up after 2 attempts: the result branch kept moving: ") {
		t.Fatalf("error %v, want a refusal after 2 attempts", err)
	}
	var pr *gitcli.PushRejectedError
	if !errors.As(err, &pr) || !pr.Moved {
		t.Errorf("error %v does not wrap a moved-branch push rejection", err)
	}
	if out.Attempts != 2 || out.Commit != "" {
		t.Errorf("outcome %+v", out)
	}
	log := bareGit(t, f, "log", "--format=%an %s", before+".."+f.ResultTip(t))
	if strings.Count(log, "\n") != 2 || strings.Contains(log, "rx result") {
		t.Errorf("result branch history since the start:\n%s\nwant exactly the hook's two commits", log)
	}
}

// TestPushRefusedForAnotherReasonIsNotRetried: a hook that declines is
// reported at once, not retried.
func TestPushRefusedForAnotherReasonIsNotRetried(t *testing.T) {
	t.Parallel()
	f := publishtest.New(t, publishtest.Options{})
	gittest.InstallHook(t, f.Remote, "pre-receive", "#!/bin/sh\necho 'branch is protected' >&2\nexit 1\n")
	refs := f.Refs(t)
	out, err := publish.Publish(t.Context(), f.Deps(), publishtest.Encode(t, f.Ready()))
	var pr *gitcli.PushRejectedError
	if !errors.As(err, &pr) || pr.Moved {
		t.Fatalf("error %v (%T), want a push rejection that is not a move", err, err)
	}
	if out.Attempts != 1 {
		t.Errorf("attempts %d, want 1 (no retry)", out.Attempts)
	}
	if got := f.Refs(t); got != refs {
		t.Errorf("remote refs changed:\n%s", got)
	}
}

// TestCancelDuringPushRemovesTheClone: cancelling while git push waits on
// a slow remote ends the publish with the context's error and still
// removes the temporary clone.
func TestCancelDuringPushRemovesTheClone(t *testing.T) {
	tmp := privateTemp(t)
	f := publishtest.New(t, publishtest.Options{})
	started := filepath.Join(t.TempDir(), "hook-started")
	gittest.InstallHook(t, f.Remote, "pre-receive", fmt.Sprintf("#!/bin/sh\ntouch %q\nsleep 120\n", started))
	refs := f.Refs(t)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := publish.Publish(ctx, f.Deps(), publishtest.Encode(t, f.Ready()))
		done <- err
	}()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		if _, err := os.Stat(started); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the push never reached the hook")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if left := leftovers(t, tmp); len(left) != 1 {
		t.Fatalf("during the push: clones %v, want exactly one", left)
	}
	cancel()
	var err error
	select {
	case err = <-done:
	case <-time.After(2 * time.Minute):
		t.Fatal("publish did not return after cancellation")
	}
	if err == nil || !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want one that is context.Canceled", err)
	}
	if left := leftovers(t, tmp); len(left) > 0 {
		t.Errorf("temporary clones left behind after cancellation: %v", left)
	}
	if got := f.Refs(t); got != refs {
		t.Errorf("remote refs changed:\n%s", got)
	}
}
