package txwatch

import (
	"strings"
	"testing"
	"time"

	"rfhandoff/internal/gittest"
	"rfhandoff/internal/txtest"
	"rfhandoff/resultfetch"
	"rfhandoff/state"
)

// Past the bound (PROTOCOL#trust): more results since the last look than a
// look reads. The COMPLETE of the current task is among the unread ones;
// every task the read results name counts as over, the current one
// included, so the READY at the tip is refused, and so is tx execute of
// a record for it. Not parallel: it lowers the package's bound.
func TestLookPastTheBoundCountsTheTasksOver(t *testing.T) {
	defer func(n int) { resultfetch.MaxLookResults = n }(resultfetch.MaxLookResults)
	resultfetch.MaxLookResults = 2
	e := newEnv(t)
	now := time.Now()
	e.F.Publish(t, txtest.CompleteOf(txtest.Ready(now))) // unread: the third from the tip
	other := txtest.Ready(now)
	other.TaskID = "RX_OTA_0099"
	e.F.Publish(t, other)
	tip, _ := e.F.Publish(t, txtest.Ready(now))

	out := &gittest.SyncBuffer{}
	asker := &scriptAsker{}
	stop := txtest.Run(t, e.watcher(out, opener(asker)))
	txtest.WaitFor(t, "the refusal", txtest.Contains(out, "refused, not offered"), out)
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"more than 2 results since the last look; the 2 nearest the tip were read",
		"(" + txtest.TaskID + ", " + other.TaskID + ")",
		"task " + txtest.TaskID + " is over: the look at result commit " + tip + " found more than 2 results",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the watcher does not say %q:\n%s", want, out)
		}
	}
	if asker.Calls() != 0 {
		t.Fatalf("offered:\n%s", out)
	}
	st, err := state.LoadTX(e.Pol.StatePath())
	if err != nil {
		t.Fatal(err)
	}
	if st.TasksOverUnread[txtest.TaskID] != tip || st.TasksOverUnread[other.TaskID] != tip || len(st.CompletedTasks) != 0 {
		t.Fatalf("state: over unread %v, completed %v; want both tasks over unread at %s", st.TasksOverUnread, st.CompletedTasks, tip)
	}
	// The next look starts at the tip: nothing more is counted over.
	next, _ := e.F.Publish(t, txtest.Ready(time.Now()))
	out2 := &gittest.SyncBuffer{}
	stop = txtest.Run(t, e.watcher(out2, opener(asker)))
	txtest.WaitFor(t, "the refusal", txtest.Contains(out2, "at commit "+short(next)+" refused"), out2)
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out2.String(), "since the last look;") || asker.Calls() != 0 {
		t.Fatalf("the second look:\n%s", out2)
	}
}
