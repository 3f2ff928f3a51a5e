package transmit

import (
	"slices"
	"strings"
	"testing"
	"time"

	"rfhandoff/config"
	"rfhandoff/exec"
	"rfhandoff/gate"
	"rfhandoff/internal/gittest"
	"rfhandoff/internal/tasktest"
	"rfhandoff/internal/txtest"
	"rfhandoff/result"
	"rfhandoff/txwatch"
)

// Tests that run tx watch to get a record, then tx execute on it.

// Three nodes READY: one table, one phrase, one record binding the three
// commits in RX_NODES order; tx execute then runs it once.
func TestNodesOneOfferForAll(t *testing.T) {
	t.Parallel()
	e := newNodeEnv(t, "rx-a", "rx-b", "rx-c")
	now := time.Now()
	want := map[string][2]string{}
	for _, n := range e.Names {
		c, d := e.Publish(t, n, e.Ready(now), "")
		want[n] = [2]string{c, d}
	}
	out := &gittest.SyncBuffer{}
	asker := &scriptAsker{Answers: []answer{{Typed: gate.TXPhrase}}}
	stop := txtest.Run(t, e.watcher(out, opener(asker)))
	txtest.WaitFor(t, "the authorization", txtest.Contains(out, "AUTHORIZED: record"), out)
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if asker.Calls() != 1 {
		t.Fatalf("asked %d times, want once for all nodes", asker.Calls())
	}
	for _, s := range []string{"one phrase for all 3", "node  signer  commit", "rx-a", "rx-b", "rx-c", "common clock"} {
		if !strings.Contains(out.String(), s) {
			t.Errorf("the offer does not show %q:\n%s", s, out)
		}
	}
	recs := e.records(t)
	if len(recs) != 1 || len(recs[0].Nodes) != 3 {
		t.Fatalf("want one record binding three nodes, got %+v", recs)
	}
	rec := recs[0]
	for i, n := range e.Names {
		b := rec.Nodes[i]
		if b.Node != n || b.ResultBranch != n || b.ResultCommit != want[n][0] || b.ResultSHA256 != want[n][1] {
			t.Errorf("node %d: %+v, want %s at %s sha256 %s", i, b, n, want[n][0], want[n][1])
		}
	}
	if rec.ResultSHA256 != txwatch.SetDigest(rec.Nodes) || rec.ResultCommit != want["rx-a"][0] {
		t.Errorf("record top level %s %s does not bind the set", rec.ResultCommit, rec.ResultSHA256)
	}
	// On record: the set's offer (its digest and nodes), the phrase, the record.
	kinds, lines := e.Decisions(t)
	if want := []string{exec.DecisionOffer, exec.DecisionPhraseAccepted, exec.DecisionRecordWritten}; !slices.Equal(kinds, want) {
		t.Fatalf("decision lines %v, want %v", kinds, want)
	}
	for _, l := range lines {
		if l.ResultSHA256 != rec.ResultSHA256 || !slices.Equal(l.Nodes, e.Names) || l.TaskID != rec.TaskID {
			t.Errorf("decision line %+v does not name the set %s of %v", l, rec.ResultSHA256, e.Names)
		}
	}
	if l := lines[2]; l.Record != txwatch.RecordName(rec.TaskID, rec.ResultSHA256) {
		t.Errorf("record line %+v", l)
	}

	xout := &gittest.SyncBuffer{}
	x := &Executor{Git: e.F.Git(e.R), Runner: e.R, Policy: e.Pol, Out: xout,
		OpenAsker: opener(&scriptAsker{Answers: []answer{{Typed: gate.TXPhrase}}})}
	o, _, err := x.Execute(t.Context(), txwatch.RecordName(rec.TaskID, rec.ResultSHA256))
	if err != nil || o.Action != config.TXActionFake || o.RFTX != 0 {
		t.Fatalf("tx execute of the three-node record: %+v, %v", o, err)
	}
	if !strings.Contains(xout.String(), "node rx-c: branch rx-c, result commit "+want["rx-c"][0]) {
		t.Errorf("tx execute does not show each node it executes for:\n%s", xout)
	}
}

// tx execute re-checks every node: one node's COMPLETE after the
// authorization blocks it, nothing run.
func TestNodesExecuteRefusesAfterComplete(t *testing.T) {
	t.Parallel()
	e := newNodeEnv(t, "rx-a", "rx-b")
	now := time.Now()
	e.Publish(t, "rx-a", e.Ready(now), "")
	e.Publish(t, "rx-b", e.Ready(now), "")
	out := &gittest.SyncBuffer{}
	stop := txtest.Run(t, e.watcher(out, opener(&scriptAsker{Answers: []answer{{Typed: gate.TXPhrase}}})))
	txtest.WaitFor(t, "the authorization", txtest.Contains(out, "AUTHORIZED: record"), out)
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	rec := e.records(t)[0]
	complete := txtest.CompleteOf(e.Ready(now))
	gittest.Seed(t, e.F.Remote, "rx-b", map[string]string{tasktest.ResultPath: string(e.Encode(t, complete, "rx-b", nil))})

	x := &Executor{Git: e.F.Git(e.R), Runner: e.R, Policy: e.Pol, Out: &gittest.SyncBuffer{},
		OpenAsker: opener(&scriptAsker{Answers: []answer{{Typed: gate.TXPhrase}}})}
	name := txwatch.RecordName(rec.TaskID, rec.ResultSHA256)
	_, _, err := x.Execute(t.Context(), name)
	if err == nil || !strings.Contains(err.Error(), "refused at "+StepRecheck) || !strings.Contains(err.Error(), "node rx-b") {
		t.Fatalf("tx execute with rx-b COMPLETE: %v, want refused at the re-check naming rx-b", err)
	}
	if used, _ := e.store(t).Used(name); used {
		t.Fatal("the record was marked used")
	}
	if slices.Contains(e.files(t), txwatch.OutcomeName(name)) {
		t.Fatal("an outcome was written")
	}
}

// Where MAIN's policy says simulation is intended, a simulated READY is
// offered, and the offer (shown and on record) says it comes from a
// simulated receiver; tx execute re-checks it under the policy it runs
// with, and refuses it once that policy no longer allows the simulator.
func TestWatchOffersASimulatedReceiverOnlyWhereAllowed(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.Pol.Tools.AllowSimulator = true
	r := txtest.Ready(time.Now())
	r.Simulated = true
	_, digest := e.F.Publish(t, r)
	out := &gittest.SyncBuffer{}
	asker := &scriptAsker{Answers: []answer{{Typed: gate.TXPhrase}}}
	stop := txtest.Run(t, e.watcher(out, opener(asker)))
	txtest.WaitFor(t, "the record", txtest.Contains(out, "AUTHORIZED: record"), out)
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "simulated receiver: rfhandoff's HackRF simulator captured this") ||
		!strings.Contains(out.String(), "[tools] allow_simulator = true") {
		t.Errorf("the offer does not say the receiver is simulated:\n%s", out)
	}
	_, lines := e.Decisions(t)
	offers := 0
	for _, l := range lines {
		if l.Kind == exec.DecisionOffer {
			offers++
			if !l.Simulated {
				t.Errorf("offer line %+v does not say simulated", l)
			}
		}
	}
	if offers != 1 {
		t.Errorf("%d offer lines, want 1", offers)
	}

	// The same record under a policy that refuses the simulator.
	name := txwatch.RecordName(txtest.TaskID, digest)
	e.Pol.Tools.AllowSimulator = false
	asker2 := &scriptAsker{Answers: []answer{{Typed: gate.TXPhrase}}}
	refusal(t, e, e.executor(&gittest.SyncBuffer{}, opener(asker2), nil), e.store(t).Path(name), StepRecheck,
		"simulated:", "[tools] allow_simulator is false")
}

// tx execute re-applies a scheduled task's rules on its fresh fetch: the
// READY bytes are bound by digest, but a task whose START_AT changed
// since (same TASK_ID) or a policy with a tighter max_alignment_bound_s
// refuses the record, every reason at once, naming the nodes.
func TestNodesExecuteRechecksAlignment(t *testing.T) {
	t.Parallel()
	e := newNodeEnv(t, "rx-a", "rx-b")
	now := time.Now()
	start := txtest.ScheduledStart(now)
	e.Schedule(t, result.SyncPPS, start)
	for i, n := range e.Names {
		r := e.Ready(now)
		r.Alignment = txtest.Aligned(result.SyncPPS, start, time.Duration(i+1)*time.Millisecond)
		e.Publish(t, n, r, "")
	}
	out := &gittest.SyncBuffer{}
	stop := txtest.Run(t, e.watcher(out, opener(&scriptAsker{Answers: []answer{{Typed: gate.TXPhrase}}})))
	txtest.WaitFor(t, "the authorization", txtest.Contains(out, "AUTHORIZED: record"), out)
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	rec := e.records(t)[0]
	name := txwatch.RecordName(rec.TaskID, rec.ResultSHA256)
	execute := func(pol config.Policy) error {
		x := &Executor{Git: e.F.Git(e.R), Runner: e.R, Policy: pol, Out: &gittest.SyncBuffer{},
			OpenAsker: opener(&scriptAsker{Answers: []answer{{Typed: gate.TXPhrase}}})}
		_, _, err := x.Execute(t.Context(), name)
		return err
	}
	refused := func(err error, wants ...string) {
		t.Helper()
		if err == nil || !strings.Contains(err.Error(), "refused at "+StepRecheck) {
			t.Fatalf("tx execute: %v, want refused at the re-check", err)
		}
		for _, want := range wants {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("the refusal lacks %q:\n%v", want, err)
			}
		}
		if used, _ := e.store(t).Used(name); used {
			t.Fatal("the record was used")
		}
	}
	e.Schedule(t, result.SyncPPS, start.Add(time.Second))
	refused(execute(e.Pol),
		`node rx-a: RX_RESULT.json is invalid: "alignment.start_at": is `+start.Format(time.RFC3339),
		`node rx-b: RX_RESULT.json is invalid: "alignment.start_at": is `+start.Format(time.RFC3339))
	e.Schedule(t, result.SyncPPS, start)
	tight := e.Pol
	tight.Limits.MaxAlignmentBoundS = 0.0015
	refused(execute(tight), "node rx-b: alignment-bound: bound 0.002 s over limits.max_alignment_bound_s 0.0015")
	// The task as authorized, the policy's limit: the record runs, once.
	if err := execute(e.Pol); err != nil {
		t.Fatalf("tx execute with the schedule as authorized: %v", err)
	}
}
