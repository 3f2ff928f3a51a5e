package fault

import (
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"rfhandoff/internal/faultkit"
	"rfhandoff/state"
)

// Invariant: one watcher per side. A second `tx watch` is refused naming
// the first one's pid, and the first lives on and stops cleanly. (The RX
// side, with rx check and rx approve beside a watcher, is
// TestRxWatchSecondRefused in cmd_rx_watch_test.go.)
func TestFaultSecondWatcherRefused(t *testing.T) {
	t.Parallel()
	lab := faultkit.NewLab(t)
	first := lab.Main.StartConsole("tx", "watch") // nothing to authorize: a console changes nothing
	faultkit.WatcherUp(t, lab.Main, first.Pid(), true)

	second := lab.Main.Run(faultkit.Wait, "tx", "watch")
	if second.Code == 0 || !strings.Contains(second.Stderr, "process "+strconv.Itoa(first.Pid())) {
		t.Errorf("second tx watch: want a refusal naming process %d\n%s", first.Pid(), second)
	}
	if first.Exited() {
		t.Fatal("the first tx watcher died when a second one was refused")
	}
	// tx status reads beside it; tx watch's own lock is untouched.
	if st := lab.Main.Run(faultkit.Wait, "tx", "status"); st.Code != 0 {
		t.Errorf("tx status beside a watcher:\n%s", st)
	}
	first.Signal(syscall.SIGTERM)
	if st := first.Wait(faultkit.Wait); st.ExitCode() != 0 {
		t.Errorf("tx watch after SIGTERM: exit %d, want 0\nstdout:\n%s", st.ExitCode(), first.Stdout.String())
	}
	if faultkit.LockHeld(t, filepath.Join(lab.Main.StateDir(), state.TXLockFile)) {
		t.Error("the TX lock is still held after the watcher stopped")
	}
	st, err := state.LoadTX(lab.Main.StateDir())
	if err != nil {
		t.Fatal(err)
	}
	if st.Running {
		t.Error("the TX state still says running after a clean stop")
	}
}
