package localfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestLockExcludesSecondAcquireInProcess(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rx_agent.lock")
	l, err := Acquire(path)
	if err != nil {
		t.Fatal(err)
	}
	if pid := readPID(path); pid != os.Getpid() {
		t.Errorf("lock file records pid %d, want %d", pid, os.Getpid())
	}

	// flock locks belong to the open file description, so a second Acquire
	// (a new open of the same file) in this very process is refused too.
	_, err = Acquire(path)
	var le *LockedError
	if !errors.As(err, &le) {
		t.Fatalf("second Acquire = %v, want *LockedError", err)
	}
	if le.Path != path || le.PID != os.Getpid() {
		t.Errorf("LockedError = %+v, want path %s pid %d", le, path, os.Getpid())
	}
	if !strings.Contains(err.Error(), path) {
		t.Errorf("message %q does not name the lock file", err)
	}
	if held, pid, err := Probe(path); err != nil || !held || pid != os.Getpid() {
		t.Errorf("Probe while held = %v, %d, %v", held, pid, err)
	}

	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	if err := l.Release(); err != nil {
		t.Errorf("second Release = %v", err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Errorf("lock file gone after Release: %v", err)
	}
	if pid := readPID(path); pid != 0 {
		t.Errorf("lock file still records pid %d after Release", pid)
	}
	if held, _, err := Probe(path); err != nil || held {
		t.Errorf("Probe after Release = %v, %v; want not held", held, err)
	}

	l2, err := Acquire(path)
	if err != nil {
		t.Fatalf("Acquire after Release = %v", err)
	}
	l2.Release()
}

func TestLockExcludesOtherProcessAndDiesWithIt(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tx_agent.lock")
	h := startHelper(t, "hold-lock:"+path, "locked")

	_, err := Acquire(path)
	var le *LockedError
	if !errors.As(err, &le) || le.PID != h.proc.Pid {
		t.Fatalf("Acquire while a child holds the lock = %v, want *LockedError with pid %d", err, h.proc.Pid)
	}
	if held, pid, err := Probe(path); err != nil || !held || pid != h.proc.Pid {
		t.Errorf("Probe = %v, %d, %v; want held by %d", held, pid, err, h.proc.Pid)
	}
	// Probing must not have disturbed the holder.
	if _, err := Acquire(path); !errors.As(err, &le) {
		t.Fatalf("Acquire after Probe = %v, want *LockedError", err)
	}

	// SIGKILL: the kernel drops the lock; no stale lock is left behind even
	// though the child never cleared its PID.
	if err := h.proc.Kill(); err != nil {
		t.Fatal(err)
	}
	if _, err := h.proc.Wait(); err != nil {
		t.Fatal(err)
	}
	if pid := readPID(path); pid != h.proc.Pid {
		t.Errorf("killed holder's pid %d not left in the file (got %d)", h.proc.Pid, pid)
	}
	l, err := Acquire(path)
	if err != nil {
		t.Fatalf("Acquire after the holder was killed = %v", err)
	}
	defer l.Release()
	if pid := readPID(path); pid != os.Getpid() {
		t.Errorf("lock file records pid %d, want ours %d", pid, os.Getpid())
	}
}

func TestAcquireWaitsOutAProbe(t *testing.T) {
	// A holder that has not written its PID yet looks like a Probe; Acquire
	// gives it a moment before reporting the lock as held.
	// The wait is widened so a slow machine cannot turn this into a race.
	defer func(w time.Duration) { pidWait = w }(pidWait)
	pidWait = time.Minute
	path := filepath.Join(t.TempDir(), "rx_agent.lock")
	l, err := Acquire(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := writePID(path, 0); err != nil {
		t.Fatal(err)
	}
	released := make(chan struct{})
	go func() {
		time.Sleep(20 * time.Millisecond)
		l.Release()
		close(released)
	}()
	l2, err := Acquire(path)
	<-released
	if err != nil {
		t.Fatalf("Acquire did not wait out a brief PID-less holder: %v", err)
	}
	l2.Release()
}

func TestAcquireMissingDirectory(t *testing.T) {
	_, err := Acquire(filepath.Join(t.TempDir(), "nope", "rx_agent.lock"))
	var le *LockedError
	if err == nil || errors.As(err, &le) {
		t.Fatalf("Acquire in a missing directory = %v, want a plain error", err)
	}
	if held, _, err := Probe(filepath.Join(t.TempDir(), "absent.lock")); held || err != nil {
		t.Errorf("Probe of a missing lock file = %v, %v", held, err)
	}
}
