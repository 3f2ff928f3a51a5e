package rxside

import (
	"errors"
	"strings"
	"testing"
	"time"

	"rfhandoff/gitcli"
	"rfhandoff/internal/gittest"
	"rfhandoff/internal/rxtest"
	"rfhandoff/internal/tasktest"
	"rfhandoff/mirror"
	"rfhandoff/task"
	"rfhandoff/taskfetch"
)

// An idle poll is one git subprocess: the narrow fetch, nothing else.
func TestPollerIdleIsOneSubprocess(t *testing.T) {
	t.Parallel()
	rx := rxtest.New(t, rxtest.Options{})
	first := rx.PushTask(tasktest.TaskSpec{ID: "POLL_IDLE_1"})
	env, r, _ := testEnv(t, rx)
	p := &Poller{Git: testMirror(t, env), Policy: rx.Policy}
	ctx := t.Context()

	got, err := p.Poll(ctx)
	if err != nil || !got.Changed || got.Commit != first || got.Task == nil || got.Task.Task.ID != "POLL_IDLE_1" {
		t.Fatalf("first poll: %+v, %v", got, err)
	}
	audit := r.AuditLog().Path()
	for i := range 3 {
		before := rxtest.CountStarts(t, audit)
		got, err := p.Poll(ctx)
		if err != nil || got.Changed || got.Commit != first || got.Task == nil {
			t.Fatalf("idle poll %d: %+v, %v", i, got, err)
		}
		if n := rxtest.CountStarts(t, audit) - before; n != 1 {
			t.Fatalf("idle poll %d ran %d subprocesses, want 1", i, n)
		}
	}

	next := rx.PushTask(tasktest.TaskSpec{ID: "POLL_IDLE_2"})
	got, err = p.Poll(ctx)
	if err != nil || !got.Changed || got.Commit != next || got.Task.Task.ID != "POLL_IDLE_2" {
		t.Fatalf("poll after a push: %+v, %v", got, err)
	}
}

// A rejected task is reported with the commit and not read again until
// the branch moves.
func TestPollerTaskProblemsAreCached(t *testing.T) {
	t.Parallel()
	rx := rxtest.New(t, rxtest.Options{})
	rx.PushFile("TASK_ID = broken\n\nbody\n")
	env, r, _ := testEnv(t, rx)
	p := &Poller{Git: testMirror(t, env), Policy: rx.Policy}
	got, err := p.Poll(t.Context())
	var inv *task.InvalidError
	if err != nil || !errors.As(got.TaskErr, &inv) || got.Task != nil {
		t.Fatalf("poll: %+v, %v; want an invalid task", got, err)
	}
	before := rxtest.CountStarts(t, r.AuditLog().Path())
	again, err := p.Poll(t.Context())
	if err != nil || again.Changed || !errors.As(again.TaskErr, &inv) {
		t.Fatalf("second poll: %+v, %v", again, err)
	}
	if n := rxtest.CountStarts(t, r.AuditLog().Path()) - before; n != 1 {
		t.Fatalf("idle poll over a rejected task ran %d subprocesses, want 1", n)
	}
}

// A force-push is refused on every poll; once a person has re-anchored the
// tracking ref, the poller accepts the new history.
func TestPollerForcePushRefusedUntilReanchored(t *testing.T) {
	t.Parallel()
	rx := rxtest.New(t, rxtest.Options{})
	rx.PushTask(tasktest.TaskSpec{ID: "POLL_FP_1"})
	env, _, _ := testEnv(t, rx)
	p := &Poller{Git: testMirror(t, env), Policy: rx.Policy}
	ctx := t.Context()
	if _, err := p.Poll(ctx); err != nil {
		t.Fatal(err)
	}
	rewritten := rx.ForcePushTask(tasktest.TaskSpec{ID: "POLL_FP_EVIL"})
	for i := range 2 {
		_, err := p.Poll(ctx)
		var fp *gitcli.ForcePushError
		if !errors.As(err, &fp) {
			t.Fatalf("poll %d after a force-push: %v; want *ForcePushError", i, err)
		}
	}
	// The re-anchor a person does in the mirror (here without the forced
	// refspec the allowlist refuses: the rejected fetch already brought
	// the commits and trees).
	gittest.Git(t, rx.Runner(), rx.Policy.StatePath(mirror.RXName), "update-ref", "--end-of-options", taskfetch.TrackingRef(rx.Policy, tasktest.TaskBranch), rewritten)
	// The new history is read (its EXPECTED_HEAD, from the old history,
	// is no ancestor of the new root: the task itself is then rejected).
	got, err := p.Poll(ctx)
	if err != nil || !got.Changed || got.Commit != rewritten || !errors.Is(got.TaskErr, taskfetch.ErrRefusedContent) || !strings.HasPrefix(got.TaskErr.Error(), "task POLL_FP_EVIL: EXPECTED_HEAD ") {
		t.Fatalf("poll after re-anchoring: %+v, %v", got, err)
	}
}

// A tracking ref moved behind the poller's back is noticed at the next
// resync: a fast-forward is followed, a rewind refused.
func TestPollerResync(t *testing.T) {
	t.Parallel()
	rx := rxtest.New(t, rxtest.Options{})
	first := rx.PushTask(tasktest.TaskSpec{ID: "POLL_SYNC_1"})
	env, _, _ := testEnv(t, rx)
	now := time.Unix(1_000_000, 0)
	p := &Poller{Git: testMirror(t, env), Policy: rx.Policy, Now: func() time.Time { return now }}
	ctx := t.Context()
	if _, err := p.Poll(ctx); err != nil {
		t.Fatal(err)
	}
	// Someone else (rx capture) fetches the branch forward into the same
	// mirror (our next fetch prints nothing).
	second := rx.PushTask(tasktest.TaskSpec{ID: "POLL_SYNC_2"})
	other := testMirror(t, env)
	if _, err := other.FetchBranchUpdated(ctx, "origin", tasktest.TaskBranch); err != nil {
		t.Fatal(err)
	}
	if got, err := p.Poll(ctx); err != nil || got.Changed || got.Commit != first {
		t.Fatalf("poll before the resync is due: %+v, %v", got, err)
	}
	now = now.Add(defaultResync)
	if got, err := p.Poll(ctx); err != nil || !got.Changed || got.Commit != second {
		t.Fatalf("poll at the resync: %+v, %v; want %s", got, err, second)
	}
	// The branch is force-pushed and someone else follows it with a
	// forced fetch (simulated: their rejected narrow fetch brings the
	// objects, update-ref moves the ref). Our fetch then prints nothing.
	rewritten := rx.ForcePushTask(tasktest.TaskSpec{ID: "POLL_SYNC_EVIL"})
	var fp *gitcli.ForcePushError
	if _, err := other.FetchBranchUpdated(ctx, "origin", tasktest.TaskBranch); !errors.As(err, &fp) {
		t.Fatalf("other fetch: %v", err)
	}
	gittest.Git(t, rx.Runner(), rx.Policy.StatePath(mirror.RXName), "update-ref", "--end-of-options", taskfetch.TrackingRef(rx.Policy, tasktest.TaskBranch), rewritten)
	now = now.Add(defaultResync)
	_, err := p.Poll(ctx)
	var rw *rewoundError
	if !errors.As(err, &rw) || rw.Old != second || rw.New != rewritten {
		t.Fatalf("poll after a rewind: %v; want *rewoundError", err)
	}
	if _, err := p.Poll(ctx); !errors.As(err, &rw) {
		t.Fatalf("the rewind is refused only once: %v", err)
	}
}
