package fault

import (
	"strings"
	"testing"

	"rfhandoff/internal/faultkit"
	"rfhandoff/internal/tasktest"
	"rfhandoff/state"
)

// Invariant: a full disk under .local fails closed and cleanly. A git whose
// audit line cannot be written does not run (no fetch happens); the state
// file keeps its old bytes;
// no temp file and no half-written audit line is left; once there is room
// again the same command works.
func TestFaultFullDisk(t *testing.T) {
	t.Parallel()
	lab := faultkit.NewLab(t)
	// Room for the state, the audit log and the RX mirror (its commits,
	// trees and the task file: tmpfs gives each file a 4 KiB page).
	faultkit.MountTmpfs(t, lab.RX.StateDir(), "256k")
	lab.PushTask(tasktest.Capture("FAULT_DISK_0001"))
	if out := lab.RX.Run(faultkit.Wait, "rx", "check"); out.Code != 10 {
		t.Fatalf("rx check on an empty tmpfs: want exit 10\n%s", out)
	}
	statePath := lab.RX.StateDir() + "/" + state.RXStateFile
	before := readFile(t, statePath)
	tracked := lab.RX.TrackingRef(tasktest.TaskBranch)

	free := faultkit.FillDisk(t, lab.RX.StateDir())
	lab.PushTask(tasktest.Capture("FAULT_DISK_0002"))
	full := lab.RX.Run(faultkit.Wait, "rx", "check")
	t.Logf("rx check on a full disk:\n%s", full)
	if full.Code != 1 || !strings.Contains(full.Stderr, "no space left on device") {
		t.Errorf("rx check on a full disk: want exit 1 naming ENOSPC\n%s", full)
	}
	if got := readFile(t, statePath); got != before {
		t.Errorf("the state file changed on a full disk:\n%s\nwas:\n%s", got, before)
	}
	if tmp := faultkit.TempFiles(t, lab.RX.StateDir()); len(tmp) != 0 {
		t.Errorf("temp files left on a full disk: %v", tmp)
	}
	if faultkit.CheckAuditChain(t, lab.RX.AuditPath()) {
		t.Errorf("the audit log has a half-written line:\n%s", tail(t, lab.RX.AuditPath(), 300))
	}
	// A git whose start line fitted may have run (it is in the log); the
	// fetch, whose line did not fit, did not.
	if got := lab.RX.TrackingRef(tasktest.TaskBranch); got != tracked {
		t.Errorf("a fetch ran although the audit log could not be written (tracking ref %s, was %s)", got, tracked)
	}

	free()
	again := lab.RX.Run(faultkit.Wait, "rx", "check")
	if again.Code != 10 || !strings.Contains(again.Stdout, "FAULT_DISK_0002") {
		t.Errorf("rx check with room again: want exit 10 for the new task\n%s", again)
	}
	if faultkit.CheckAuditChain(t, lab.RX.AuditPath()) {
		t.Error("the audit log has a torn line after recovery")
	}
}

// Invariant: the TX watcher on a full disk refuses to start (it cannot
// record what it shows, so it must show nothing), leaves the state as it
// was and no half-written audit line, and starts normally once there is
// room.
func TestFaultFullDiskTX(t *testing.T) {
	t.Parallel()
	lab := faultkit.NewLab(t)
	faultkit.MountTmpfs(t, lab.Main.StateDir(), "256k") // as above, with the MAIN mirror
	lab.PushTask(tasktest.Capture("FAULT_DISK_0003"))
	stopCleanly(t, lab.Main, []string{"tx", "watch"}, true)
	statePath := lab.Main.StateDir() + "/" + state.TXStateFile
	before := readFile(t, statePath)

	free := faultkit.FillDisk(t, lab.Main.StateDir())
	lab.PushResult(lab.Encode(lab.Ready("FAULT_DISK_0003")))
	full := lab.Main.Run(faultkit.Wait, "tx", "watch")
	t.Logf("tx watch on a full disk:\n%s", full)
	if full.Code == 0 || !strings.Contains(full.All(), "no space left on device") {
		t.Errorf("tx watch on a full disk: want a failure naming ENOSPC\n%s", full)
	}
	if strings.Contains(full.Stdout, "READY result") {
		t.Errorf("tx watch showed a result it could not record as shown:\n%s", full)
	}
	if got := readFile(t, statePath); got != before {
		t.Errorf("the TX state changed on a full disk:\n%s\nwas:\n%s", got, before)
	}
	if tmp := faultkit.TempFiles(t, lab.Main.StateDir()); len(tmp) != 0 {
		t.Errorf("temp files left on a full disk: %v", tmp)
	}
	if faultkit.CheckAuditChain(t, lab.Main.AuditPath()) {
		t.Errorf("the audit log has a half-written line:\n%s", tail(t, lab.Main.AuditPath(), 300))
	}

	free()
	w := lab.Main.Start("tx", "watch")
	w.Stdout.WaitForText("READY result for task FAULT_DISK_0003 awaiting authorization", faultkit.Wait)
}

// Invariant (PROTOCOL#audit-log): a start line that is written but cannot be
// synced is a failure like any other: the disk under the state directory
// fills while the file system above it still takes writes into memory, so
// the write succeeds and the sync fails. The fetch does not run, the log
// keeps no line for it, and once there is room the same command works.
func TestFaultAuditSyncFails(t *testing.T) {
	t.Parallel()
	lab := faultkit.NewLab(t)
	fill := faultkit.MountSyncFailing(t, lab.RX.StateDir())
	free := fill()
	lab.PushTask(tasktest.Capture("FAULT_SYNC_0001"))
	out := lab.RX.Run(faultkit.Wait, "rx", "check")
	t.Logf("rx check when the audit log cannot be synced:\n%s", out)
	if out.Code != 1 || !strings.Contains(out.Stderr, "audit log") || !strings.Contains(out.Stderr, "syncing") {
		t.Errorf("rx check: want exit 1 naming the audit log's failed sync\n%s", out)
	}
	if got := lab.RX.TrackingRef(tasktest.TaskBranch); got != "" {
		t.Errorf("a fetch ran although its start line could not be synced (tracking ref %s)", got)
	}
	if es := faultkit.AuditEntries(t, lab.RX.AuditPath()); len(es) != 0 {
		t.Errorf("%d lines left in the audit log for commands that did not run: %+v", len(es), es)
	}

	free()
	if again := lab.RX.Run(faultkit.Wait, "rx", "check"); again.Code != 10 || !strings.Contains(again.Stdout, "FAULT_SYNC_0001") {
		t.Errorf("rx check with room again: want exit 10 for the task\n%s", again)
	}
	if faultkit.CheckAuditChain(t, lab.RX.AuditPath()) {
		t.Error("the audit log has a torn line after recovery")
	}
}
