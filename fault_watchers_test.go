package main

import (
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"rfhandoff/faultkit"
	"rfhandoff/state"
)

// fkWait bounds every wait in the fault and security suites: generous,
// for a loaded 2-core CI machine. Tests poll; they never sleep for it.
const fkWait = 60 * time.Second

// watcherUp waits until the side's state file says a watcher with pid runs.
func fkWatcherUp(t *testing.T, side *faultkit.Side, pid int, tx bool) {
	t.Helper()
	faultkit.Eventually(t, fkWait, side.Name+" watcher "+strconv.Itoa(pid)+" recorded as running", func() bool {
		if tx {
			st, err := state.LoadTX(side.StateDir())
			return err == nil && st.Running && st.WatcherPID == pid
		}
		st, err := state.LoadRX(side.StateDir())
		return err == nil && st.Running && st.WatcherPID == pid
	})
}

// Invariant: one watcher per side. A second `rx watch` or `tx watch` is
// refused naming the first one's pid, `rx check` beside an rx watcher is
// refused, and the first watcher lives on and stops cleanly.
func TestFaultSecondWatcherRefused(t *testing.T) {
	t.Parallel()
	lab := faultkit.NewLab(t)
	for _, c := range []struct {
		side *faultkit.Side
		cmd  string
		tx   bool
		lock string
	}{
		{lab.RX, "rx", false, state.RXLockFile},
		{lab.Main, "tx", true, state.TXLockFile},
	} {
		first := c.side.Start(c.cmd, "watch")
		fkWatcherUp(t, c.side, first.Pid(), c.tx)

		second := c.side.Run(fkWait, c.cmd, "watch")
		if second.Code == 0 || !strings.Contains(second.Stderr, "process "+strconv.Itoa(first.Pid())) {
			t.Errorf("second %s watch: want a refusal naming process %d\n%s", c.cmd, first.Pid(), second)
		}
		if c.cmd == "rx" {
			check := c.side.Run(fkWait, "rx", "check")
			if check.Code != 1 || !strings.Contains(check.Stderr, "watcher") {
				t.Errorf("rx check beside a watcher: want exit 1 naming the watcher\n%s", check)
			}
		}
		if first.Exited() {
			t.Fatalf("the first %s watcher died when a second one was refused", c.cmd)
		}
		first.Signal(syscall.SIGTERM)
		if st := first.Wait(fkWait); st.ExitCode() != 0 {
			t.Errorf("%s watch after SIGTERM: exit %d, want 0\nstderr:\n%s", c.cmd, st.ExitCode(), first.Stderr.String())
		}
		if faultkit.LockHeld(t, filepath.Join(c.side.StateDir(), c.lock)) {
			t.Errorf("%s lock still held after the watcher stopped", c.cmd)
		}
		running := false
		if c.tx {
			st, err := state.LoadTX(c.side.StateDir())
			if err != nil {
				t.Fatal(err)
			}
			running = st.Running
		} else {
			st, err := state.LoadRX(c.side.StateDir())
			if err != nil {
				t.Fatal(err)
			}
			running = st.Running
		}
		if running {
			t.Errorf("%s state still says running after a clean stop", c.cmd)
		}
	}
}
