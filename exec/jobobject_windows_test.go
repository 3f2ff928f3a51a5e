package exec

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// platformHelper: the Job Object scenario's intermediate.
func platformHelper(name, arg string) (int, bool) {
	if name != "jobparent" {
		return 0, false
	}
	return jobParent(arg), true
}

// jobParent is an rfhandoff stand-in: its own stack, a child that ignores
// Ctrl-C ("sleep"), the child's pid written to dir/child.pid, then sleep
// until killed.
func jobParent(dir string) int {
	audit, err := OpenAuditLog(filepath.Join(dir, "parent-audit.jsonl"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 3
	}
	s, err := New(Options{Role: RoleProbe, Audit: audit, Tools: map[Tool]string{HackRFInfo: filepath.Join(dir, helperExe)}})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 3
	}
	p, err := s.Start(context.Background(), Cmd{Tool: HackRFInfo, Args: []string{"-d", "sleep"}})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 3
	}
	if err := os.WriteFile(filepath.Join(dir, "child.pid"), []byte(strconv.Itoa(p.Pid())), 0o600); err != nil {
		return 3
	}
	time.Sleep(time.Hour)
	return 0
}

// A child is in a Job Object that ends with its last handle: killing
// rfhandoff outright (TerminateProcess, no chance to clean up) ends the
// child too, as Pdeathsig does on Linux.
func TestChildDiesWithKilledParent(t *testing.T) {
	dir := helperDir(t)
	s, _ := newStack(t, RoleProbe, os.Environ(), func(o *Options) {
		o.Tools = map[Tool]string{HackRFInfo: filepath.Join(dir, helperExe)}
	})
	parent, err := s.Start(context.Background(), Cmd{Tool: HackRFInfo, Args: []string{"-d", "jobparent=" + dir}})
	if err != nil {
		t.Fatal(err)
	}
	var child int
	deadline := time.Now().Add(20 * time.Second)
	for child == 0 {
		if b, err := os.ReadFile(filepath.Join(dir, "child.pid")); err == nil {
			child, _ = strconv.Atoi(string(b))
		}
		if time.Now().After(deadline) {
			t.Fatal("the intermediate never reported its child")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if processGone(child) {
		t.Fatalf("child %d is not running before its parent is killed", child)
	}
	// Kill only the intermediate process, not its job: its own job handle
	// closes with it, and that must end the child.
	pp, err := os.FindProcess(parent.Pid())
	if err != nil {
		t.Fatal(err)
	}
	if err := pp.Kill(); err != nil {
		t.Fatal(err)
	}
	// Not parent.Wait first: it closes the intermediate's own job, which
	// would end the child whatever the intermediate's job did.
	deadline = time.Now().Add(10 * time.Second)
	for !processGone(child) {
		if time.Now().After(deadline) {
			_, _ = parent.Wait()
			t.Fatalf("child %d still runs after its parent was killed", child)
		}
		time.Sleep(50 * time.Millisecond)
	}
	_, _ = parent.Wait()
}
