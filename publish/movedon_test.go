package publish_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"rfhandoff/internal/gittest"
	"rfhandoff/internal/publishtest"
	"rfhandoff/internal/tasktest"
	"rfhandoff/mirror"
	"rfhandoff/publish"
	"rfhandoff/result"
	"rfhandoff/state"
)

// TestMovedOnCompleteIsNarrow: after the task branch moved on, only the
// COMPLETE of the capture recorded in capture_in_progress, whose READY
// was published, passes check 1 (PROTOCOL#publishing); a READY of it, a COMPLETE
// of another capture of the task, or one without a published READY is
// refused at check 1 as before.
func TestMovedOnCompleteIsNarrow(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		edit    func(rec *state.CaptureInProgress)
		data    func(ready *result.Result) *result.Result
		publish bool
	}{
		{name: "the recorded capture's COMPLETE", data: completeFrom, publish: true},
		{name: "its READY", data: func(r *result.Result) *result.Result { return r }},
		{name: "another capture's COMPLETE", data: func(r *result.Result) *result.Result {
			c := completeFrom(r)
			c.CapturePID++
			return c
		}},
		{name: "READY never published", edit: func(rec *state.CaptureInProgress) { rec.ReadyPublished, rec.ReadyCommit = false, "" },
			data: completeFrom},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := publishtest.New(t, publishtest.Options{})
			ready := f.Ready()
			if _, err := publish.Publish(t.Context(), f.Deps(), publishtest.Encode(t, ready)); err != nil {
				t.Fatal(err)
			}
			movedOnDuring(t, f, ready, tc.edit)
			tip := f.ResultTip(t)
			out, err := publish.Publish(t.Context(), f.Deps(), publishtest.Encode(t, tc.data(ready)))
			if tc.publish {
				if err != nil || out.Commit == "" || f.ResultTip(t) == tip {
					t.Fatalf("Publish = %+v, %v; want the COMPLETE published", out, err)
				}
				msg := bareGit(t, f, "log", "-1", "--format=%B", out.Commit)
				if !strings.Contains(msg, "task branch moved on after READY") {
					t.Errorf("commit message:\n%s", msg)
				}
				return
			}
			asCheck(t, err, publish.StepTaskID)
			if !strings.Contains(err.Error(), "the current task is RX_NEXT_TASK_0002") || f.ResultTip(t) != tip {
				t.Errorf("refusal %v; result tip moved: %v", err, f.ResultTip(t) != tip)
			}
		})
	}
}

// nextTask is a valid capture task other than the fixture's.
func nextTask(head string) tasktest.TaskSpec {
	s := tasktest.Capture("RX_NEXT_TASK_0002")
	s.ExpectedHead = head
	return s
}

// A COMPLETE of the recorded capture after the task branch moved on, when
// the RX mirror cannot be opened: refused at check 1 naming the mirror, as
// any result then is; nothing published, and no panic on the clone check 6
// would have needed the mirror for.
func TestMovedOnCompleteWithoutTheMirror(t *testing.T) {
	t.Parallel()
	f := publishtest.New(t, publishtest.Options{})
	ready := f.Ready()
	if _, err := publish.Publish(t.Context(), f.Deps(), publishtest.Encode(t, ready)); err != nil {
		t.Fatal(err)
	}
	movedOnDuring(t, f, ready, nil)
	// The mirror's directory replaced by a file: it cannot be opened.
	dir := f.Policy.StatePath(mirror.RXName)
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dir, []byte("not a mirror\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tip := f.ResultTip(t)
	_, err := publish.Publish(t.Context(), f.Deps(), publishtest.Encode(t, completeFrom(ready)))
	asCheck(t, err, publish.StepTaskID)
	if !strings.Contains(err.Error(), "opening the RX mirror") || f.ResultTip(t) != tip {
		t.Errorf("refusal %v; result tip moved: %v", err, f.ResultTip(t) != tip)
	}
}

// movedOnDuring records ready's capture as running with its READY
// published (edit, if any, changes the record) and then moves the task
// branch on to another task.
func movedOnDuring(t *testing.T, f *publishtest.Fixture, ready *result.Result, edit func(*state.CaptureInProgress)) {
	t.Helper()
	st, err := state.LoadRX(f.StateDir)
	if err != nil {
		t.Fatal(err)
	}
	rec := &state.CaptureInProgress{TaskID: publishtest.TaskID, DataPath: filepath.Join(f.Checkout, ".local", "x.sigmf-data"),
		CapturePID: int(ready.CapturePID), RfhandoffPID: 1, StartedAt: ready.CaptureStartedAt, SourceHead: f.Head,
		PlannedDurationS: int64(f.Policy.Limits.PlannedDurationS), FrequencyHz: 433920000, SampleRateHz: 2000000,
		ReadyPublished: true, ReadyCommit: f.ResultTip(t), CompleteNotes: []string{}}
	if edit != nil {
		edit(rec)
	}
	st.CaptureInProgress = rec
	if err := state.SaveRX(f.StateDir, st); err != nil {
		t.Fatal(err)
	}
	gittest.Seed(t, f.Remote, f.Policy.Repo.TaskBranch, map[string]string{
		f.Policy.Repo.TaskFile: tasktest.TaskFile(nextTask(f.BaseCommit))})
}
