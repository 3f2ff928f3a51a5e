package e2e

import (
	"strings"
	"testing"
	"time"

	"rfhandoff/internal/gittest"
	"rfhandoff/internal/rxtest"
	"rfhandoff/internal/tasktest"
)

// TestRxCheckTaskBehindLargeCommit is issue 15's measurement as a test: a
// task that lands on the task branch together with 64 MiB of
// incompressible media is seen by rx check, and neither the checkout nor
// the state directory takes the media in (the bytes prove it, not a
// clock: a fetch of the media would add 64 MiB, the limit is 8).
func TestRxCheckTaskBehindLargeCommit(t *testing.T) {
	t.Parallel()
	const media, limit = 64 << 20, 8 << 20
	if testing.Short() {
		t.Skip("pushes a 64 MiB commit")
	}
	skipHugePush(t, media)
	rx := rxtest.New(t, rxtest.Options{})

	rx.PushTaskWithMedia(tasktest.TaskSpec{ID: "BIG_MEDIA_1"}, media)

	checkout, state := gittest.TreeBytes(t, rx.Dir), gittest.TreeBytes(t, rx.StateDir())
	start := time.Now()
	code, out, errOut := rxMain(t, rx, "rx", "check")
	took := time.Since(start)
	if code != 10 || !strings.Contains(out, "task:     BIG_MEDIA_1\n") {
		t.Fatalf("rx check behind %d MiB: exit %d after %v, stdout %q, stderr %q", media>>20, code, took, out, errOut)
	}
	grewCheckout, grewState := gittest.TreeBytes(t, rx.Dir)-checkout, gittest.TreeBytes(t, rx.StateDir())-state
	t.Logf("rx check took %v; the checkout grew by %d bytes, the state directory by %d", took, grewCheckout, grewState)
	if grewCheckout >= limit || grewState >= limit {
		t.Fatalf("the checkout grew by %d bytes and the state directory by %d: the media was fetched", grewCheckout, grewState)
	}
}
