package rxside

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"rfhandoff/gitcli"
	"rfhandoff/internal/rxtest"
	"rfhandoff/internal/tasktest"
	"rfhandoff/localfile"
	"rfhandoff/state"
)

func TestOpenRefusesStateDirNotIgnored(t *testing.T) {
	t.Parallel()
	rx := rxtest.New(t, rxtest.Options{NotIgnored: true})
	env, _, _ := testEnv(t, rx)
	_, err := Open(t.Context(), env, RoleOneShot)
	var ni *gitcli.NotIgnoredError
	if !errors.As(err, &ni) || ni.Rel != ".local" || !strings.Contains(err.Error(), "/.local/") {
		t.Fatalf("Open: %v; want *NotIgnoredError naming .local", err)
	}
	if _, err := os.Stat(rx.StateFile()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a state file was written where .local is not ignored: %v", err)
	}
	if _, err := os.Lstat(rx.StateDir()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the refused state directory was created: %v", err)
	}
}

func TestOpenLocksAndRecordsRunning(t *testing.T) {
	t.Parallel()
	rx := rxtest.New(t, rxtest.Options{})
	env, _, _ := testEnv(t, rx)
	ctx := t.Context()
	w, err := Open(ctx, env, RoleWatcher)
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(rx.StateDir()); err != nil || !private(fi) {
		t.Errorf("state directory: %v, %v; want a private (0700) directory", fi, err)
	}
	st, err := w.Store.Load()
	if err != nil || !st.Running || st.WatcherPID != os.Getpid() {
		t.Fatalf("state while watching: %+v, %v", st, err)
	}
	var le *localfile.LockedError
	if _, err := Open(ctx, env, RoleWatcher); !errors.As(err, &le) {
		t.Fatalf("second watcher: %v; want *localfile.LockedError", err)
	}
	var lh *lockHeldError
	if _, err := Open(ctx, env, RoleOneShot); !errors.As(err, &lh) || !errors.As(err, &le) || !lh.Watcher() {
		t.Fatalf("one-shot beside a watcher: %v; want *lockHeldError naming the watcher", err)
	}
	// mark-completed style updates work beside the watcher.
	if _, err := (&state.RXStore{Dir: w.StateDir()}).Update(func(s *state.RX) error { s.MarkCompleted("DONE_TASK"); return nil }); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	st, err = w.Store.Load()
	if err != nil || st.Running || st.WatcherPID != 0 || !st.Completed("DONE_TASK") {
		t.Fatalf("state after Close: %+v, %v", st, err)
	}
	again, err := Open(ctx, env, RoleWatcher)
	if err != nil {
		t.Fatalf("watcher after Close: %v", err)
	}
	again.Close()
}

func TestOpenRecoversStaleRunning(t *testing.T) {
	t.Parallel()
	rx := rxtest.New(t, rxtest.Options{})
	env, _, logs := testEnv(t, rx)
	if err := os.MkdirAll(rx.StateDir(), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := state.SaveRX(rx.StateDir(), state.RX{Running: true, WatcherPID: 999999999, LastSeenTaskID: "KEPT_TASK"}); err != nil {
		t.Fatal(err)
	}
	// A temp file a killed writer left behind.
	tmp := filepath.Join(rx.StateDir(), ".rx_agent_state.json.tmp-123")
	if err := os.WriteFile(tmp, []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := Open(t.Context(), env, RoleOneShot)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	st, err := s.Store.Load()
	if err != nil || st.Running || st.WatcherPID != 0 || st.LastSeenTaskID != "KEPT_TASK" {
		t.Fatalf("state: %+v, %v; want running cleared and the rest kept", st, err)
	}
	if !strings.Contains(logs.String(), "recovered a stale running flag") || !strings.Contains(logs.String(), "watcher_pid=999999999") {
		t.Errorf("no warning:\n%s", logs)
	}
	if _, err := os.Stat(tmp); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("leftover temp file not removed: %v", err)
	}
}

func TestOpenCorruptStateLeftUntouched(t *testing.T) {
	t.Parallel()
	rx := rxtest.New(t, rxtest.Options{})
	env, _, _ := testEnv(t, rx)
	if err := os.MkdirAll(rx.StateDir(), 0o700); err != nil {
		t.Fatal(err)
	}
	bad := []byte(`{"last_seen_task_id": "X", "running": tru`)
	if err := os.WriteFile(rx.StateFile(), bad, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Open(t.Context(), env, RoleWatcher)
	var ce *state.CorruptError
	if !errors.As(err, &ce) || ce.Path != rx.StateFile() {
		t.Fatalf("Open: %v; want *state.CorruptError naming %s", err, rx.StateFile())
	}
	if got, _ := os.ReadFile(rx.StateFile()); string(got) != string(bad) {
		t.Errorf("corrupt state file changed to %q", got)
	}
	// The lock was released: the next attempt fails the same way, not as locked.
	if _, err := Open(t.Context(), env, RoleWatcher); !errors.As(err, &ce) {
		t.Fatalf("second Open: %v", err)
	}
}

func TestCheckRecordsAndDecides(t *testing.T) {
	t.Parallel()
	rx := rxtest.New(t, rxtest.Options{})
	env, _, _ := testEnv(t, rx)
	ctx := t.Context()
	commit := rx.PushTask(tasktest.TaskSpec{ID: "CHECK_ONE"})
	s, err := Open(ctx, env, RoleOneShot)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	res, err := s.Check(ctx)
	if err != nil || res.Decision.Verdict != Awaiting {
		t.Fatalf("Check: %+v, %v", res, err)
	}
	st, _ := s.Store.Load()
	if st.LastSeenTaskID != "CHECK_ONE" || st.LastSeenTaskCommit != commit || st.SeenTaskDigests["CHECK_ONE"] != res.Current.Task.SHA256 {
		t.Fatalf("state not recorded: %+v", st)
	}
	// Same ID, other bytes: rejected, and the first digest stays on record.
	rx.PushTask(tasktest.TaskSpec{ID: "CHECK_ONE", Title: "Revised without a new ID"})
	res, err = s.Check(ctx)
	var ch *contentChangedError
	if !errors.As(err, &ch) || res.Decision.Verdict != Changed || ch.FirstSHA256 != st.SeenTaskDigests["CHECK_ONE"] {
		t.Fatalf("Check of changed content: %+v, %v", res, err)
	}
	after, _ := s.Store.Load()
	if after.SeenTaskDigests["CHECK_ONE"] != st.SeenTaskDigests["CHECK_ONE"] || after.LastSeenTaskCommit != commit {
		t.Fatalf("a changed task was recorded: %+v", after)
	}
}
