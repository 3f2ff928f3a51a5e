package capture

import (
	"strings"
	"sync"
	"testing"

	"rfhandoff/internal/gittest"
	"rfhandoff/internal/publishtest"
	"rfhandoff/internal/tasktest"
	"rfhandoff/result"
)

// TestCaptureCompleteAfterTheTaskMoved: a new task pushed to the task
// branch while a capture runs does not cost its COMPLETE: it is published
// all the same (PROTOCOL#publishing, the COMPLETE of this node's running capture).
// When the publisher refuses it for another reason (the checkout's HEAD
// moved), the COMPLETE stays saved and recorded, with why, and the error
// suggests no command that cannot work.
func TestCaptureCompleteAfterTheTaskMoved(t *testing.T) {
	t.Parallel()
	for _, headMoves := range []bool{false, true} {
		name := "published"
		if headMoves {
			name = "refused"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t, "", publishtest.Options{}, nil)
			base := w.ResultTip(t)
			o := opts()
			var once sync.Once
			o.fail = func(step string) error {
				if step == stepPublish+string(result.StateComplete) {
					once.Do(func() {
						spec := tasktest.Capture("RX_NEXT_TASK_0004")
						spec.ExpectedHead = w.BaseCommit
						next := tasktest.TaskFile(spec)
						gittest.Seed(t, w.Remote, w.Policy.Repo.TaskBranch, map[string]string{w.Policy.Repo.TaskFile: next})
						if headMoves {
							gittest.Git(t, w.Runner, w.Checkout, "commit", "--allow-empty", "-m", "moved on")
						}
					})
				}
				return nil
			}
			rep, err := w.run(t, t.Context(), o)
			rs := w.resultCommits(t, base)
			if !headMoves {
				if err != nil {
					t.Fatalf("capture: %v", err)
				}
				if len(rs) != 2 || rs[1].State != result.StateComplete || rs[1].TaskID != publishtest.TaskID {
					t.Fatalf("%d result commits, want READY then the COMPLETE of %s", len(rs), publishtest.TaskID)
				}
				if r := record(t, w); r != nil {
					t.Errorf("capture_in_progress left: %+v", r)
				}
				return
			}
			if err == nil || !strings.HasPrefix(err.Error(), "publishing CAPTURE_COMPLETE failed: ") || len(rs) != 1 {
				t.Fatalf("err = %v with %d result commits; want a refused COMPLETE after READY", err, len(rs))
			}
			msg := err.Error()
			if !strings.Contains(msg, "check 5 (source head)") || !strings.Contains(msg, "saved at "+rep.ResultPath) ||
				!strings.Contains(msg, "rx mark-completed "+publishtest.TaskID) || strings.Contains(msg, "publish-result") {
				t.Errorf("message: %s", msg)
			}
			r := record(t, w)
			if r == nil || r.CompleteSHA256 == "" || !r.CompleteRefused || !strings.Contains(r.CompleteError, "check 5") {
				t.Fatalf("record: %+v", r)
			}
		})
	}
}
