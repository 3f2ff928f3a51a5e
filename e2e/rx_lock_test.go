package e2e

import (
	"fmt"
	"strings"
	"testing"

	"rfhandoff/internal/rxtest"
	"rfhandoff/internal/tasktest"
)

// A command refused beside another one holding the RX lock names the one
// that really holds it: here an rx approve waiting at its prompt, not a
// watcher.
func TestRxLockNamesItsHolder(t *testing.T) {
	t.Parallel()
	rx := rxtest.New(t, rxtest.Options{})
	rx.PushTask(tasktest.TaskSpec{ID: "LOCKED_0001"})
	first := rxTerminal(t, rx, "rx", "approve", "LOCKED_0001")
	first.WaitForText(menu, rxWait)
	holder := fmt.Sprintf("rx approve (process %d) is running and holds ", first.Pid())

	second := rxTerminal(t, rx, "rx", "approve", "LOCKED_0001")
	if code, errOut := exitOf(t, second), second.Stderr.String(); code != 1 || !strings.Contains(errOut, holder) || strings.Contains(errOut, "watcher") {
		t.Errorf("a second rx approve: exit %d, stderr %q; want it to name %q", code, errOut, holder)
	}
	for _, args := range [][]string{{"rx", "check"}, {"rx", "watch"}} {
		code, _, errOut := rxMain(t, rx, args...)
		if code != 1 || !strings.Contains(errOut, holder) || !strings.Contains(errOut, "rx_agent.lock") || strings.Contains(errOut, "watcher") {
			t.Errorf("%s beside rx approve: exit %d, stderr %q; want it to name %q", strings.Join(args, " "), code, errOut, holder)
		}
	}

	first.Send("D")
	if code := exitOf(t, first); code != 1 {
		t.Fatalf("deferring rx approve: exit %d\nstderr:\n%s", code, first.Stderr)
	}
	if code, _, errOut := rxMain(t, rx, "rx", "check"); code != 10 {
		t.Fatalf("rx check after the lock was released: exit %d, stderr %q", code, errOut)
	}
}
