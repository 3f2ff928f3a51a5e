package txwatch

import (
	"context"
	"os"
	"testing"
	"time"

	"rfhandoff/internal/gittest"
	"rfhandoff/internal/txtest"
	"rfhandoff/mirror"
)

// An idle poll is one subprocess (the fetch); the tracking ref is resolved
// again when the fetch reports a move, and when tx execute left a hint
// that it fetched the same ref behind the watcher's back.
func TestTrackingCommitResolvesOnlyWhenNeeded(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	w := e.watcher(&gittest.SyncBuffer{}, noTerminal)
	ctx := t.Context()
	if err := os.MkdirAll(e.Pol.StatePath(), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := w.openMirror(ctx); err != nil {
		t.Fatal(err)
	}
	c1, _ := e.F.Publish(t, txtest.Ready(time.Now()))
	got, err := w.trackingCommit(ctx)
	if err != nil || got != c1 {
		t.Fatalf("first poll: %s, %v; want %s", got, err, c1)
	}
	before := e.GitStarts(t)
	for range 3 {
		if got, err := w.trackingCommit(ctx); err != nil || got != c1 {
			t.Fatalf("idle poll: %s, %v", got, err)
		}
	}
	after := e.GitStarts(t)
	if after["fetch"]-before["fetch"] != 3 || after["rev-parse"] != before["rev-parse"] || len(after) != len(before) {
		t.Fatalf("three idle polls ran %v (before %v); want three fetches and nothing else", after, before)
	}

	// Moved on the remote: our fetch reports it and we resolve.
	c2, _ := e.F.Publish(t, txtest.Ready(time.Now()))
	if got, err := w.trackingCommit(ctx); err != nil || got != c2 {
		t.Fatalf("after a push: %s, %v; want %s", got, err, c2)
	}

	// Someone else (tx execute) fetches the next commit into the same
	// tracking ref of the same mirror: our fetch then has nothing to
	// report ...
	c3, _ := e.F.Publish(t, txtest.Ready(time.Now()))
	other, err := mirror.ForTX(ctx, e.F.Git(e.R), e.Pol, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := other.FetchBranchUpdated(ctx, "origin", "rx-node"); err != nil {
		t.Fatal(err)
	}
	if got, _ := w.trackingCommit(ctx); got != c2 {
		t.Fatalf("without a hint the watcher saw %s; the test no longer shows why the hint exists", got)
	}
	// ... so the executor leaves a hint (in the state dir, which holds
	// its record), and the watcher resolves.
	if err := WriteFetchHint(e.Pol, []string{c3}); err != nil {
		t.Fatal(err)
	}
	if got, err := w.trackingCommit(ctx); err != nil || got != c3 {
		t.Fatalf("with the hint: %s, %v; want %s", got, err, c3)
	}
	// A resync interval that passed resolves too.
	w.Resync = time.Nanosecond
	before = e.GitStarts(t)
	if _, err := w.trackingCommit(ctx); err != nil {
		t.Fatal(err)
	}
	if after := e.GitStarts(t); after["rev-parse"] != before["rev-parse"]+1 {
		t.Fatalf("resync did not resolve: %v -> %v", before, after)
	}
}

// trackingCommit is trackingCommits' commit of repo.result_branch.
func (w *Watcher) trackingCommit(ctx context.Context) (string, error) {
	commits, err := w.trackingCommits(ctx)
	if err != nil {
		return "", err
	}
	return commits[w.Policy.Repo.ResultBranch], nil
}
