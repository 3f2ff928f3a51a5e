package transmit

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"rfhandoff/config"
	"rfhandoff/exec"
	"rfhandoff/gate"
	"rfhandoff/gate/txgate"
	"rfhandoff/internal/gittest"
	"rfhandoff/internal/txtest"
	"rfhandoff/prompt"
	"rfhandoff/result"
	"rfhandoff/state"
	"rfhandoff/txwatch"
)

// authorized publishes a READY result at now and writes the record tx
// watch would write for it, returning the record's name and the result.
func authorized(t *testing.T, e *env, now time.Time) (string, txwatch.Record, *result.Result) {
	t.Helper()
	r := txtest.Ready(now)
	commit, digest := e.F.Publish(t, r)
	bound := []txwatch.NodeBinding{{ResultBranch: e.Pol.Repo.ResultBranch, ResultCommit: commit, ResultSHA256: digest}}
	rec := txwatch.NewRecord(r.TaskID, bound, txgate.CaptureEnd(r), now,
		txgate.ReadyUntil(r, e.Pol, time.Duration(e.Pol.TX.DurationS)*time.Second), txwatch.ParamsOf(e.Pol))
	path, err := e.store(t).Create(rec)
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Base(path), rec, r
}

func (e *env) executor(out *gittest.SyncBuffer, asker func() (txwatch.Asker, error), now func() time.Time) *Executor {
	return &Executor{Git: e.F.Git(e.R), Runner: e.R, Policy: e.Pol, Out: out, OpenAsker: asker, Now: now, Audit: e.Log()}
}

func TestExecuteFakeWritesRFTXZero(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	now := time.Now()
	name, rec, _ := authorized(t, e, now)
	out := &gittest.SyncBuffer{}
	asker := &scriptAsker{Answers: []answer{{Typed: gate.TXPhrase}}}
	o, path, err := e.executor(out, opener(asker), nil).Execute(t.Context(), e.store(t).Path(name))
	if err != nil {
		t.Fatalf("Execute: %v\n%s", err, out)
	}
	if path != e.store(t).Path(txwatch.OutcomeName(name)) {
		t.Errorf("outcome at %s", path)
	}
	if !asker.Deadlines[0].Equal(rec.ExpiresAt) {
		t.Errorf("phrase deadline %v, want the record's expiry %v", asker.Deadlines[0], rec.ExpiresAt)
	}
	var got txwatch.Outcome
	if ok, err := state.ReadJSON(path, &got); !ok || err != nil {
		t.Fatalf("reading the outcome: %v %v", ok, err)
	}
	if got.Action != "fake" || got.RFTX != 0 || got.RFTXStarted || got.ExitCode == nil || *got.ExitCode != 0 ||
		got.EndedAt == nil || got.TaskID != rec.TaskID || got.ResultSHA256 != rec.ResultSHA256 || len(got.Argv) != 0 {
		t.Errorf("outcome %+v", got)
	}
	if o.RFTX != 0 {
		t.Errorf("returned outcome RF TX %d", o.RFTX)
	}
	if used, _ := e.store(t).Used(name); !used {
		t.Error("the record is not marked used")
	}
	if e.HackRFStarts(t) != 0 {
		t.Fatal("the fake action started hackrf_transfer")
	}
	if hint := txwatch.ReadFetchHint(e.Pol); hint != rec.ResultCommit {
		t.Errorf("fetch hint %q, want %s", hint, rec.ResultCommit)
	}
	// Every step on record, in order, and what the action did.
	kinds, lines := e.Decisions(t)
	want := []string{"execute_check:record:passed", "execute_check:quick checks:passed", exec.DecisionPhraseAccepted,
		"execute_check:re-check:passed", "execute_check:mark used:passed", exec.DecisionActionStarted, exec.DecisionActionOutcome}
	if !slices.Equal(kinds, want) {
		t.Fatalf("decision lines %v, want %v", kinds, want)
	}
	for _, l := range lines {
		if l.Record != name || l.TaskID != rec.TaskID || l.ResultSHA256 != rec.ResultSHA256 || l.Command != "tx execute" {
			t.Errorf("decision line %+v does not name the record", l)
		}
	}
	if o := lines[6]; o.RFTX == nil || *o.RFTX != 0 || o.ExitCode == nil || *o.ExitCode != 0 || o.Action != "fake" || o.Outcome != txwatch.OutcomeName(name) {
		t.Errorf("outcome line %+v", o)
	}
}

// refusal runs Execute and checks it was refused at step with every
// substring in want, and that nothing was written or started; it returns
// the refusal.
func refusal(t *testing.T, e *env, x *Executor, name, step string, want ...string) error {
	t.Helper()
	before := e.files(t)
	_, path, err := x.Execute(t.Context(), name)
	if err == nil || path != "" || !strings.HasPrefix(err.Error(), "refused at "+step+": ") {
		t.Fatalf("Execute: %v (outcome %q), want a refusal at %s", err, path, step)
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("refusal lacks %q:\n%v", w, err)
		}
	}
	if after := e.files(t); !slices.Equal(before, after) {
		t.Errorf("a refusal changed the authorization dir: %v -> %v", before, after)
	}
	if e.HackRFStarts(t) != 0 {
		t.Fatal("hackrf_transfer started")
	}
	return err
}

func TestExecuteTwiceIsRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	name, _, _ := authorized(t, e, time.Now())
	asker := &scriptAsker{Answers: []answer{{Typed: gate.TXPhrase}, {Typed: gate.TXPhrase}}}
	if _, _, err := e.executor(&gittest.SyncBuffer{}, opener(asker), nil).Execute(t.Context(), name); err != nil {
		t.Fatal(err)
	}
	out, _ := os.ReadFile(e.store(t).Path(txwatch.OutcomeName(name)))
	// A used record names the time its capture has left and the way on.
	refusal(t, e, e.executor(&gittest.SyncBuffer{}, opener(asker), nil), name, StepQuick, "already used", "an outcome for this record already exists",
		"what now: its capture still runs for ", "rfhandoff task new")
	if asker.Calls() != 1 {
		t.Errorf("the second execute asked for the phrase")
	}
	again, _ := os.ReadFile(e.store(t).Path(txwatch.OutcomeName(name)))
	if string(out) != string(again) {
		t.Error("the outcome changed")
	}
}

// Two executes that both pass every check up to the phrase race for the
// exclusive create: exactly one runs the action.
func TestExecuteConcurrentlyOnlyOneRuns(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	name, _, _ := authorized(t, e, time.Now())
	// Bring the tracking ref up to date first: then both re-fetches are
	// no-ops and both executors reach the exclusive create (two fetches
	// updating one ref at once would make git refuse one of them, which
	// refuses that execute earlier: safe, but not the race under test).
	if _, err := e.F.Git(e.R).FetchBranchUpdated(t.Context(), "origin", "rx-node"); err != nil {
		t.Fatal(err)
	}
	var arrived sync.WaitGroup
	arrived.Add(2)
	both := make(chan struct{})
	go func() { arrived.Wait(); close(both) }()
	mk := func() *scriptAsker {
		return &scriptAsker{Answers: []answer{{Typed: gate.TXPhrase, Before: arrived.Done, Gate: both}}}
	}
	type res struct {
		o   txwatch.Outcome
		err error
	}
	results := make(chan res, 2)
	for range 2 {
		x := e.executor(&gittest.SyncBuffer{}, opener(mk()), nil)
		go func() {
			o, _, err := x.Execute(context.Background(), name)
			results <- res{o, err}
		}()
	}
	var ran, refused int
	for range 2 {
		select {
		case r := <-results:
			switch {
			case r.err == nil:
				ran++
			case r.err != nil && (strings.HasPrefix(r.err.Error(), "refused at "+StepUse+": ") ||
				strings.HasPrefix(r.err.Error(), "refused at "+StepRecheck+": ")):
				if !strings.Contains(r.err.Error(), "the record was already used at ") || !strings.Contains(r.err.Error(), "; a record is used once") {
					t.Errorf("the loser was refused for another reason: %v", r.err)
				}
				refused++
			default:
				t.Errorf("unexpected: %v", r.err)
			}
		case <-time.After(txtest.WaitLong):
			t.Fatal("the executors did not finish")
		}
	}
	if ran != 1 || refused != 1 {
		t.Fatalf("%d ran, %d refused; want exactly one each", ran, refused)
	}
}

func TestExecuteExpiredRecordIsRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	name, rec, _ := authorized(t, e, time.Now())
	asker := &scriptAsker{Answers: []answer{{Typed: gate.TXPhrase}}}
	late := func() time.Time { return rec.ExpiresAt }
	left := rec.CaptureEndsAt.Sub(rec.ExpiresAt).Truncate(time.Second)
	refusal(t, e, e.executor(&gittest.SyncBuffer{}, opener(asker), late), name, StepQuick, "the record expired at",
		"what now: its capture still runs for "+left.String(), "rfhandoff task new")
	if kinds, lines := e.Decisions(t); !slices.Equal(kinds, []string{"execute_check:record:passed", "execute_check:quick checks:refused"}) ||
		!strings.Contains(lines[1].Reason, "the record expired at") {
		t.Errorf("decision lines %v (%+v), want the record passed and the quick checks refused, with the reason", kinds, lines)
	}
	if asker.Calls() != 0 {
		t.Error("an expired record reached the phrase")
	}
	// Without a RECORD: nothing is chosen, and the expired one is named.
	refusal(t, e, e.executor(&gittest.SyncBuffer{}, opener(asker), late), "", StepRecord, "no unused, unexpired record",
		name+" (task "+rec.TaskID+"), expired at", "its capture still runs for")
	// After the capture: a new task is the way on.
	over := func() time.Time { return rec.CaptureEndsAt.Add(time.Second) }
	refusal(t, e, e.executor(&gittest.SyncBuffer{}, opener(asker), over), name, StepQuick, "what now: its capture ended at", "rfhandoff task new")
}

// tx execute without a RECORD takes the one unused, unexpired record; with
// none it says so, with several it lists them and runs none.
func TestExecuteWithoutRecord(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	asker := &scriptAsker{Answers: []answer{{Typed: gate.TXPhrase}}}
	refusal(t, e, e.executor(&gittest.SyncBuffer{}, opener(asker), nil), "", StepRecord, "no unused, unexpired record", "run rfhandoff tx watch")

	now := time.Now()
	first, _, _ := authorized(t, e, now)
	second, _, _ := authorized(t, e, now.Add(time.Second))
	refusal(t, e, e.executor(&gittest.SyncBuffer{}, opener(asker), nil), "", StepRecord, "2 unused records, so none is chosen",
		"rfhandoff tx execute "+first, "rfhandoff tx execute "+second)
	if asker.Calls() != 0 {
		t.Fatal("a choice between two records reached the phrase")
	}
	// One used: the other is the one.
	if err := e.store(t).MarkUsed(first, mustSum(t, e, first), now); err != nil {
		t.Fatal(err)
	}
	out := &gittest.SyncBuffer{}
	_, path, err := e.executor(out, opener(asker), nil).Execute(t.Context(), "")
	if err != nil || path != e.store(t).Path(txwatch.OutcomeName(second)) {
		t.Fatalf("Execute without a record: %v, outcome %q; want %s's\n%s", err, path, second, out)
	}
	if !strings.Contains(out.String(), "the one unused record: "+second) {
		t.Errorf("output does not name the record it took:\n%s", out)
	}
}

func mustSum(t *testing.T, e *env, name string) string {
	t.Helper()
	_, sum, err := e.store(t).ReadRecordSum(name)
	if err != nil {
		t.Fatal(err)
	}
	return sum
}

// The result on the branch changed after the authorization (a new READY,
// or the same capture's COMPLETE): commit and digest no longer match.
func TestExecuteResultChangedAfterAuthorizationIsRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	now := time.Now()
	name, _, _ := authorized(t, e, now)
	e.F.Publish(t, txtest.Ready(now.Add(2*time.Second)))
	asker := &scriptAsker{Answers: []answer{{Typed: gate.TXPhrase}}}
	refusal(t, e, e.executor(&gittest.SyncBuffer{}, opener(asker), nil), name, StepRecheck,
		"the result branch is at", "RX_RESULT.json has sha256")
}

// Only the branch moved (an unrelated commit): the commit differs, which
// alone refuses.
func TestExecuteBranchMovedIsRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	name, _, _ := authorized(t, e, time.Now())
	gittest.Seed(t, e.F.Remote, "rx-node", map[string]string{"NOTES.md": "x\n"})
	asker := &scriptAsker{Answers: []answer{{Typed: gate.TXPhrase}}}
	refusal(t, e, e.executor(&gittest.SyncBuffer{}, opener(asker), nil), name, StepRecheck, "the result branch is at")
}

// A result replaced while the execute prompt waits is caught by the
// re-fetch after the phrase.
func TestExecuteResultReplacedAtThePromptIsRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	now := time.Now()
	name, _, _ := authorized(t, e, now)
	asker := &scriptAsker{Answers: []answer{{Typed: gate.TXPhrase, Before: func() {
		e.F.Publish(t, txtest.Ready(now.Add(time.Second)))
	}}}}
	refusal(t, e, e.executor(&gittest.SyncBuffer{}, opener(asker), nil), name, StepRecheck, "RX_RESULT.json has sha256")
}

func TestExecuteTXDisabledIsRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	iq := writeIQ(t, e)
	e.Pol.TX.Action, e.Pol.TX.IQFile = config.TXActionHackRFTransfer, iq
	name, _, _ := authorized(t, e, time.Now())
	asker := &scriptAsker{Answers: []answer{{Typed: gate.TXPhrase}}}
	err := refusal(t, e, e.executor(&gittest.SyncBuffer{}, opener(asker), nil), name, StepQuick, "[tx] enabled is false",
		"what now: the record is still unused and usable until ")
	if strings.Contains(err.Error(), "cannot be authorized again") {
		t.Errorf("a refusal for this side's policy alone says the record is spent:\n%v", err)
	}
	if asker.Calls() != 0 {
		t.Error("a disabled TX reached the phrase")
	}
}

func writeIQ(t *testing.T, e *env) string {
	t.Helper()
	iq := e.F.Main + "/burst.ci8"
	if err := os.WriteFile(iq, []byte(strings.Repeat("\x10\xf0", 4096)), 0o600); err != nil {
		t.Fatal(err)
	}
	return iq
}

func TestExecuteGainOverTheLimitIsRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	name, _, _ := authorized(t, e, time.Now())
	// A policy file with this is refused at load; a policy built in code
	// must be refused here all the same.
	e.Pol.TX.TXVGAGainDB = 20
	e.Pol.TX.MaxTXVGAGainDB = 10
	asker := &scriptAsker{Answers: []answer{{Typed: gate.TXPhrase}}}
	refusal(t, e, e.executor(&gittest.SyncBuffer{}, opener(asker), nil), name, StepQuick,
		"tx-gain: tx_vga_gain_db 20 is over max_tx_vga_gain_db 10", "tx_vga_gain_db: authorized 0, policy now 20")
}

func TestExecuteAmpNotAllowedIsRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	name, _, _ := authorized(t, e, time.Now())
	e.Pol.TX.Amp = true
	refusal(t, e, e.executor(&gittest.SyncBuffer{}, opener(&scriptAsker{}), nil), name, StepQuick, "tx-amp:")
}

func TestExecuteParametersChangedSinceAuthorizationAreRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	name, _, _ := authorized(t, e, time.Now())
	e.Pol.TX.DurationS = 20
	refusal(t, e, e.executor(&gittest.SyncBuffer{}, opener(&scriptAsker{}), nil), name, StepQuick, "duration_s: authorized 10, policy now 20",
		"what now: the record is still unused and usable until ", "goes back to the authorized one")
	// The advice works: the value put back, the same record runs.
	e.Pol.TX.DurationS = 10
	asker := &scriptAsker{Answers: []answer{{Typed: gate.TXPhrase}}}
	if _, _, err := e.executor(&gittest.SyncBuffer{}, opener(asker), nil).Execute(t.Context(), name); err != nil {
		t.Fatalf("the record after the policy was put back: %v", err)
	}
}

func TestExecuteWrongPhraseIsRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	name, _, _ := authorized(t, e, time.Now())
	for _, typed := range []string{"authorize rf tx", "AUTHORIZE RF TX ", "AUTHORIZE"} {
		asker := &scriptAsker{Answers: []answer{{Typed: typed}}}
		refusal(t, e, e.executor(&gittest.SyncBuffer{}, opener(asker), nil), name, StepPhrase, "wrong phrase")
	}
	if used, _ := e.store(t).Used(name); used {
		t.Fatal("a wrong phrase used the record")
	}
	// Each on record as refused, never with what was typed.
	kinds, lines := e.Decisions(t)
	var refusedLines int
	for i, k := range kinds {
		if k == exec.DecisionPhraseRefused {
			refusedLines++
			if !strings.Contains(lines[i].Reason, "wrong phrase") || lines[i].Record != name {
				t.Errorf("phrase_refused line %+v", lines[i])
			}
		}
	}
	if refusedLines != 3 {
		t.Errorf("%d phrase_refused lines, want 3: %v", refusedLines, kinds)
	}
	if data, err := os.ReadFile(e.Audit); err != nil || strings.Contains(string(data), "authorize rf tx") {
		t.Errorf("the audit log holds a phrase as typed (%v)", err)
	}
	// The record is still good for the right phrase.
	asker := &scriptAsker{Answers: []answer{{Typed: gate.TXPhrase}}}
	if _, _, err := e.executor(&gittest.SyncBuffer{}, opener(asker), nil).Execute(t.Context(), name); err != nil {
		t.Fatal(err)
	}
}

func TestExecuteExpiredPromptIsRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	name, _, _ := authorized(t, e, time.Now())
	asker := &scriptAsker{Answers: []answer{{Err: fmt.Errorf("%w at %s: nothing approved", prompt.ErrExpired, time.Now().Format(time.RFC3339))}}}
	refusal(t, e, e.executor(&gittest.SyncBuffer{}, opener(asker), nil), name, StepPhrase, "prompt expired")
}

func TestExecuteWithoutTerminalIsRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	name, _, _ := authorized(t, e, time.Now())
	refusal(t, e, e.executor(&gittest.SyncBuffer{}, noTerminal, nil), name, StepPhrase, "must be typed at a terminal")
}

// Too little capture left for the transmission plus min_remaining_s at
// the moment of use: the re-check refuses even though the record is
// unexpired (the clock jumped, or the policy's duration was raised for a
// record... here the clock is moved to just past the last good moment).
func TestExecuteTooLittleTimeIsRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	now := time.Now()
	// A long-lived publication so that remaining time is what runs out.
	e.Pol.Limits.MaxPublicationAgeS = 300
	r := txtest.Ready(now)
	r.CaptureStartedAt = now.Add(-575 * time.Second) // 25 s left of 600
	commit, digest := e.F.Publish(t, r)
	rec := txwatch.NewRecord(r.TaskID, []txwatch.NodeBinding{{ResultBranch: "rx-node", ResultCommit: commit, ResultSHA256: digest}},
		txgate.CaptureEnd(r), now, now.Add(time.Hour), txwatch.ParamsOf(e.Pol))
	path, err := e.store(t).Create(rec)
	if err != nil {
		t.Fatal(err)
	}
	clock := func() time.Time { return now.Add(6 * time.Second) } // 19 s left < 10 s + 10 s
	asker := &scriptAsker{Answers: []answer{{Typed: gate.TXPhrase}}}
	refusal(t, e, e.executor(&gittest.SyncBuffer{}, opener(asker), clock), path, StepRecheck,
		"remaining-time:", "the transmission (10s) plus min_remaining_s (10 s)")
}

// A READY that went stale since its authorization is refused at the
// moment of use (publication age is checked again).
func TestExecuteStaleAtUseIsRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	now := time.Now()
	name, _, r := authorized(t, e, now)
	clock := func() time.Time { return r.PublishedAt.Add(301 * time.Second) }
	// Keep the record itself unexpired so the re-check is what refuses.
	rec, err := e.store(t).ReadRecord(name)
	if err != nil {
		t.Fatal(err)
	}
	rec.ExpiresAt = now.Add(time.Hour)
	// Issued anew (a record edited in place is refused as not issued).
	for _, p := range []string{e.store(t).Path(name), e.store(t).ListPath()} {
		if err := os.Remove(p); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := e.store(t).Create(rec); err != nil {
		t.Fatal(err)
	}
	asker := &scriptAsker{Answers: []answer{{Typed: gate.TXPhrase}}}
	refusal(t, e, e.executor(&gittest.SyncBuffer{}, opener(asker), clock), name, StepRecheck, "publication-age:")
}

func TestExecuteTaskChangedIsRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	name, _, _ := authorized(t, e, time.Now())
	e.F.SetTask(t, "RX_OTA_0002")
	asker := &scriptAsker{Answers: []answer{{Typed: gate.TXPhrase}}}
	refusal(t, e, e.executor(&gittest.SyncBuffer{}, opener(asker), nil), name, StepRecheck, "task-id:")
}

func TestExecuteRecordOutsideTheStoreIsRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	name, _, _ := authorized(t, e, time.Now())
	data, err := os.ReadFile(e.store(t).Path(name))
	if err != nil {
		t.Fatal(err)
	}
	elsewhere := t.TempDir() + "/" + name
	if err := os.WriteFile(elsewhere, data, 0o600); err != nil {
		t.Fatal(err)
	}
	refusal(t, e, e.executor(&gittest.SyncBuffer{}, opener(&scriptAsker{}), nil), elsewhere, StepRecord, "not in the authorization directory")
	// A copy under another name in the store does not escape the single use.
	copyName := "RX_OTA_0001-000000000000.json"
	if err := os.WriteFile(e.store(t).Path(copyName), data, 0o600); err != nil {
		t.Fatal(err)
	}
	refusal(t, e, e.executor(&gittest.SyncBuffer{}, opener(&scriptAsker{}), nil), copyName, StepRecord, "cannot be copied or renamed")
	// A symlink is not a record.
	link := "RX_OTA_0001-111111111111.json"
	if err := os.Symlink(e.store(t).Path(name), e.store(t).Path(link)); err != nil {
		t.Fatal(err)
	}
	if _, err := os.ReadFile(e.store(t).Path(link)); err != nil {
		t.Skipf("the link does not resolve here (Wine's emulation): %v", err)
	}
	refusal(t, e, e.executor(&gittest.SyncBuffer{}, opener(&scriptAsker{}), nil), link, StepRecord, "not a regular file")
}

func TestExecuteMalformedRecordIsRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	name, _, _ := authorized(t, e, time.Now())
	p := e.store(t).Path(name)
	data, _ := os.ReadFile(p)
	bad := strings.Replace(string(data), `"rf_tx": 0`, `"rf_tx": 0.0`, 1)
	if err := os.WriteFile(p, []byte(bad), 0o600); err != nil {
		t.Fatal(err)
	}
	refusal(t, e, e.executor(&gittest.SyncBuffer{}, opener(&scriptAsker{}), nil), name, StepRecord, `"rf_tx": must be an integer`)
}

// No line, no action: tx execute whose decision lines cannot be written
// starts nothing and leaves the record unused.
func TestExecuteDecisionsFailClosed(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	name, _, _ := authorized(t, e, time.Now())
	path := filepath.Join(t.TempDir(), "decisions.jsonl")
	log, err := exec.OpenAuditLog(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(path, 0o700); err != nil {
		t.Fatal(err)
	}
	asker := &scriptAsker{Answers: []answer{{Typed: gate.TXPhrase}}}
	x := e.executor(&gittest.SyncBuffer{}, opener(asker), nil)
	x.Audit = log
	refusal(t, e, x, name, StepRecord, "cannot record the decision (execute_check)")
	if used, _ := e.store(t).Used(name); used || asker.Calls() != 0 {
		t.Errorf("used %v, phrase asked %d times", used, asker.Calls())
	}
}
