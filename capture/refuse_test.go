package capture

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"rfhandoff/config"
	"rfhandoff/exec"
	"rfhandoff/gate"
	"rfhandoff/internal/gittest"
	"rfhandoff/internal/publishtest"
	"rfhandoff/internal/tasktest"
	"rfhandoff/localfile"
	"rfhandoff/result"
	"rfhandoff/state"
	"rfhandoff/task"
)

// TestCaptureRefused: a capture that the task, its approval or the
// checkout does not allow is refused with every reason, before any
// HackRF tool runs, and publishes nothing.
func TestCaptureRefused(t *testing.T) {
	tests := []struct {
		name  string
		fix   publishtest.Options
		pol   func(*config.Policy)
		setup func(t *testing.T, w *world) Options
		want  []string // every reason, in the error
		tools bool     // the HackRF tools ran (the check comes after them)
	}{
		{name: "not approved", fix: publishtest.Options{NoApproval: true},
			want: []string{"is not approved", "rx approve"}},
		{name: "other TASK_ID", setup: func(t *testing.T, w *world) Options {
			o := opts()
			o.TaskID = "SOME_OTHER_TASK"
			return o
		}, want: []string{"TASK_ID SOME_OTHER_TASK was given, but the current task"}},
		{name: "changed since approval", setup: func(t *testing.T, w *world) Options {
			text := tasktest.TaskFile(tasktest.TaskSpec{ID: publishtest.TaskID, ExpectedHead: w.BaseCommit, Level: gate.Yellow, Body: "A revised body under the same ID.\n"})
			gittest.Seed(t, w.Remote, w.Policy.Repo.TaskBranch, map[string]string{w.Policy.Repo.TaskFile: text})
			return opts()
		}, want: []string{"changed since it was approved", "needs a new TASK_ID"}},
		{name: "completed", setup: func(t *testing.T, w *world) Options {
			st, err := state.LoadRX(w.StateDir)
			if err != nil {
				t.Fatal(err)
			}
			st.MarkCompleted(publishtest.TaskID)
			if err := state.SaveRX(w.StateDir, st); err != nil {
				t.Fatal(err)
			}
			return opts()
		}, want: []string{"already completed"}},
		{name: "RF_TX and no push", fix: publishtest.Options{RFTX: true, AllowPush: task.PushNo},
			want: []string{"RF_TX is YES", "ALLOW_PUSH is NO"}},
		{name: "every reason at once", fix: publishtest.Options{NoApproval: true, AllowPush: task.PushNo},
			want: []string{"is not approved", "ALLOW_PUSH is NO"}},
		{name: "no result branch", fix: publishtest.Options{NoResultBranch: true},
			want: []string{"result branch rx-node does not exist", "never creates it"}},
		// 3600 s at 20 Msps is 144 GB, with a 1 TiB margin: more than
		// this disk has free, refused before any HackRF tool opens.
		{name: "larger than the free space", pol: func(p *config.Policy) {
			p.Limits.PlannedDurationS, p.Capture.SampleRateHz, p.Capture.FreeMarginMB = 3600, 20_000_000, 1<<20
		}, want: []string{"would write 144.0 GB", "capture.free_margin_mb", "nothing started"}},
		{name: "policy changed since approval", setup: func(t *testing.T, w *world) Options {
			w.Policy.Capture.LNAGainDB, w.Policy.Limits.PlannedDurationS = 32, 4
			return opts()
		}, want: []string{"capture.lna_gain_db: approved 16, now 32", "limits.planned_duration_s: approved 3, now 4", "rx approve"}},
		{name: "capture dir not ignored", pol: func(p *config.Policy) { p.Capture.Dir = "captures" },
			want: []string{"is not ignored by git"}, tools: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t, "", tt.fix, tt.pol)
			o := opts()
			if tt.setup != nil {
				o = tt.setup(t, w)
			}
			refs := w.Refs(t)
			_, err := w.run(t, t.Context(), o)
			var re *refusedError
			if !errors.As(err, &re) {
				t.Fatalf("err = %v, want *refusedError", err)
			}
			for _, want := range tt.want {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error lacks %q:\n%v", want, err)
				}
			}
			if got := w.Refs(t); got != refs {
				t.Errorf("remote refs changed:\n%s\n->\n%s", refs, got)
			}
			if ran := len(w.auditStarts(t, exec.HackRFInfo)) > 0; ran != tt.tools {
				t.Errorf("hackrf_info ran: %v, want %v", ran, tt.tools)
			}
			if n := len(w.auditStarts(t, exec.HackRFTransfer)); n != 0 {
				t.Errorf("hackrf_transfer ran %d times", n)
			}
		})
	}
}

// TestCaptureNeverOverwrites: an existing capture of the task is left as
// it is and nothing runs.
func TestCaptureNeverOverwrites(t *testing.T) {
	t.Parallel()
	w := newWorld(t, "", publishtest.Options{}, nil)
	dir := filepath.Join(w.Policy.CaptureDir(), publishtest.TaskID)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, publishtest.TaskID+DataSuffix)
	if err := os.WriteFile(path, []byte("an earlier capture"), 0o644); err != nil {
		t.Fatal(err)
	}
	refs := w.Refs(t)
	_, err := w.run(t, t.Context(), opts())
	if err == nil || !strings.Contains(err.Error(), "a capture of this task already exists at "+path+"; it is never overwritten") {
		t.Fatalf("err = %v, want the existing capture %s refused", err, path)
	}
	if b, _ := os.ReadFile(path); string(b) != "an earlier capture" {
		t.Errorf("the earlier capture was changed: %q", b)
	}
	if w.Refs(t) != refs || len(w.auditStarts(t, exec.HackRFTransfer)) != 0 {
		t.Errorf("something ran or was published")
	}
}

// TestCaptureLocked: a second capture while one holds the lock is refused.
func TestCaptureLocked(t *testing.T) {
	t.Parallel()
	w := newWorld(t, "", publishtest.Options{}, nil)
	l, err := localfile.Acquire(filepath.Join(w.StateDir, LockFile))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	_, err = w.run(t, t.Context(), opts())
	var be *busyError
	if !errors.As(err, &be) || be.PID != os.Getpid() || !errors.Is(err, ErrRunning) {
		t.Fatalf("err = %v, want *busyError naming pid %d", err, os.Getpid())
	}
	if !strings.Contains(err.Error(), "only one capture at a time") {
		t.Errorf("err = %v", err)
	}
}

// TestCaptureReadyDeclined: the remote declines READY's push. The capture
// is stopped; since a failed push might still have landed, COMPLETE is
// attempted too (and declined as well), and the COMPLETE is kept locally
// for a later rx publish-result.
func TestCaptureReadyDeclined(t *testing.T) {
	t.Parallel()
	w := newWorld(t, "", publishtest.Options{}, func(p *config.Policy) { p.Limits.PlannedDurationS = 60 })
	gittest.DeclinePushes(t, w.Remote, "result branch is protected")
	refs := w.Refs(t)
	o := opts()
	o.CompleteAttempts = 1
	start := time.Now()
	rep, err := w.run(t, t.Context(), o)
	if err == nil || !strings.HasPrefix(err.Error(), "publishing RX_READY_FOR_TX failed: ") || !strings.HasSuffix(err.Error(), "; the capture was stopped and nothing was published") {
		t.Fatalf("err = %v, want a READY that failed, without COMPLETE", err)
	}
	if got := w.Refs(t); got != refs {
		t.Errorf("remote refs changed:\n%s\n->\n%s", refs, got)
	}
	if rep == nil || rep.ProcessEnded.IsZero() {
		t.Fatalf("report %+v: the tool was not seen to end", rep)
	}
	if d := rep.ProcessEnded.Sub(start); d > 45*time.Second {
		t.Errorf("the tool ran %s: it was not stopped after READY failed", d)
	}
	local, err := os.ReadFile(rep.ResultPath)
	if err != nil {
		t.Fatal(err)
	}
	r, err := result.Decode(local, result.Options{})
	if err != nil || r.State != result.StateComplete {
		t.Fatalf("local result: %v %+v", err, r)
	}
	sum, _, _ := fileSums(t, rep.DataPath)
	if *r.CaptureSHA256 != sum {
		t.Errorf("local COMPLETE sha256 %s, file %s", *r.CaptureSHA256, sum)
	}
}

// A killed capture can die inside a state write; the next rx capture
// removes the temp file it left before it reads the state (even when it
// then refuses), as rx watch does at its start.
func TestCaptureCleansKilledStateWrites(t *testing.T) {
	t.Parallel()
	w := newWorld(t, "", publishtest.Options{NoApproval: true}, nil)
	stale := filepath.Join(w.StateDir, ".rx_agent_state.json.tmp-123456")
	if err := os.WriteFile(stale, []byte(`{"half":`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := w.run(t, t.Context(), opts()); err == nil {
		t.Fatal("an unapproved task was captured")
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("the killed writer's temp file is still there: %v", err)
	}
}
