package faultkit

import (
	"regexp"
	"strconv"
	"syscall"
	"testing"
	"time"

	"rfhandoff/internal/prompttest"
	"rfhandoff/internal/tasktest"
	"rfhandoff/state"
)

// Wait bounds every wait in the end-to-end suites: generous, for a 2-core
// machine running a second test suite beside this one (a wait ends as soon
// as its condition holds, so a passing test never pays it). Tests poll;
// they never sleep for it.
const Wait = 3 * time.Minute

// ReAuthorized matches tx watch's line for a record it wrote; its group
// is the record's path.
var ReAuthorized = regexp.MustCompile(`AUTHORIZED: record (\S+)`)

// Authorize publishes a READY result for a new task id and has `tx
// watch`, at a terminal, authorize it with the phrase; it returns the
// record's path once the watcher stopped cleanly.
func Authorize(t *testing.T, lab *Lab, id string) string {
	t.Helper()
	lab.PushTask(tasktest.Capture(id))
	lab.PushResult(lab.Encode(lab.Ready(id)))
	w := lab.Main.StartTTY("tx", "watch")
	TypePhrase(t, w)
	m := w.WaitFor(ReAuthorized, Wait)
	w.Signal(syscall.SIGTERM)
	if st := w.Wait(Wait); st.ExitCode() != 0 {
		t.Fatalf("tx watch after SIGTERM: exit %d", st.ExitCode())
	}
	return m[1]
}

// TypePhrase waits for the phrase prompt on s's terminal and types the
// phrase.
func TypePhrase(t *testing.T, s *prompttest.Session) {
	t.Helper()
	s.WaitForText("Type exactly: AUTHORIZE RF TX", Wait)
	s.WaitForText("> ", Wait)
	s.Send("AUTHORIZE RF TX")
}

// WatcherUp waits until the side's state file says a watcher with pid runs.
func WatcherUp(t *testing.T, side *Side, pid int, tx bool) {
	t.Helper()
	Eventually(t, Wait, side.Name+" watcher "+strconv.Itoa(pid)+" recorded as running", func() bool {
		if tx {
			st, err := state.LoadTX(side.StateDir())
			return err == nil && st.Running && st.WatcherPID == pid
		}
		st, err := state.LoadRX(side.StateDir())
		return err == nil && st.Running && st.WatcherPID == pid
	})
}

// ApprovalMenu is how the RX approval prompt's question starts, at rx
// watch ("[S] Stop watcher") and at rx approve ("[S] Stop (nothing
// approved)") alike.
const ApprovalMenu = "[A] Approve  [D] Defer  [S] Stop"
