package exec

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// A running process answers one start, the same each time, and another
// process answers another; a pid with no process answers none.
func TestProcessStart(t *testing.T) {
	self, ok := ProcessStart(os.Getpid())
	if runtime.GOOS != "linux" && runtime.GOOS != "windows" {
		if ok {
			t.Fatalf("ProcessStart = %d, true where no start is known", self)
		}
		t.Skip("no process start on " + runtime.GOOS + ": a recorded pid is checked without it")
	}
	if !ok || self <= 0 {
		t.Fatalf("ProcessStart(self) = %d, %v", self, ok)
	}
	if again, _ := ProcessStart(os.Getpid()); again != self {
		t.Errorf("ProcessStart(self) changed: %d then %d", self, again)
	}
	helper := filepath.Join(helperDir(t), helperExe)
	start := func(mode string) *os.Process {
		p, err := os.StartProcess(helper, []string{helperExe, "-d", mode}, &os.ProcAttr{Files: []*os.File{nil, nil, os.Stderr}})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	sleeper := start("sleep")
	defer func() { sleeper.Kill(); sleeper.Wait() }()
	other, ok := ProcessStart(sleeper.Pid)
	if !ok || other == self {
		t.Errorf("ProcessStart(helper) = %d, %v; self %d", other, ok, self)
	}
	gone := start("exit=0")
	if _, err := gone.Wait(); err != nil {
		t.Fatal(err)
	}
	if s, ok := ProcessStart(gone.Pid); ok {
		t.Errorf("ProcessStart(dead pid) = %d, true", s)
	}
	if _, ok := ProcessStart(0); ok {
		t.Error("ProcessStart(0) answered")
	}
}
