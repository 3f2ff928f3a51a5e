package state

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"rfhandoff/captureplan"
)

func testPlan() captureplan.Plan {
	return captureplan.Plan{FrequencyHz: 433_920_000, SampleRateHz: 2_000_000, LNAGainDB: 16, VGAGainDB: 20,
		PlannedDurationS: 120, Dir: filepath.FromSlash("/srv/rx/captures"), FreeMarginBytes: 1 << 30}
}

// An approval written before approvals bound a plan (no "capture" key)
// still reads, as an approval without one.
func TestRXApprovalWithoutCaptureReads(t *testing.T) {
	dir := t.TempDir()
	old := `{"last_seen_task_id": "T_001", "last_seen_task_commit": "", "last_completed_task_id": "", "last_approved_task_id": "T_001",
"deferred_task_id": "", "running": false, "watcher_pid": 0, "completed_task_ids": [], "seen_task_digests": {},
"approval": {"task_id": "T_001", "task_sha256": "` + strings.Repeat("a", 64) + `", "commit": "` + strings.Repeat("b", 40) + `", "approved_at": "2026-08-01T12:00:00Z"}}`
	if err := os.WriteFile(filepath.Join(dir, RXStateFile), []byte(old), 0o600); err != nil {
		t.Fatal(err)
	}
	st, err := LoadRX(dir)
	if err != nil {
		t.Fatal(err)
	}
	if st.Approval == nil || st.Approval.Capture != nil || !st.Approval.ApprovedAt.Equal(time.Date(2026, 8, 1, 12, 0, 0, 0, time.UTC)) {
		t.Fatalf("approval = %+v", st.Approval)
	}
	// A plan that is not one is corruption.
	bad := testPlan()
	bad.Dir, bad.SampleRateHz = "relative", 0
	st.Approval.Capture = &bad
	err = SaveRX(dir, st)
	if err == nil || !strings.Contains(err.Error(), "approval.capture.dir") || !strings.Contains(err.Error(), "approval.capture.sample_rate_hz") {
		t.Fatalf("invalid plan saved: %v", err)
	}
}

// PlanChanges: no approval has no changes; one without a plan says it predates plans.
func TestApprovalPlanChanges(t *testing.T) {
	a := testPlan()
	var none *Approval
	if c := none.PlanChanges(a); c != nil {
		t.Errorf("no approval: %q", c)
	}
	if c := (&Approval{}).PlanChanges(a); len(c) != 1 || !strings.Contains(c[0], "predates") {
		t.Errorf("an approval without a plan: %q", c)
	}
}
