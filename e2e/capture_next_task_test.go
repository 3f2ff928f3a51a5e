package e2e

import (
	"strings"
	"testing"

	"rfhandoff/internal/faultkit"
	"rfhandoff/internal/gittest"
	"rfhandoff/internal/tasktest"
	"rfhandoff/result"
)

// TestCaptureSurvivesTheNextTask: while a capture runs, task new on the
// MAIN side refuses the next task, naming the capturing one and when it
// ends; a next task pushed by hand all the same does not cost the running
// capture its COMPLETE, which is published (PROTOCOL#publishing), and rx status
// then shows no capture in progress.
func TestCaptureSurvivesTheNextTask(t *testing.T) {
	t.Parallel()
	lab := faultkit.NewLab(t)
	for _, side := range []*faultkit.Side{lab.RX, lab.Main} {
		side.Policy.Limits.PlannedDurationS = 15 // the capture's length
		side.WritePolicy()
	}
	const id, next = "LIVE_CAP_0003", "NEXT_CAP_0004"
	commit, data := lab.PushTask(tasktest.Capture(id))
	if out := lab.RX.Run(faultkit.Wait, "rx", "check"); out.Code != 10 {
		t.Fatalf("rx check: want exit 10\n%s", out)
	}
	lab.Approve(id, data, commit)
	before := lab.Tip(tasktest.ResultBranch)
	c := lab.RX.Start("rx", "capture", id)
	faultkit.Eventually(t, faultkit.Wait, "READY on the result branch", func() bool { return lab.Tip(tasktest.ResultBranch) != before })

	out := lab.Main.Run(faultkit.Wait, "task", "new", next, "--title", "The next one", "--rf-rx", "--allow-push", "RX_RESULT_ONLY")
	if out.Code != 1 || !strings.Contains(out.Stderr, "task "+id+" is capturing: READY at commit ") ||
		!strings.Contains(out.Stderr, "its capture ends at ") || !strings.Contains(out.Stderr, "--force") {
		t.Fatalf("task new during the capture: want it refused naming %s and its end\n%s", id, out)
	}

	lab.PushTask(tasktest.Capture(next)) // by hand, all the same
	if code := exitStatus(t, c.Wait(faultkit.Wait)); code != 0 {
		t.Fatalf("rx capture after the task branch moved on: exit %d\n%s", code, c.Stderr)
	}
	if out := c.Stdout.String() + c.Stderr.String(); strings.Contains(out, "publish-result") || strings.Contains(out, "check 1") {
		t.Errorf("rx capture advises a publish that the checks refuse:\n%s", out)
	}
	tip := lab.Tip(tasktest.ResultBranch)
	r, err := result.Decode([]byte(gittest.Git(t, lab.R, lab.Remote.Dir, "show", tip+":docs/handoff/results/RX_RESULT.json")), result.Options{})
	if err != nil || r.TaskID != id || r.State != result.StateComplete || *r.CaptureSizeBytes != 2*2_000_000*15 {
		t.Fatalf("the result branch's tip holds %+v (%v); want the whole COMPLETE of %s", r, err, id)
	}
	if st := lab.RX.Run(faultkit.Wait, "rx", "status"); st.Code != 0 || !strings.Contains(st.Stdout, "capture:         -") {
		t.Errorf("rx status after the COMPLETE:\n%s", st)
	}
}
