package rxside

import (
	"strings"
	"testing"
	"time"

	"rfhandoff/captureplan"
	"rfhandoff/internal/rxtest"
	"rfhandoff/internal/tasktest"
)

// PROTOCOL#task-file: rx check judges an awaiting task's START_AT against
// this node's clock at the moment of the check: far enough ahead it awaits
// approval; past, or closer than sync.min_lead_s, it is refused saying
// when it was judged and that a missed START_AT needs a new TASK_ID. The
// task is recorded as seen, so it cannot come back under its TASK_ID with
// another START_AT.
func TestCheckJudgesStartAt(t *testing.T) {
	t.Parallel()
	rx := rxtest.New(t, rxtest.Options{})
	env, _, _ := testEnv(t, rx)
	start := time.Date(2026, 12, 2, 20, 0, 0, 0, time.UTC)
	now := start.Add(-time.Hour)
	env.Now = func() time.Time { return now }
	ctx := t.Context()
	spec := tasktest.Capture("SCHEDULED_ONE")
	spec.CaptureDurationS, spec.StartAt, spec.SyncMode = 30, "2026-12-02T20:00:00Z", "PPS"
	rx.PushTask(spec)
	s, err := Open(ctx, env, RoleOneShot)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	res, err := s.Check(ctx)
	if err != nil || res.Decision.Verdict != Awaiting {
		t.Fatalf("an hour ahead: %+v, %v", res.Decision, err)
	}
	var sum strings.Builder
	WriteSummary(&sum, res.Current, res.Decision.Verdict)
	if !strings.Contains(sum.String(), "start:    "+captureplan.StartText(start)+", SYNC_MODE PPS") {
		t.Errorf("summary lacks the start:\n%s", sum.String())
	}

	for _, tc := range []struct {
		now  time.Time
		want string
	}{
		{start.Add(-29 * time.Second), "is only 29s ahead at 2026-12-02T19:59:31Z by this node's clock, under this node's sync.min_lead_s (30 s)"},
		{start.Add(time.Minute), "is past: 1m0s ago at 2026-12-02T20:01:00Z"},
	} {
		now = tc.now
		res, err = s.Check(ctx)
		if err == nil || res.Decision.Verdict != Awaiting {
			t.Fatalf("at %s: %+v accepted", now, res.Decision)
		}
		for _, w := range []string{"task SCHEDULED_ONE refused", "START_AT = 2026-12-02T20:00:00Z", tc.want, "a new TASK_ID", "nothing approved"} {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("at %s: %v does not say %q", now, err, w)
			}
		}
	}
	st, _ := s.Store.Load()
	if st.LastApprovedTaskID != "" || st.Approval != nil {
		t.Errorf("a refused task got an approval: %+v", st)
	}
	// It was seen: the same TASK_ID with a later START_AT is a changed
	// task, refused; a missed START_AT needs a new TASK_ID.
	spec.StartAt = "2026-12-02T21:00:00Z"
	rx.PushTask(spec)
	res, err = s.Check(ctx)
	if res.Decision.Verdict != Changed || err == nil || !strings.Contains(err.Error(), "a revised task must get a new TASK_ID") {
		t.Errorf("the same TASK_ID with another START_AT: %+v, %v", res.Decision, err)
	}
}

// A mode this node does not allow is refused at every RX step through
// forNode, naming sync.allowed_modes, before anything is recorded.
func TestCheckRefusesAModeNotAllowed(t *testing.T) {
	t.Parallel()
	rx := rxtest.New(t, rxtest.Options{})
	env, _, _ := testEnv(t, rx)
	env.Policy.Sync.AllowedModes = []string{"HOST_CLOCK"}
	spec := tasktest.Capture("SCHEDULED_PPS")
	spec.CaptureDurationS, spec.StartAt, spec.SyncMode = 30, "2099-12-02T20:00:00Z", "PPS"
	rx.PushTask(spec)
	s, err := Open(t.Context(), env, RoleOneShot)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	_, err = s.Check(t.Context())
	if err == nil || !strings.Contains(err.Error(), "SYNC_MODE = PPS is not in this node's sync.allowed_modes [HOST_CLOCK]") ||
		!strings.Contains(err.Error(), "nothing recorded") {
		t.Fatalf("Check: %v", err)
	}
	if st, _ := s.Store.Load(); st.SeenTaskDigests["SCHEDULED_PPS"] != "" {
		t.Errorf("the refused task was recorded as seen: %+v", st)
	}
}
