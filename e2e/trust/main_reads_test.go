package trust

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"rfhandoff/config"
	"rfhandoff/internal/faultkit"
	"rfhandoff/internal/gittest"
	"rfhandoff/internal/tasktest"
	"rfhandoff/result"
	"rfhandoff/state"
	"rfhandoff/txwatch"
)

// The MAIN side reads every result since its last look (PROTOCOL#trust,
// "Every result since the last look"), not only the tip: these tests play
// the RX key (or an RX agent that can run rx publish-result) hiding a
// CAPTURE_COMPLETE between two polls of tx watch.

// resultFiles is one publish of data as RX_RESULT.json, for SignedSeries.
func resultFiles(data []byte) map[string]string {
	return map[string]string{tasktest.ResultPath: string(data)}
}

// completedAt is the result commit the MAIN state says task id's
// CAPTURE_COMPLETE was seen at ("" for none).
func completedAt(t *testing.T, s *faultkit.Side, id string) string {
	t.Helper()
	st, err := state.LoadTX(s.StateDir())
	if err != nil {
		t.Fatal(err)
	}
	return st.CompletedTasks[id]
}

// noOffer fails when w's terminal ever showed the phrase prompt.
func noOffer(t *testing.T, out string) {
	t.Helper()
	if strings.Contains(out, "Type exactly") {
		t.Fatalf("offered for authorization:\n%s", out)
	}
}

// READY, COMPLETE and the same READY signed again land between two polls
// of a running tx watch: it sees the COMPLETE in the history, refuses the
// READY at the tip naming it, and records the task as over.
func TestMainReadsCompleteBetweenPolls(t *testing.T) {
	t.Parallel()
	l := roomyTrustLab(t)
	const id = "MAINREAD_POLLS_0001"
	l.PushTask(tasktest.Capture(id))
	w := l.Main.StartTTY("tx", "watch")
	w.WaitForText("no "+tasktest.ResultPath+" at result branch commit", faultkit.Wait) // the first look

	r := l.Ready(id)
	ready, complete := l.Encode(r), l.Encode(completeOf(r))
	cs := faultkit.SignedSeries(t, l.Remote, tasktest.ResultBranch, l.rx.Private,
		resultFiles(ready), resultFiles(complete), resultFiles(ready))
	w.WaitForText("task "+id+" is over: a CAPTURE_COMPLETE for it was seen at result commit "+cs[1], faultkit.Wait)
	w.Signal(syscall.SIGTERM)
	w.Wait(faultkit.Wait)
	noOffer(t, w.TTY.String())
	if got := completedAt(t, l.Main, id); got != cs[1] {
		t.Fatalf("completed_tasks[%s] = %q, want the COMPLETE's commit %s", id, got, cs[1])
	}
	if recs := l.records(t); len(recs) != 0 {
		t.Fatalf("records written: %v", recs)
	}
}

// A record made for a READY before its COMPLETE: the COMPLETE and the same
// READY signed again come while tx watch is not running. tx execute's
// re-fetch reads the history since the record's commit and refuses naming
// the COMPLETE; tx watch, started afterwards, reads since its last look,
// records the task as over and offers nothing.
func TestMainExecuteRefusesRecordMadeBeforeComplete(t *testing.T) {
	t.Parallel()
	l := roomyTrustLab(t)
	const id = "MAINREAD_EXEC_0001"
	l.PushTask(tasktest.Capture(id))
	r := l.Ready(id)
	ready := l.Encode(r)
	l.publish(t, r, l.rx.Private)
	record := l.authorizeTip(t)
	cs := faultkit.SignedSeries(t, l.Remote, tasktest.ResultBranch, l.rx.Private,
		resultFiles(l.Encode(completeOf(r))), resultFiles(ready))

	over := "task " + id + " is over: a CAPTURE_COMPLETE for it was seen at result commit " + cs[0]
	l.executeRefused(t, record, true, "refused at re-check", over)

	w := l.Main.StartTTY("tx", "watch")
	faultkit.Eventually(t, faultkit.Wait, "tx watch recording the task as over", func() bool {
		return completedAt(t, l.Main, id) == cs[0]
	})
	w.Signal(syscall.SIGTERM)
	w.Wait(faultkit.Wait)
	noOffer(t, w.TTY.String())
	// Now the quick checks know it too.
	l.executeRefused(t, record, false, "refused at quick checks", over)
}

// A COMPLETE two publishes back, across a restart: tx watch stopped after
// its look, then the COMPLETE, an unrelated commit and a new READY for
// the task were pushed one by one. The restarted watcher reads from the
// look its state kept, not from the tip.
func TestMainReadsCompleteTwoPublishesBack(t *testing.T) {
	t.Parallel()
	l := roomyTrustLab(t)
	const id = "MAINREAD_BACK_0001"
	l.PushTask(tasktest.Capture(id))
	w := l.Main.StartTTY("tx", "watch")
	w.WaitForText("no "+tasktest.ResultPath+" at result branch commit", faultkit.Wait)
	w.Signal(syscall.SIGTERM)
	w.Wait(faultkit.Wait)

	r := l.Ready(id)
	complete := l.publish(t, completeOf(r), l.rx.Private)
	l.PushFiles(tasktest.ResultBranch, map[string]string{"docs/handoff/results/NOTES.md": "a note\n"})
	again := l.Ready(id)
	again.CapturePID = 4242
	tip := l.publish(t, again, l.rx.Private)

	w = l.Main.StartTTY("tx", "watch")
	w.WaitForText("at commit "+tip[:12]+" refused, not offered for authorization", faultkit.Wait)
	w.WaitForText("task "+id+" is over: a CAPTURE_COMPLETE for it was seen at result commit "+complete, faultkit.Wait)
	w.Signal(syscall.SIGTERM)
	w.Wait(faultkit.Wait)
	noOffer(t, w.TTY.String())
}

// Several nodes (PROTOCOL#several-nodes): node rx-a publishes READY, COMPLETE and
// the same READY again between two polls, rx-b a READY. The COMPLETE on
// rx-a's branch ends the task: no offer for the two READYs at the tips.
// Without result_signers: every branch is read the same way.
func TestMainReadsNodeCompleteBetweenPolls(t *testing.T) {
	t.Parallel()
	l := faultkit.NewLab(t)
	for _, s := range []*faultkit.Side{l.RX, l.Main} {
		s.Policy.Limits.PlannedDurationS = 900
		s.Policy.Limits.MaxPublicationAgeS = 300
	}
	l.RX.WritePolicy()
	nodes := []string{"rx-a", "rx-b"}
	for _, n := range nodes {
		gittest.Seed(t, l.Remote, n, map[string]string{"README.md": "node " + n + "\n"})
		l.Main.Policy.Nodes = append(l.Main.Policy.Nodes, config.MainNode{Name: n, ResultBranch: n})
	}
	l.Main.WritePolicy()
	const id = "MAINREAD_NODES_0001"
	spec := tasktest.Capture(id)
	spec.RXNodes = strings.Join(nodes, ", ")
	l.PushTask(spec)
	encode := func(r *result.Result, node string) []byte {
		data, err := result.EncodeNode(r, result.NodeFields{Node: node})
		if err != nil {
			t.Fatal(err)
		}
		return data
	}

	w := l.Main.StartTTY("tx", "watch")
	w.WaitForText("task "+id+": waiting for rx-a, rx-b", faultkit.Wait) // the first look at both branches
	r := l.Ready(id)
	a := faultkit.SignedSeries(t, l.Remote, "rx-a", "",
		resultFiles(encode(r, "rx-a")), resultFiles(encode(completeOf(r), "rx-a")), resultFiles(encode(r, "rx-a")))
	b := l.Ready(id)
	b.CapturePID = 5150
	gittest.Seed(t, l.Remote, "rx-b", resultFiles(encode(b, "rx-b")))
	w.WaitForText("task "+id+" is over: a CAPTURE_COMPLETE for it was seen at result commit "+a[1], faultkit.Wait)
	w.Signal(syscall.SIGTERM)
	w.Wait(faultkit.Wait)
	noOffer(t, w.TTY.String())
	if got := completedAt(t, l.Main, id); got != a[1] {
		t.Fatalf("completed_tasks[%s] = %q, want rx-a's COMPLETE %s", id, got, a[1])
	}
}

// A record is used once, and that survives deleting its files (finding
// 10): tx execute runs a record, then its used marker and outcome are
// deleted; a second tx execute is refused before the phrase. A record
// whose bytes were edited (a later expiry) is refused as not the one tx
// watch issued, and so is its restored original once the list of issued
// records is deleted: deleting fails closed.
func TestMainRecordUsedOnceSurvivesDeletion(t *testing.T) {
	t.Parallel()
	l := faultkit.NewLab(t)
	record := faultkit.Authorize(t, l, "MAINREAD_USED_0001")
	x := l.Main.StartTTY("tx", "execute", record)
	faultkit.TypePhrase(t, x)
	if st := x.Wait(faultkit.Wait); st.ExitCode() != 0 {
		t.Fatalf("tx execute: exit %d\n%s", st.ExitCode(), x.TTY.String())
	}
	store, err := txwatch.StoreOf(l.Main.Policy)
	if err != nil {
		t.Fatal(err)
	}
	name := filepath.Base(record)
	for _, f := range []string{strings.TrimSuffix(name, ".json") + ".used", txwatch.OutcomeName(name)} {
		if err := os.Remove(store.Path(f)); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
	}
	again := l.Main.Run(faultkit.Wait, "tx", "execute", record)
	if again.Code != 1 || strings.Contains(again.All(), "Type exactly") || !strings.Contains(again.Stderr, "already used") {
		t.Fatalf("the used record, its marker and outcome deleted, ran again: want exit 1 before the phrase, naming it used\n%s", again)
	}

	// A second record, edited to expire an hour later.
	second := faultkit.Authorize(t, l, "MAINREAD_USED_0002")
	orig, err := os.ReadFile(second)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := txwatch.ParseRecord(orig)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(orig), rec.ExpiresAt.UTC().Format("2006-01-02T15:04:05"),
		rec.ExpiresAt.UTC().Add(3600e9).Format("2006-01-02T15:04:05"), 1)
	if edited == string(orig) {
		t.Fatalf("the test did not edit the record:\n%s", orig)
	}
	if err := os.WriteFile(second, []byte(edited), 0o600); err != nil {
		t.Fatal(err)
	}
	out := l.Main.Run(faultkit.Wait, "tx", "execute", second)
	if out.Code != 1 || strings.Contains(out.All(), "Type exactly") || !strings.Contains(out.Stderr, "not the record tx watch issued") {
		t.Fatalf("an edited record: want exit 1 before the phrase, naming it not issued\n%s", out)
	}
	if err := os.WriteFile(second, orig, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(l.Main.Policy.StatePath(state.TXRecordsFile)); err != nil {
		t.Fatal(err)
	}
	out = l.Main.Run(faultkit.Wait, "tx", "execute", second)
	if out.Code != 1 || strings.Contains(out.All(), "Type exactly") || !strings.Contains(out.Stderr, "not the record tx watch issued") {
		t.Fatalf("a record after the list of issued records was deleted: want exit 1 before the phrase\n%s", out)
	}
}

// recordUsed reports whether s's authorization list says record was used.
func recordUsed(t *testing.T, s *faultkit.Side, record string) bool {
	t.Helper()
	store, err := txwatch.StoreOf(s.Policy)
	if err != nil {
		t.Fatal(err)
	}
	used, err := store.Used(filepath.Base(record))
	if err != nil {
		t.Fatal(err)
	}
	return used
}
