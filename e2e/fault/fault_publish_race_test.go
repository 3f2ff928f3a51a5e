package fault

import (
	"strings"
	"testing"

	"rfhandoff/internal/faultkit"
	"rfhandoff/internal/gittest"
	"rfhandoff/internal/tasktest"
)

// Invariant: when the result branch moves during a publish (another push
// lands between our clone and our push), nothing is lost and nothing is
// forced: the publish starts again from a fresh clone and lands on top of
// the other commit, with exactly one result commit.
func TestFaultResultBranchMovesDuringPublish(t *testing.T) {
	t.Parallel()
	lab := faultkit.NewLab(t)
	d := lab.StartDaemon()
	lab.UseURL(lab.DaemonURL(d))
	commit, data := lab.PushTask(tasktest.Capture("FAULT_RACE_0001"))
	lab.Approve("FAULT_RACE_0001", data, commit)
	file := lab.WriteResult(lab.Encode(lab.Ready("FAULT_RACE_0001")))
	before := lab.Tip(tasktest.ResultBranch)
	other := gittest.Commit(t, lab.Remote, tasktest.ResultBranch, map[string]string{"docs/other-machine.txt": "pushed meanwhile\n"})
	gittest.MoveOnPush(t, lab.Remote, tasktest.ResultBranch, other)

	out := lab.RX.Run(faultkit.Wait, "rx", "publish-result", file)
	if out.Code != 0 {
		t.Fatalf("publish while the branch moved: want exit 0 after a retry\n%s", out)
	}
	after := lab.Tip(tasktest.ResultBranch)
	parent := strings.TrimSpace(gittest.Git(t, lab.R, lab.Remote.Dir, "rev-parse", after+"^"))
	if parent != other {
		t.Errorf("the published commit's parent is %s, want the commit that moved the branch (%s)", parent, other)
	}
	if n := commitsBetween(t, lab, before, after); n != 2 {
		t.Errorf("%d commits on the result branch since the publish began, want 2 (the other machine's and ours)", n)
	}
	touching := strings.Fields(gittest.Git(t, lab.R, lab.Remote.Dir, "log", "--format=%H", before+".."+after, "--", tasktest.ResultPath))
	if len(touching) != 1 {
		t.Errorf("%d commits wrote the result, want exactly 1", len(touching))
	}
	es := faultkit.AuditEntries(t, lab.RX.AuditPath())
	pushes := faultkit.GitCalls(es, "push")
	if len(pushes) != 2 || pushes[0].OK() || !pushes[1].OK() {
		t.Errorf("want one rejected push then one accepted, got %d pushes", len(pushes))
	}
	for _, p := range pushes {
		for _, a := range faultkit.GitArgs(p.Start) {
			if a == "--force" || strings.HasPrefix(a, "+") || strings.HasPrefix(a, "--force-with-lease") {
				t.Errorf("publish pushed with %q", a)
			}
		}
	}
	faultkit.CheckAuditChain(t, lab.RX.AuditPath())
}
