package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"rfhandoff/config"
	"rfhandoff/exec"
	"rfhandoff/gate"
	"rfhandoff/internal/faultkit"
	"rfhandoff/internal/prompttest"
	"rfhandoff/internal/publishtest"
	"rfhandoff/internal/tasktest"
	"rfhandoff/txwatch"
)

const hookSecret = "whsec_E2E_EVENTS_77"

// notifyTo points side's [notify] at the hook server, with the secret in
// a file of its own and a short delivery timeout.
func notifyTo(t *testing.T, side *faultkit.Side, hook *hookServer) {
	t.Helper()
	side.Policy.Notify.WebhookURL = hook.URL + "/hook"
	side.Policy.Notify.WebhookSecretFile = writeSecret(t)
	side.Policy.Notify.Timeout = config.Duration{Duration: time.Second}
	side.WritePolicy()
}

func writeSecret(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "hook.secret")
	if err := os.WriteFile(p, []byte(hookSecret+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// waitEvent waits until the hook has received an event named name that
// keep accepts (nil: any) and returns it.
func waitEvent(t *testing.T, hook *hookServer, name string, keep func(map[string]string) bool) map[string]string {
	t.Helper()
	var got map[string]string
	faultkit.Eventually(t, faultkit.Wait, "a "+name+" notification", func() bool {
		evs, _ := hook.received()
		for _, ev := range evs {
			if ev["event"] == name && (keep == nil || keep(ev)) {
				got = ev
				return true
			}
		}
		return false
	})
	return got
}

// eventsNamed counts the received events called name.
func eventsNamed(hook *hookServer, name string) int {
	evs, _ := hook.received()
	n := 0
	for _, ev := range evs {
		if ev["event"] == name {
			n++
		}
	}
	return n
}

// checkEvent checks the fields every event carries, and the task's.
func checkEvent(t *testing.T, ev map[string]string, role, taskID, title, risk string) {
	t.Helper()
	host, _ := os.Hostname()
	if ev["role"] != role || ev["node"] != host || ev["task_id"] != taskID || ev["title"] != title || ev["risk_level"] != risk {
		t.Errorf("%s: role %q node %q task %q title %q risk %q; want %q %q %q %q %q",
			ev["event"], ev["role"], ev["node"], ev["task_id"], ev["title"], ev["risk_level"], role, host, taskID, title, risk)
	}
	if _, err := time.Parse(time.RFC3339, ev["time"]); err != nil {
		t.Errorf("%s: time %q: %v", ev["event"], ev["time"], err)
	}
	if taskID != "" && !strings.Contains(ev["message"], "task "+taskID+" "+strconv.Quote(title)+" ("+risk+")") {
		t.Errorf("%s: message %q does not name the task, title and level", ev["event"], ev["message"])
	}
}

var reSecondsLeft = regexp.MustCompile(`, (\d+) s left$`)

// TestNotifyTxWatchAndExecute: tx watch announces the phrase with the
// seconds left, the task's title and level read through the MAIN mirror;
// tx execute announces the action it ran, and nothing for an execution
// refused at the phrase or for a used record; watcher_stopped when tx
// watch ends.
func TestNotifyTxWatchAndExecute(t *testing.T) {
	t.Parallel()
	lab := faultkit.NewLab(t)
	hook := startHookServer(t, hookSecret)
	notifyTo(t, lab.Main, hook)
	const id, title = "NOTIFY_TX_0001", `Beacon at 433 MHz, "north" mast`
	lab.PushTask(tasktest.TaskSpec{ID: id, Title: title, Level: gate.Yellow})
	lab.PushResult(lab.Encode(lab.Ready(id)))

	w := lab.Main.StartTTY("tx", "watch")
	faultkit.TypePhrase(t, w)
	ev := waitEvent(t, hook, config.EventAuthorizationNeeded, nil)
	checkEvent(t, ev, "main", id, title, "YELLOW")
	m := reSecondsLeft.FindStringSubmatch(ev["message"])
	if m == nil {
		t.Fatalf("authorization_needed %q does not say how many seconds are left", ev["message"])
	}
	if left, _ := strconv.Atoi(m[1]); left <= 0 || left > lab.Main.Policy.Limits.MaxPublicationAgeS {
		t.Errorf("authorization_needed says %d s left; the window is at most %d s", left, lab.Main.Policy.Limits.MaxPublicationAgeS)
	}
	record := w.WaitFor(faultkit.ReAuthorized, faultkit.Wait)[1]
	if n := eventsNamed(hook, config.EventWatcherStopped); n != 0 {
		t.Fatalf("watcher_stopped sent %d times while tx watch runs", n)
	}
	w.Signal(syscall.SIGTERM)
	if st := w.Wait(faultkit.Wait); st.ExitCode() != 0 {
		t.Fatalf("tx watch after SIGTERM: exit %d", st.ExitCode())
	}
	// Delivered before the process exits: no wait needed.
	stopped := waitEvent(t, hook, config.EventWatcherStopped, nil)
	checkEvent(t, stopped, "main", "", "", "")
	if !strings.Contains(stopped["message"], "tx watch stopped") {
		t.Errorf("watcher_stopped %q", stopped["message"])
	}

	// Refused at the phrase: the record stays unused, nothing announced.
	x := lab.Main.StartTTY("tx", "execute", record)
	x.WaitForText("Type exactly: AUTHORIZE RF TX", faultkit.Wait)
	x.WaitForText("> ", faultkit.Wait)
	x.Send("AUTHORIZE RF TC")
	if st := x.Wait(faultkit.Wait); st.ExitCode() != 1 {
		t.Fatalf("tx execute with a wrong phrase: exit %d, want 1\n%s", st.ExitCode(), x.TTY.String())
	}
	if !strings.Contains(x.TTY.String(), "refused at phrase") {
		t.Fatalf("tx execute with a wrong phrase was not refused:\n%s", x.TTY.String())
	}
	if n := eventsNamed(hook, config.EventTXExecuted); n != 0 {
		t.Fatalf("tx_executed sent for an execution refused at the phrase")
	}

	x = lab.Main.StartTTY("tx", "execute", record)
	faultkit.TypePhrase(t, x)
	if st := x.Wait(faultkit.Wait); st.ExitCode() != 0 {
		t.Fatalf("tx execute: exit %d\n%s", st.ExitCode(), x.TTY.String())
	}
	if n := eventsNamed(hook, config.EventTXExecuted); n != 1 {
		t.Fatalf("%d tx_executed after the action ran, want 1 (delivered before tx execute exits)", n)
	}
	ex := waitEvent(t, hook, config.EventTXExecuted, nil)
	checkEvent(t, ex, "main", id, title, "YELLOW")
	if !strings.HasSuffix(ex["message"], "tx execute ran the fake action: rf_tx 0, exit code 0") {
		t.Errorf("tx_executed %q", ex["message"])
	}

	// The used record is refused before the phrase: nothing more sent.
	again := lab.Main.Run(faultkit.Wait, "tx", "execute", record)
	if again.Code != 1 || !strings.Contains(again.All(), "refused at") {
		t.Fatalf("a used record run again: want a refusal\n%s", again)
	}
	if n := eventsNamed(hook, config.EventTXExecuted); n != 1 {
		t.Errorf("%d tx_executed after a refused re-run, want still 1", n)
	}
	if evs, bad := hook.received(); bad != 0 {
		t.Errorf("%d badly signed deliveries among %v", bad, evs)
	}
}

// TestNotifyReceiverFailingTxWatchGoesOn: a receiver that answers 500,
// hangs past the timeout or is down never holds up tx watch: each READY is
// still shown and asked for at once; the failure is reported once, not for
// every event; and once the receiver is back the next event goes out.
func TestNotifyReceiverFailingTxWatchGoesOn(t *testing.T) {
	t.Parallel()
	lab := faultkit.NewLab(t)
	hook := startHookServer(t, hookSecret)
	notifyTo(t, lab.Main, hook)
	w := lab.Main.StartTTY("tx", "watch")
	faultkit.WatcherUp(t, lab.Main, w.Pid(), true)

	// offer publishes a READY for a new task and waits for its prompt,
	// which the operator refuses with a wrong phrase.
	offer := func(id string) {
		t.Helper()
		lab.PushTask(tasktest.Capture(id))
		lab.PushResult(lab.Encode(lab.Ready(id)))
		w.WaitForText("READY result for task "+id+" awaiting authorization", faultkit.Wait)
		for range txwatch.PhraseTries { // a wrong phrase is asked again until the tries run out
			w.WaitForText("Type exactly: AUTHORIZE RF TX", faultkit.Wait)
			w.Send("not the phrase")
		}
		w.WaitFor(regexp.MustCompile(`wrong phrase for result \S+, \d+ times: nothing authorized`), faultkit.Wait)
	}
	for i, mode := range []string{"500", "hang", "down"} {
		before := hook.requests()
		switch mode {
		case "down":
			hook.down(t)
		default:
			hook.setMode(mode)
		}
		offer(fmt.Sprintf("NOTIFY_FAIL_%04d", i+1))
		// The audit log's delivery line comes after the last attempt: the
		// receiver is changed only once this event is given up.
		faultkit.Eventually(t, faultkit.Wait, "the delivery given up in mode "+mode, func() bool { return deliveries(t, lab.Main) == i+1 })
		if got := hook.requests(); (mode == "down") != (got == before) {
			t.Errorf("mode %s: %d requests reached the receiver, %d before", mode, got, before)
		}
	}
	if evs, _ := hook.received(); len(evs) != 0 {
		t.Fatalf("events delivered while the receiver failed: %v", evs)
	}
	hook.up(t)
	hook.setMode("")
	offer("NOTIFY_FAIL_0004")
	ev := waitEvent(t, hook, config.EventAuthorizationNeeded, nil)
	if ev["task_id"] != "NOTIFY_FAIL_0004" {
		t.Errorf("the first event delivered after the receiver is back is for %q", ev["task_id"])
	}
	if w.Exited() {
		t.Fatal("tx watch died")
	}
	w.Signal(syscall.SIGTERM)
	if st := w.Wait(faultkit.Wait); st.ExitCode() != 0 {
		t.Errorf("tx watch after SIGTERM: exit %d", st.ExitCode())
	}
	tty := w.TTY.String()
	if n := strings.Count(tty, "notify: delivery failed"); n != 1 || !strings.Contains(tty, "notify: delivering again") {
		t.Errorf("the failing receiver was reported %d times, want once, and its recovery once:\n%s", n, tty)
	}
	if strings.Contains(tty, hookSecret) || strings.Contains(tty, "/hook") {
		t.Errorf("tx watch's output holds the secret or the hook's path:\n%s", tty)
	}
}

// deliveries counts the delivery lines in side's audit log.
func deliveries(t *testing.T, side *faultkit.Side) int {
	t.Helper()
	n := 0
	for _, e := range faultkit.AuditEntries(t, side.AuditPath()) {
		if e.Event == exec.EventDelivery {
			n++
		}
	}
	return n
}

// TestNotifyRemoteOutage: both watchers, their remote (git daemon) gone
// for longer than poll.max_backoff, send remote_unreachable once and
// remote_back when it answers again; each sends watcher_stopped when it
// ends.
func TestNotifyRemoteOutage(t *testing.T) {
	t.Parallel()
	lab := faultkit.NewLab(t)
	d := lab.StartDaemon()
	lab.UseURL(lab.DaemonURL(d))
	hook := startHookServer(t, hookSecret)
	notifyTo(t, lab.Main, hook)
	notifyTo(t, lab.RX, hook)
	lab.PushTask(tasktest.Capture("NOTIFY_AWAY_0001"))

	rxw := lab.RX.Start("rx", "watch")
	txw := lab.Main.Start("tx", "watch")
	faultkit.WatcherUp(t, lab.RX, rxw.Pid(), false)
	faultkit.WatcherUp(t, lab.Main, txw.Pid(), true)
	faultkit.WaitFetches(t, lab.Main, "a successful fetch through the daemon", 1, faultkit.Call.OK)
	faultkit.WaitFetches(t, lab.RX, "a successful fetch through the daemon", 1, faultkit.Call.OK)
	role := func(r string) func(map[string]string) bool {
		return func(ev map[string]string) bool { return ev["role"] == r }
	}
	if n := eventsNamed(hook, config.EventRemoteUnreachable) + eventsNamed(hook, config.EventRemoteBack); n != 0 {
		t.Fatalf("%d outage events before any outage", n)
	}

	d.Stop()
	for _, side := range []struct{ role, watcher string }{{"main", "tx watch"}, {"rx", "rx watch"}} {
		ev := waitEvent(t, hook, config.EventRemoteUnreachable, role(side.role))
		checkEvent(t, ev, side.role, "", "", "")
		if !strings.Contains(ev["message"], side.watcher+" cannot reach the remote for ") {
			t.Errorf("remote_unreachable %q", ev["message"])
		}
	}
	// Once per outage, however many polls fail meanwhile.
	faultkit.WaitFetches(t, lab.Main, "more failed fetches", 6, faultkit.Call.Failed)
	if n := eventsNamed(hook, config.EventRemoteUnreachable); n != 2 {
		t.Errorf("%d remote_unreachable for one outage of two watchers, want 2", n)
	}
	if n := eventsNamed(hook, config.EventRemoteBack); n != 0 {
		t.Errorf("remote_back sent while the remote is still down")
	}

	d.Start()
	for _, side := range []struct{ role, watcher string }{{"main", "tx watch"}, {"rx", "rx watch"}} {
		ev := waitEvent(t, hook, config.EventRemoteBack, role(side.role))
		if !strings.Contains(ev["message"], side.watcher+" reaches the remote again") {
			t.Errorf("remote_back %q", ev["message"])
		}
	}
	for _, s := range []*prompttest.Session{rxw, txw} {
		s.Signal(syscall.SIGTERM)
		if st := s.Wait(faultkit.Wait); st.ExitCode() != 0 {
			t.Errorf("watcher after SIGTERM: exit %d\n%s", st.ExitCode(), s.Stdout.String())
		}
	}
	for _, r := range []string{"main", "rx"} {
		waitEvent(t, hook, config.EventWatcherStopped, role(r))
	}
	if n := eventsNamed(hook, config.EventRemoteUnreachable); n != 2 {
		t.Errorf("%d remote_unreachable in all, want 2", n)
	}
	if _, bad := hook.received(); bad != 0 {
		t.Errorf("%d badly signed deliveries", bad)
	}
}

// TestNotifyCaptureEvents: rx capture sends capture_started and
// capture_complete (exit code, size, overruns) with the task's title and
// level; a capture that fails (no clock) sends capture_failed naming the
// task and the reason, and no capture_complete.
func TestNotifyCaptureEvents(t *testing.T) {
	t.Parallel()
	hook := startHookServer(t, hookSecret)
	withNotify := func(s *captureSide) {
		t.Helper()
		toml := fmt.Sprintf("\n[notify]\nwebhook_url = %q\nwebhook_secret_file = %q\n", hook.URL+"/hook", writeSecret(t))
		f, err := os.OpenFile(s.policy, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := f.WriteString(toml); err != nil {
			t.Fatal(err)
		}
	}
	const title = "Test task " + publishtest.TaskID // tasktest's default

	s := newCaptureSide(t, "", nil)
	withNotify(s)
	sess := prompttest.StartDetached(t, s.bin, s.args(publishtest.TaskID), prompttest.Options{Dir: s.f.Checkout, Env: s.env})
	if code := exitStatus(t, sess.Wait(3*time.Minute)); code != 0 {
		t.Fatalf("rx capture: exit %d\nstdout:\n%s\nstderr:\n%s", code, sess.Stdout.String(), sess.Stderr.String())
	}
	started := waitEvent(t, hook, config.EventCaptureStarted, nil)
	checkEvent(t, started, "rx", publishtest.TaskID, title, "YELLOW")
	if !regexp.MustCompile(`hackrf_transfer started \(pid [1-9]\d*\)$`).MatchString(started["message"]) {
		t.Errorf("capture_started %q", started["message"])
	}
	done := waitEvent(t, hook, config.EventCaptureComplete, nil)
	checkEvent(t, done, "rx", publishtest.TaskID, title, "YELLOW")
	data, err := os.Stat(s.dataPath())
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("capture complete: exit code 0, %d bytes, overruns 0", data.Size())
	if !strings.HasSuffix(done["message"], want) {
		t.Errorf("capture_complete %q, want it to end %q", done["message"], want)
	}
	if n := eventsNamed(hook, config.EventCaptureFailed); n != 0 {
		t.Errorf("capture_failed sent for a capture that completed")
	}

	f := newCaptureSide(t, "noclock", nil)
	withNotify(f)
	out := faultkit.Run(t, f.env, f.f.Checkout, rxWait, "", f.args()...)
	if out.Code != 1 {
		t.Fatalf("rx capture without a clock: exit %d, want 1\n%s", out.Code, out)
	}
	failed := waitEvent(t, hook, config.EventCaptureFailed, nil)
	checkEvent(t, failed, "rx", publishtest.TaskID, title, "YELLOW")
	if !strings.Contains(failed["message"], "capture failed: ") || !strings.Contains(failed["message"], "clock") {
		t.Errorf("capture_failed %q", failed["message"])
	}
	if n := eventsNamed(hook, config.EventCaptureStarted); n != 1 {
		t.Errorf("%d capture_started, want 1 (the capture without a clock never started the tool)", n)
	}
}
