package main

import (
	"strings"
	"testing"
	"time"

	"rfhandoff/task"
)

// task new's --start-at, --start-in and --sync (PROTOCOL#task-new): the
// header's rules, --start-in rounded up to a whole second, a START_AT not
// after now refused, every reason at once.
func TestTaskNewSchedule(t *testing.T) {
	now := time.Date(2026, 12, 2, 19, 58, 30, 250_000_000, time.UTC)
	for _, tc := range []struct {
		name string
		cmd  TaskNewCmd
		at   time.Time
		mode string
		errs []string
	}{
		{"start-at", TaskNewCmd{StartAt: "2026-12-02T20:00:00Z", Sync: "PPS"}, time.Date(2026, 12, 2, 20, 0, 0, 0, time.UTC), "PPS", nil},
		{"start-in rounds up", TaskNewCmd{StartIn: "2m", Sync: "HOST_CLOCK"}, time.Date(2026, 12, 2, 20, 0, 31, 0, time.UTC), "HOST_CLOCK", nil},
		{"start-in whole", TaskNewCmd{StartIn: "29750ms"}, time.Date(2026, 12, 2, 19, 59, 0, 0, time.UTC), "", nil},
		{"bad values", TaskNewCmd{StartAt: "2026-12-02T20:00:00.5Z", Sync: "host"}, time.Time{}, "",
			[]string{`--start-at: START_AT: invalid value "2026-12-02T20:00:00.5Z"`, `--sync: SYNC_MODE: invalid value "host": must be HOST_CLOCK or PPS`}},
		{"past", TaskNewCmd{StartAt: "2026-12-02T19:58:30Z", Sync: "PPS"}, time.Date(2026, 12, 2, 19, 58, 30, 0, time.UTC), "PPS",
			[]string{"--start-at 2026-12-02T19:58:30Z is not after now (2026-12-02T19:58:30Z by this PC's clock): every receiver would refuse it"}},
		{"start-in not positive", TaskNewCmd{StartIn: "-5s"}, time.Time{}, "", []string{`--start-in "-5s": must be a positive Go duration`}},
		{"start-in not a duration", TaskNewCmd{StartIn: "2 minutes"}, time.Time{}, "", []string{`--start-in "2 minutes"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var s task.Spec
			errs := tc.cmd.schedule(&s, now)
			if !s.Capture.StartAt.Equal(tc.at) || s.Capture.SyncMode != tc.mode {
				t.Errorf("START_AT %s, SYNC_MODE %q; want %s, %q", s.Capture.StartAt, s.Capture.SyncMode, tc.at, tc.mode)
			}
			if len(errs) != len(tc.errs) {
				t.Fatalf("errors %q, want %d", errs, len(tc.errs))
			}
			for i, want := range tc.errs {
				if !strings.Contains(errs[i].Error(), want) {
					t.Errorf("error %q does not say %q", errs[i], want)
				}
			}
		})
	}
}
