package txwatch

import (
	"strings"
	"testing"
	"time"

	"rfhandoff/gate"
	"rfhandoff/internal/gittest"
	"rfhandoff/internal/txtest"
	"rfhandoff/result"
)

// A PPS task whose three nodes all started on the START_AT edge within
// bounds: one offer, the table showing each node's sync and bound, and
// one record after the phrase.
func TestNodesScheduledAllAligned(t *testing.T) {
	t.Parallel()
	e := newNodeEnv(t, "rx-a", "rx-b", "rx-c")
	now := time.Now()
	start := txtest.ScheduledStart(now)
	e.Schedule(t, result.SyncPPS, start)
	for i, n := range e.Names {
		r := e.Ready(now)
		r.Alignment = txtest.Aligned(result.SyncPPS, start, time.Duration(50*(i+1))*time.Nanosecond)
		e.Publish(t, n, r, "")
	}
	out := &gittest.SyncBuffer{}
	asker := &scriptAsker{Answers: []answer{{Typed: gate.TXPhrase}}}
	txtest.Run(t, e.watcher(out, opener(asker)))
	txtest.WaitFor(t, "the record", txtest.Contains(out, "AUTHORIZED: record"), out)
	s := out.String()
	edge := "PPS edge " + start.Format(time.RFC3339)
	for _, want := range []string{"common clock  sync", "bound",
		edge + "  0.000000050 s", edge + "  0.000000100 s", edge + "  0.000000150 s"} {
		if !strings.Contains(s, want) {
			t.Errorf("the offer lacks %q:\n%s", want, s)
		}
	}
	if asker.Calls() != 1 || len(e.records(t)) != 1 {
		t.Fatalf("%d prompts, records %v:\n%s", asker.Calls(), e.files(t), s)
	}
}

// No offer while any node is not aligned, started on another edge, has
// a bound over the MAIN limit or published a READY without alignment:
// every reason once, naming the node; once every node is aligned, one
// offer.
func TestNodesScheduledRefusals(t *testing.T) {
	t.Parallel()
	e := newNodeEnv(t, "rx-a", "rx-b", "rx-c", "rx-d")
	now := time.Now()
	start := txtest.ScheduledStart(now)
	e.Schedule(t, result.SyncPPS, start)
	over := e.Ready(now)
	over.Alignment = txtest.Aligned(result.SyncPPS, start, 200*time.Millisecond)
	e.Publish(t, "rx-a", over, "")
	notAligned := e.Ready(now)
	notAligned.Alignment = txtest.Aligned(result.SyncPPS, start, time.Microsecond)
	notAligned.Alignment.Aligned, notAligned.Alignment.Overruns = false, 2
	notAligned.Alignment.Reasons = []string{"2 overruns void alignment"}
	e.Publish(t, "rx-b", notAligned, "")
	late := e.Ready(now)
	late.Alignment = txtest.Aligned(result.SyncPPS, start, time.Microsecond)
	late.Alignment.EdgeAt = new(start.Add(time.Second))
	late.Alignment.Aligned, late.Alignment.Reasons = false, []string{"armed after the START_AT edge: started on the next one"}
	e.Publish(t, "rx-c", late, "")
	e.Publish(t, "rx-d", e.Ready(now), "") // schema_version 2: no alignment
	out := &gittest.SyncBuffer{}
	asker := &scriptAsker{Answers: []answer{{Typed: gate.TXPhrase}}}
	txtest.Run(t, e.watcher(out, opener(asker)))
	txtest.WaitFor(t, "the refusal", txtest.Contains(out, "no offer (one phrase needs every node READY)"), out)
	s := out.String()
	for _, want := range []string{
		"alignment-bound: bound 0.2 s over limits.max_alignment_bound_s 0.1",
		"alignment: not aligned: 2 overruns void alignment",
		"alignment: not aligned: armed after the START_AT edge: started on the next one",
		"trigger-edge: edge " + start.Add(time.Second).Format(time.RFC3339) + ", not START_AT " + start.Format(time.RFC3339),
		`"schema_version": is 2, but the task has START_AT`,
	} {
		if strings.Count(s, want) != 1 {
			t.Errorf("the refusal holds %q %d times, want once:\n%s", want, strings.Count(s, want), s)
		}
	}
	for _, n := range e.Names {
		if !strings.Contains(s, "  "+n+": READY ") {
			t.Errorf("the refusal does not name %s:\n%s", n, s)
		}
	}
	if asker.Calls() != 0 {
		t.Fatalf("offered:\n%s", s)
	}
	st, err := ReadStatus(e.Pol, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	for _, ns := range st.Nodes.Nodes {
		if ns.State != "refused" {
			t.Errorf("tx status: node %s is %q, want refused: %+v", ns.Node, ns.State, ns)
		}
	}
	// Every node aligned now: one offer.
	for _, n := range e.Names {
		r := e.Ready(time.Now())
		r.Alignment = txtest.Aligned(result.SyncPPS, start, time.Microsecond)
		e.Publish(t, n, r, "")
	}
	txtest.WaitFor(t, "the record", txtest.Contains(out, "AUTHORIZED: record"), out)
}

// HOST_CLOCK: the table shows the mode without an edge; a READY of an
// unscheduled task with alignment, and one with another START_AT, are
// refused with the decoder's reasons.
func TestNodesScheduledHostClockAndMismatch(t *testing.T) {
	t.Parallel()
	e := newNodeEnv(t, "rx-a", "rx-b")
	now := time.Now()
	start := txtest.ScheduledStart(now)
	// The task has no START_AT yet: a READY with alignment is refused.
	r := e.Ready(now)
	r.Alignment = txtest.Aligned(result.SyncHostClock, start, 5*time.Millisecond)
	e.Publish(t, "rx-a", r, "")
	r = e.Ready(now)
	r.Alignment = txtest.Aligned(result.SyncHostClock, start.Add(-time.Second), 5*time.Millisecond)
	e.Publish(t, "rx-b", r, "")
	out := &gittest.SyncBuffer{}
	asker := &scriptAsker{Answers: []answer{{Typed: gate.TXPhrase}}}
	txtest.Run(t, e.watcher(out, opener(asker)))
	txtest.WaitFor(t, "the refusal", txtest.Contains(out, "no offer"), out)
	if s := out.String(); strings.Count(s, `"schema_version": must be 1 or 2, got 3 (a scheduled task's result where the task has no START_AT)`) != 2 {
		t.Errorf("the refusal does not give both nodes' schema_version reason once each:\n%s", s)
	}
	// Scheduled now: rx-b's start_at is not the task's.
	e.Schedule(t, result.SyncHostClock, start)
	r = e.Ready(now)
	r.Alignment = txtest.Aligned(result.SyncHostClock, start, 5*time.Millisecond)
	e.Publish(t, "rx-a", r, "") // a new commit: the set is judged again
	txtest.WaitFor(t, "rx-b's start_at", txtest.Contains(out, `"alignment.start_at": is `+start.Add(-time.Second).Format(time.RFC3339)+", but the task's START_AT is "+start.Format(time.RFC3339)), out)
	if asker.Calls() != 0 {
		t.Fatalf("offered:\n%s", out)
	}
	for _, n := range e.Names {
		r := e.Ready(time.Now())
		r.Alignment = txtest.Aligned(result.SyncHostClock, start, 75*time.Millisecond)
		e.Publish(t, n, r, "")
	}
	txtest.WaitFor(t, "the record", txtest.Contains(out, "AUTHORIZED: record"), out)
	if s := out.String(); strings.Count(s, "HOST_CLOCK  0.075000000 s") != 2 {
		t.Errorf("the table does not show each node's HOST_CLOCK bound:\n%s", s)
	}
}

// A single receiver is a set of one: for a scheduled task its version 1
// READY is refused with the decoder's reason, an aligned version 3 one is
// offered with its schedule, sync and bound shown.
func TestWatchScheduledSingleReceiver(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	now := time.Now()
	start := txtest.ScheduledStart(now)
	e.F.SetScheduledTask(t, txtest.TaskID, result.SyncPPS, start)
	e.F.Publish(t, txtest.Ready(now))
	out := &gittest.SyncBuffer{}
	asker := &scriptAsker{Answers: []answer{{Typed: gate.TXPhrase}}}
	txtest.Run(t, e.watcher(out, opener(asker)))
	txtest.WaitFor(t, "the refusal", txtest.Contains(out, `"schema_version": is 1, but the task has START_AT`), out)
	r := txtest.Ready(time.Now())
	r.Alignment = txtest.Aligned(result.SyncPPS, start, 50*time.Nanosecond)
	e.F.Publish(t, r)
	txtest.WaitFor(t, "the record", txtest.Contains(out, "AUTHORIZED: record"), out)
	want := "START_AT " + start.Format(time.RFC3339) + ": PPS edge " + start.Format(time.RFC3339) + ", bound 0.000000050 s, aligned\n"
	if s := out.String(); !strings.Contains(s, want) || asker.Calls() != 1 {
		t.Errorf("the offer lacks %q (%d prompts):\n%s", want, asker.Calls(), s)
	}
}
