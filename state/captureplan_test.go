package state

import (
	"errors"
	"os"
	"path/filepath"
	"rfhandoff/localfile"
	"strings"
	"testing"
	"time"
)

func testPlan() CapturePlan {
	return CapturePlan{FrequencyHz: 433_920_000, SampleRateHz: 2_000_000, LNAGainDB: 16, VGAGainDB: 20,
		PlannedDurationS: 120, Dir: filepath.FromSlash("/srv/rx/captures"), FreeMarginBytes: 1 << 30}
}

func TestCapturePlanChangesNameTheKey(t *testing.T) {
	a := testPlan()
	if c := a.Changes(a); len(c) != 0 {
		t.Fatalf("same plan: %q", c)
	}
	b := a
	b.LNAGainDB, b.PlannedDurationS, b.Amp = 24, 3600, true
	got := strings.Join(a.Changes(b), "\n")
	for _, want := range []string{"capture.lna_gain_db: approved 16, now 24", "limits.planned_duration_s: approved 120, now 3600", "capture.amp: approved false, now true"} {
		if !strings.Contains(got, want) {
			t.Errorf("changes lack %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "frequency") {
		t.Errorf("an unchanged key is named:\n%s", got)
	}
	var none *Approval
	if c := none.PlanChanges(a); c != nil {
		t.Errorf("no approval: %q", c)
	}
	if c := (&Approval{}).PlanChanges(a); len(c) != 1 || !strings.Contains(c[0], "predates") {
		t.Errorf("an approval without a plan: %q", c)
	}
}

func TestCapturePlanSpace(t *testing.T) {
	p := testPlan() // 480 MB + 1 GiB
	if err := p.CheckSpace(p.Bytes() + p.FreeMarginBytes); err != nil {
		t.Fatalf("exactly enough: %v", err)
	}
	err := p.CheckSpace(p.Bytes() + p.FreeMarginBytes - 1)
	var se *spaceError
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "capture.free_margin_mb") || !strings.Contains(err.Error(), p.Dir) {
		t.Fatalf("one byte short: %v", err)
	}
	lines := strings.Join(p.Describe(100e6, nil), "\n")
	for _, want := range []string{"433.92 MHz", "2 MHz", "16 dB / 20 dB", "RF amp:        off", "Antenna power: off", "120 s", "480 MB (480000000 bytes", "NOT ENOUGH"} {
		if !strings.Contains(lines, want) {
			t.Errorf("Describe lacks %q:\n%s", want, lines)
		}
	}
}

func TestFreeBytesOfAMissingDirectory(t *testing.T) {
	dir := t.TempDir()
	got, err := localfile.FreeBytes(filepath.Join(dir, "not", "yet", "there"))
	if err != nil || got <= 0 {
		t.Fatalf("FreeBytes of a directory to be created = %d, %v", got, err)
	}
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
