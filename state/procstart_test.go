package state

import (
	"os"
	"rfhandoff/exec"
	"runtime"
	"testing"
)

// A running process answers one start, the same each time, and another
// process answers another; a pid with no process answers none.
func TestProcessStart(t *testing.T) {
	self, ok := exec.ProcessStart(os.Getpid())
	if runtime.GOOS != "linux" && runtime.GOOS != "windows" {
		if ok {
			t.Fatalf("exec.ProcessStart = %d, true where no start is known", self)
		}
		t.Skip("no process start on " + runtime.GOOS + ": a recorded pid is checked without it")
	}
	if !ok || self <= 0 {
		t.Fatalf("exec.ProcessStart(self) = %d, %v", self, ok)
	}
	if again, _ := exec.ProcessStart(os.Getpid()); again != self {
		t.Errorf("exec.ProcessStart(self) changed: %d then %d", self, again)
	}
	h := startHelper(t, "hold-lock:"+t.TempDir()+"/x.lock", "locked")
	other, ok := exec.ProcessStart(h.proc.Pid)
	if !ok || other == self {
		t.Errorf("exec.ProcessStart(helper) = %d, %v; self %d", other, ok, self)
	}
	if s, ok := exec.ProcessStart(deadPID(t)); ok {
		t.Errorf("exec.ProcessStart(dead pid) = %d, true", s)
	}
	if _, ok := exec.ProcessStart(0); ok {
		t.Error("exec.ProcessStart(0) answered")
	}
}
