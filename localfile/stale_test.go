package localfile

import (
	"os"
	"path/filepath"
	"testing"
)

// PIDAlive is what audit show and the clone sweeper judge a recorded PID by.
func TestPIDAlive(t *testing.T) {
	dead := deadPID(t)
	if PIDAlive(dead) {
		t.Skipf("pid %d of a reaped child was reused already", dead)
	}
	if !PIDAlive(os.Getpid()) {
		t.Errorf("PIDAlive(own pid %d) = false", os.Getpid())
	}
	if PIDAlive(0) || PIDAlive(-1) {
		t.Error("PIDAlive of a pid never recorded (0 or below) = true")
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
