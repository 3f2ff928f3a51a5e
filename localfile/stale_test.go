package localfile

import (
	"os"
	"path/filepath"
	"testing"
)

func TestRecoverStale(t *testing.T) {
	dead := deadPID(t)
	if PIDAlive(dead) {
		t.Skipf("pid %d of a reaped child was reused already", dead)
	}
	tests := []struct {
		name    string
		running bool
		pid     int
		want    bool
	}{
		{"running with a dead pid", true, dead, true},
		{"running without a pid", true, 0, true},
		{"running with a live pid", true, os.Getpid(), false},
		{"not running, dead pid", false, dead, false},
		{"not running", false, 0, false},
	}
	for _, tt := range tests {
		if got := recoverStale(tt.running, tt.pid); got != tt.want {
			t.Errorf("%s: RecoverStale(%v, %d) = %v, want %v", tt.name, tt.running, tt.pid, got, tt.want)
		}
	}
	if alwaysAlivePID > 0 && !PIDAlive(alwaysAlivePID) {
		t.Errorf("PIDAlive(%d) = false; init always exists (EPERM counts as alive)", alwaysAlivePID)
	}
}

func TestLockHolderRecoversAnyOtherRunningFlag(t *testing.T) {
	l, err := Acquire(filepath.Join(t.TempDir(), "rx_agent.lock"))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	// Holding the lock proves the recorded watcher is gone even if its PID
	// now names a live process (here: init).
	if !l.RecoverStale(true, 1) {
		t.Error("lock holder: running with another live pid not stale")
	}
	if !l.RecoverStale(true, deadPID(t)) {
		t.Error("lock holder: running with a dead pid not stale")
	}
	if l.RecoverStale(true, os.Getpid()) {
		t.Error("lock holder: its own running flag called stale")
	}
	if l.RecoverStale(false, 0) {
		t.Error("lock holder: not running called stale")
	}
}
