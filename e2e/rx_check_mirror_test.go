package e2e

import (
	"strings"
	"testing"
	"time"

	"rfhandoff/config"
	"rfhandoff/gitcli/gittest"
	"rfhandoff/rxwatch/rxtest"
	"rfhandoff/task/tasktest"
)

// TestRxCheckTaskBehindLargeCommit is issue 15's measurement as a test: a
// task that lands on the task branch together with 300 MB of
// incompressible media is seen by rx check within a 3 s git_timeout, and
// neither the checkout nor the state directory takes the media in.
func TestRxCheckTaskBehindLargeCommit(t *testing.T) {
	if testing.Short() {
		t.Skip("pushes a 300 MB commit")
	}
	skipHugePush(t, 300<<20)
	rx := rxtest.New(t, rxtest.Options{})
	rx.Policy.Poll.GitTimeout = config.Duration{Duration: 3 * time.Second}
	rx.WritePolicy()

	rx.PushTaskWithMedia(tasktest.TaskSpec{ID: "BIG_MEDIA_1"}, 300<<20)

	checkout, state := gittest.TreeBytes(t, rx.Dir), gittest.TreeBytes(t, rx.StateDir())
	start := time.Now()
	code, out, errOut := rxMain(t, rx, "rx", "check")
	took := time.Since(start)
	if code != 10 || !strings.Contains(out, "task:     BIG_MEDIA_1\n") {
		t.Fatalf("rx check behind 300 MB: exit %d after %v, stdout %q, stderr %q", code, took, out, errOut)
	}
	grewCheckout, grewState := gittest.TreeBytes(t, rx.Dir)-checkout, gittest.TreeBytes(t, rx.StateDir())-state
	t.Logf("rx check took %v; the checkout grew by %d bytes, the state directory by %d", took, grewCheckout, grewState)
	if grewCheckout >= 10<<20 || grewState >= 10<<20 {
		t.Fatalf("the checkout grew by %d bytes and the state directory by %d: the media was fetched", grewCheckout, grewState)
	}
}
