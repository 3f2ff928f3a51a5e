package txwatch

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"rfhandoff/exec"
	"rfhandoff/gate"
	"rfhandoff/gate/txgate"
	"rfhandoff/gitcli"
	"rfhandoff/internal/gittest"
	"rfhandoff/internal/tasktest"
	"rfhandoff/internal/txtest"
	"rfhandoff/localfile"
	"rfhandoff/prompt"
	"rfhandoff/result"
	"rfhandoff/state"
)

func TestWatchAuthorizesAfterTheExactPhrase(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := txtest.Ready(time.Now())
	commit, digest := e.F.Publish(t, r)
	out := &gittest.SyncBuffer{}
	asker := &scriptAsker{Answers: []answer{{Typed: gate.TXPhrase}}}
	stop := txtest.Run(t, e.watcher(out, opener(asker)))
	txtest.WaitFor(t, "the record", txtest.Contains(out, "AUTHORIZED: record"), out)
	if err := stop(); err != nil {
		t.Fatalf("Run: %v", err)
	}
	// The next command, to type as it is: the one unused record needs no name.
	if !strings.Contains(out.String(), "run next:\n    rfhandoff tx execute\n") || !strings.Contains(out.String(), " from now; the capture ends ") {
		t.Errorf("tx watch does not say what to run next and the time left:\n%s", out)
	}

	if got := asker.Phrases; len(got) != 1 || got[0] != "AUTHORIZE RF TX" {
		t.Fatalf("phrases asked: %q", got)
	}
	// The prompt expires when the re-check would fail: here the
	// publication age limit (300 s) comes before the capture's end.
	if want := txgate.ReadyUntil(r, e.Pol, 0); !asker.Deadlines[0].Equal(want) {
		t.Errorf("prompt deadline %v, want %v", asker.Deadlines[0], want)
	}
	name := RecordName(txtest.TaskID, digest)
	if files := e.files(t); len(files) != 1 || files[0] != name {
		t.Fatalf("authorization dir holds %v, want only %s", files, name)
	}
	rec, err := e.store(t).ReadRecord(name)
	if err != nil {
		t.Fatal(err)
	}
	if rec.TaskID != txtest.TaskID || rec.ResultCommit != commit || rec.ResultSHA256 != digest ||
		rec.RFTXStarted || rec.RFTX != 0 || rec.ResultBranch != "rx-node" {
		t.Errorf("record %+v", rec)
	}
	if want := txgate.ReadyUntil(r, e.Pol, 10*time.Second); !rec.ExpiresAt.Equal(want) {
		t.Errorf("expires_at %v, want %v", rec.ExpiresAt, want)
	}
	if rec.TX != ParamsOf(e.Pol) {
		t.Errorf("record TX %+v, want the policy's %+v", rec.TX, ParamsOf(e.Pol))
	}
	st, err := state.LoadTX(e.Pol.StatePath())
	if err != nil {
		t.Fatal(err)
	}
	if !st.Shown(digest) || st.Running || st.WatcherPID != 0 || st.LastResultCommit != commit {
		t.Errorf("state after a clean stop: %+v", st)
	}
	if e.HackRFStarts(t) != 0 {
		t.Fatal("the watcher started hackrf_transfer")
	}
	if !strings.Contains(out.String(), "stopped") {
		t.Errorf("no stop message:\n%s", out)
	}

	// A restart never shows the same digest again, even with the result
	// still on the branch and a fresh commit holding the same bytes.
	data, _ := result.Encode(r)
	e.F.PublishBytes(t, append([]byte{}, data...))
	gittest.Seed(t, e.F.Remote, "rx-node", map[string]string{"NOTES.md": "unrelated\n"})
	out2 := &gittest.SyncBuffer{}
	asker2 := &scriptAsker{}
	w2 := e.watcher(out2, opener(asker2))
	stop2 := txtest.Run(t, w2)
	tip := gittest.Tip(t, e.F.Remote, "rx-node")
	txtest.WaitFor(t, "the new tip to be handled", func() bool {
		s, err := state.LoadTX(e.Pol.StatePath())
		return err == nil && s.LastResultCommit == tip
	}, out2)
	if err := stop2(); err != nil {
		t.Fatal(err)
	}
	if asker2.Calls() != 0 || strings.Contains(out2.String(), "READY result") {
		t.Fatalf("a shown digest was shown again:\n%s", out2)
	}
}

// Each failed check is reported once, with its rule, and never offered:
// the prompt is not opened and nothing is written.
func TestWatchRefusesFailingResults(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		mutate func(r *result.Result, now time.Time)
		rule   txgate.TXRule
	}{
		{"stale READY", func(r *result.Result, now time.Time) { r.PublishedAt = now.Add(-301 * time.Second) }, txgate.TXRulePublicationAge},
		{"future beyond skew", func(r *result.Result, now time.Time) { r.PublishedAt = now.Add(time.Minute) }, txgate.TXRulePublicationFuture},
		{"too little time left", func(r *result.Result, now time.Time) { r.CaptureStartedAt = now.Add(-595 * time.Second) }, txgate.TXRuleRemainingTime},
		{"clock not verified", func(r *result.Result, now time.Time) { r.CommonClockVerified = false }, txgate.TXRuleCommonClock},
		{"wrong task", func(r *result.Result, now time.Time) { r.TaskID = "RX_OTA_0999" }, txgate.TXRuleTaskID},
		{"earlier task, stale", func(r *result.Result, now time.Time) {
			r.TaskID, r.CaptureStartedAt, r.PublishedAt = "RX_OTA_0000", now.Add(-time.Hour), now.Add(-time.Hour)
		}, txgate.TXRuleTaskID},
		{"frequency differs", func(r *result.Result, now time.Time) { r.FrequencyHz = 868000000 }, txgate.TXRuleFrequency},
		// MAIN's policy leaves [tools] allow_simulator false.
		{"simulated receiver", func(r *result.Result, now time.Time) { r.Simulated = true }, txgate.TXRuleSimulated},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			// Each case's own now: parallel cases on a loaded machine can
			// start a minute apart, which a shared now would let turn a
			// result from the future into a fresh one.
			now := time.Now()
			r := txtest.Ready(now)
			tt.mutate(r, now)
			if tt.rule == txgate.TXRuleCommonClock {
				// READY demands the flag, so the schema already refuses it;
				// the watcher reports that like any failed check.
				tt.rule = ""
			}
			data := mustEncodeLoose(t, r)
			e.F.PublishBytes(t, data)
			out := &gittest.SyncBuffer{}
			asker := &scriptAsker{Answers: []answer{{Typed: gate.TXPhrase}}}
			stop := txtest.Run(t, e.watcher(out, opener(asker)))
			txtest.WaitFor(t, "the refusal", txtest.Contains(out, "refused, not offered"), out)
			// Several more polls: still reported once.
			e.WaitPolls(t, 5, out)
			if err := stop(); err != nil {
				t.Fatal(err)
			}
			s := out.String()
			if n := strings.Count(s, "refused, not offered"); n != 1 {
				t.Errorf("reported %d times:\n%s", n, s)
			}
			if tt.rule != "" && !strings.Contains(s, string(tt.rule)+": ") {
				t.Errorf("report does not name %s:\n%s", tt.rule, s)
			}
			if tt.rule == txgate.TXRuleTaskID && strings.Contains(s, "problems") {
				t.Errorf("another task's result takes more than one line:\n%s", s)
			}
			if tt.rule == "" && !strings.Contains(s, `"common_clock_verified": must be true`) {
				t.Errorf("report does not name common_clock_verified:\n%s", s)
			}
			if asker.Opens() != 0 || asker.Calls() != 0 {
				t.Errorf("the prompt was opened for a failing result")
			}
			if files := e.files(t); len(files) != 0 {
				t.Errorf("authorization dir holds %v", files)
			}
			if e.HackRFStarts(t) != 0 {
				t.Error("hackrf_transfer started")
			}
		})
	}
}

// mustEncodeLoose encodes r with encoding rules only (result.Encode refuses
// what Decode would, and some fixtures must be refused by the watcher).
func mustEncodeLoose(t *testing.T, r *result.Result) []byte {
	t.Helper()
	if data, err := result.Encode(r); err == nil {
		return data
	}
	c := *r
	c.CommonClockVerified = true
	data, err := result.Encode(&c)
	if err != nil {
		t.Fatal(err)
	}
	return []byte(strings.Replace(string(data), `"common_clock_verified": true`, `"common_clock_verified": false`, 1))
}

func TestWatchExpiredPromptWritesNothing(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.F.Publish(t, txtest.Ready(time.Now()))
	out := &gittest.SyncBuffer{}
	asker := &scriptAsker{Answers: []answer{{Err: fmt.Errorf("%w at %s: nothing approved", prompt.ErrExpired, time.Now().Format(time.RFC3339))}}}
	stop := txtest.Run(t, e.watcher(out, opener(asker)))
	txtest.WaitFor(t, "the expiry report", txtest.Contains(out, "expired: nothing authorized"), out)
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if files := e.files(t); len(files) != 0 {
		t.Fatalf("an expired prompt wrote %v", files)
	}
}

// A result replaced while the prompt waits: the phrase arrives, the
// re-fetch sees another commit and other bytes, nothing is authorized.
// The new result is then judged on its own and offered once.
func TestWatchBlocksAResultReplacedAtThePrompt(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	now := time.Now()
	e.F.Publish(t, txtest.Ready(now))
	out := &gittest.SyncBuffer{}
	var newDigest string
	asker := &scriptAsker{Answers: []answer{
		{Typed: gate.TXPhrase, Before: func() {
			r2 := txtest.Ready(now.Add(time.Second))
			_, newDigest = e.F.Publish(t, r2)
		}},
		{Typed: "no"}, // the replacement is offered; the operator declines
	}}
	stop := txtest.Run(t, e.watcher(out, opener(asker)))
	txtest.WaitFor(t, "the block", txtest.Contains(out, "BLOCKED after the phrase"), out)
	txtest.WaitFor(t, "the replacement to be offered", func() bool { return asker.Calls() >= 2 }, out)
	txtest.WaitFor(t, "the decline", txtest.Contains(out, "wrong phrase"), out)
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	for _, want := range []string{"the result branch moved from", "RX_RESULT.json changed after it was shown"} {
		if !strings.Contains(s, want) {
			t.Errorf("block reason %q missing:\n%s", want, s)
		}
	}
	if files := e.files(t); len(files) != 0 {
		t.Fatalf("authorization dir holds %v", files)
	}
	if !strings.Contains(s, newDigest) {
		t.Errorf("the replacement %s was not shown:\n%s", newDigest, s)
	}
}

func TestWatchWithoutTerminalAuthorizesNothing(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.F.Publish(t, txtest.Ready(time.Now()))
	out := &gittest.SyncBuffer{}
	stop := txtest.Run(t, e.watcher(out, noTerminal))
	txtest.WaitFor(t, "the awaiting report", txtest.Contains(out, "awaits authorization, but there is no terminal"), out)
	e.WaitPolls(t, 5, out)
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(out.String(), "awaits authorization"); n != 1 {
		t.Errorf("reported %d times:\n%s", n, out)
	}
	if files := e.files(t); len(files) != 0 {
		t.Fatalf("authorization dir holds %v", files)
	}
}

func TestWatchRefusesAForcePushedResultBranch(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	out := &gittest.SyncBuffer{}
	asker := &scriptAsker{Answers: []answer{{Typed: gate.TXPhrase}}}
	stop := txtest.Run(t, e.watcher(out, opener(asker)))
	txtest.WaitFor(t, "the first poll", txtest.Contains(out, "no docs/handoff/results/RX_RESULT.json"), out)
	data, _ := result.Encode(txtest.Ready(time.Now()))
	gittest.Rewrite(t, e.F.Remote, "rx-node", map[string]string{tasktest.ResultPath: string(data)})
	txtest.WaitFor(t, "the force-push report", txtest.Contains(out, "force-push refused"), out)
	e.WaitPolls(t, 5, out)
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(out.String(), "force-push refused"); n != 1 {
		t.Errorf("reported %d times:\n%s", n, out)
	}
	if asker.Calls() != 0 || len(e.files(t)) != 0 {
		t.Fatalf("a result from a rewritten branch was offered")
	}
}

// The remote goes away and comes back: one report, a recovery message,
// and the result published meanwhile is then offered.
func TestWatchBacksOffAndRecovers(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	out := &gittest.SyncBuffer{}
	asker := &scriptAsker{Answers: []answer{{Typed: gate.TXPhrase}}}
	stop := txtest.Run(t, e.watcher(out, opener(asker)))
	txtest.WaitFor(t, "the first poll", txtest.Contains(out, "no docs/handoff/results"), out)
	gone := e.F.Remote.Dir + ".away"
	if err := os.Rename(e.F.Remote.Dir, gone); err != nil {
		t.Fatal(err)
	}
	txtest.WaitFor(t, "the error report", txtest.Contains(out, "error (will retry with backoff)"), out)
	e.WaitPolls(t, 3, out) // several backoff rounds (max_backoff 1 s)
	if err := os.Rename(gone, e.F.Remote.Dir); err != nil {
		t.Fatal(err)
	}
	e.F.Publish(t, txtest.Ready(time.Now()))
	txtest.WaitFor(t, "the record", txtest.Contains(out, "AUTHORIZED"), out)
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	if n := strings.Count(s, "error (will retry"); n != 1 {
		t.Errorf("the same error reported %d times:\n%s", n, s)
	}
	rec, ready := strings.Index(s, "recovered"), strings.Index(s, "READY result")
	if rec < 0 || rec > ready {
		t.Errorf("no recovery message before the result was shown:\n%s", s)
	}
}

func TestWatchOneAtATime(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	out := &gittest.SyncBuffer{}
	stop := txtest.Run(t, e.watcher(out, noTerminal))
	txtest.WaitFor(t, "the first watcher", txtest.Contains(out, "watching origin/rx-node"), out)
	err := e.watcher(&gittest.SyncBuffer{}, noTerminal).Run(t.Context())
	var le *localfile.LockedError
	if !errors.As(err, &le) {
		t.Fatalf("second watcher: %v, want *localfile.LockedError", err)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
}

func TestWatchRecoversAStaleRunningFlag(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	if err := os.MkdirAll(e.Pol.StatePath(), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := state.SaveTX(e.Pol.StatePath(), state.TX{Running: true, WatcherPID: 999999}); err != nil {
		t.Fatal(err)
	}
	out := &gittest.SyncBuffer{}
	stop := txtest.Run(t, e.watcher(out, noTerminal))
	txtest.WaitFor(t, "the warning", txtest.Contains(out, "pid 999999"), out)
	if err := stop(); err != nil {
		t.Fatal(err)
	}
}

// A watcher killed inside a write of its state or of tx_nodes.json leaves
// a temp file; the next one, holding the lock, removes both kinds.
func TestWatchCleansKilledWrites(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	dir := e.Pol.StatePath()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	stale := []string{
		filepath.Join(dir, "."+state.TXStateFile+".tmp-111"),
		filepath.Join(dir, "."+nodesFile+".tmp-222"),
	}
	for _, p := range stale {
		if err := os.WriteFile(p, []byte(`{"half":`), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	out := &gittest.SyncBuffer{}
	stop := txtest.Run(t, e.watcher(out, noTerminal))
	txtest.WaitFor(t, "the temp files gone", func() bool {
		for _, p := range stale {
			if _, err := os.Stat(p); !os.IsNotExist(err) {
				return false
			}
		}
		return true
	}, out)
	if err := stop(); err != nil {
		t.Fatal(err)
	}
}

func TestWatchRefusesAStateDirGitDoesNotIgnore(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	if err := os.WriteFile(filepath.Join(e.F.Main, ".git", "info", "exclude"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	err := e.watcher(&gittest.SyncBuffer{}, noTerminal).Run(t.Context())
	var ni *gitcli.NotIgnoredError
	if !errors.As(err, &ni) {
		t.Fatalf("Run: %v, want *gitcli.NotIgnoredError", err)
	}
	if _, err := os.Stat(e.Pol.StatePath()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the state dir was created anyway: %v", err)
	}
}

func TestWatchRefusesACorruptState(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	if err := os.MkdirAll(e.Pol.StatePath(), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(statePath(e.Pol), []byte(`{"running": tru`), 0o600); err != nil {
		t.Fatal(err)
	}
	err := e.watcher(&gittest.SyncBuffer{}, noTerminal).Run(t.Context())
	var ce *state.CorruptError
	if !errors.As(err, &ce) {
		t.Fatalf("Run: %v, want *state.CorruptError", err)
	}
}

func TestWatchWarnsAboutTXParametersTheExecutorWillRefuse(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.Pol.TX.Amp = true // the default gain ceiling of 0 leaves no room for the amplifier
	out := &gittest.SyncBuffer{}
	stop := txtest.Run(t, e.watcher(out, noTerminal))
	txtest.WaitFor(t, "the warning", txtest.Contains(out, "tx-amp:"), out)
	if err := stop(); err != nil {
		t.Fatal(err)
	}
}

// An oversized RX_RESULT.json is bad content, not a bad remote: refused
// once, never retried with backoff, never read past its size.
func TestWatchRefusesAnOversizedResultOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	big := strings.Repeat("x", int(e.Pol.Limits.MaxResultBytes)+1)
	e.F.PublishBytes(t, []byte(big))
	out := &gittest.SyncBuffer{}
	asker := &scriptAsker{Answers: []answer{{Typed: gate.TXPhrase}}}
	stop := txtest.Run(t, e.watcher(out, opener(asker)))
	txtest.WaitFor(t, "the refusal", txtest.Contains(out, "refused, not offered"), out)
	e.WaitPolls(t, 5, out)
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	if n := strings.Count(s, "refused, not offered"); n != 1 || strings.Contains(s, "will retry") {
		t.Errorf("want one refusal and no retry:\n%s", s)
	}
	if !strings.Contains(s, "limit") && !strings.Contains(s, "large") {
		t.Errorf("the refusal does not say the file is too large:\n%s", s)
	}
	if asker.Opens() != 0 || len(e.files(t)) != 0 {
		t.Error("an oversized result reached the prompt or wrote a record")
	}
}

// A typo is not fatal: a wrong phrase is asked again within the same
// offer, the tries left shown, each on record; the right one then writes
// one record. What was typed is never in the log.
func TestWatchWrongPhraseThenRightOne(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := txtest.Ready(time.Now())
	commit, digest := e.F.Publish(t, r)
	out := &gittest.SyncBuffer{}
	asker := &scriptAsker{Answers: []answer{{Typed: "authorize rf tx"}, {Typed: gate.TXPhrase}}}
	stop := txtest.Run(t, e.watcher(out, opener(asker)))
	txtest.WaitFor(t, "the record", txtest.Contains(out, "AUTHORIZED: record"), out)
	if err := stop(); err != nil {
		t.Fatalf("Run: %v", err)
	}
	if !strings.Contains(out.String(), "wrong phrase for result "+digest[:12]+": 2 of 3 tries left, asking again") {
		t.Errorf("the tries left are not shown:\n%s", out)
	}
	if asker.Opens() != 1 || asker.Calls() != 2 {
		t.Errorf("terminal opened %d times, phrase asked %d times; want once, twice", asker.Opens(), asker.Calls())
	}
	name := RecordName(txtest.TaskID, digest)
	if files := e.files(t); len(files) != 1 || files[0] != name {
		t.Fatalf("authorization dir holds %v, want only %s", files, name)
	}
	kinds, lines := e.Decisions(t)
	if want := []string{exec.DecisionOffer, exec.DecisionPhraseRefused, exec.DecisionPhraseAccepted, exec.DecisionRecordWritten}; !slices.Equal(kinds, want) {
		t.Fatalf("decision lines %v, want %v", kinds, want)
	}
	offer, wrong, rec := lines[0], lines[1], lines[3]
	if offer.TaskID != txtest.TaskID || offer.ResultCommit != commit || offer.ResultSHA256 != digest || offer.ExpiresAt == nil ||
		offer.Command != "tx watch" || offer.Role != string(exec.SideTX) {
		t.Errorf("offer line %+v", offer)
	}
	if wrong.TriesLeft == nil || *wrong.TriesLeft != 2 || wrong.ResultSHA256 != digest {
		t.Errorf("refused phrase line %+v", wrong)
	}
	list, err := e.store(t).list().Load()
	if err != nil {
		t.Fatal(err)
	}
	if rec.Record != name || rec.RecordSHA256 != list.Records[name].SHA256 || rec.ExpiresAt == nil {
		t.Errorf("record line %+v, want %s with the list's sha256 %s", rec, name, list.Records[name].SHA256)
	}
	data, err := os.ReadFile(e.Audit)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(strings.ToLower(string(data)), "authorize rf tx") {
		t.Error("the audit log holds a phrase as typed")
	}
}

// The tries run out: no record, the offer ends on record, and neither
// later polls nor a restarted tx watch offer the READY again.
func TestWatchPhraseTriesExhausted(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := txtest.Ready(time.Now())
	_, digest := e.F.Publish(t, r)
	out := &gittest.SyncBuffer{}
	var answers []answer
	for range PhraseTries {
		answers = append(answers, answer{Typed: "AUTHORIZE RF  TX"})
	}
	asker := &scriptAsker{Answers: answers}
	w := e.watcher(out, opener(asker))
	stop := txtest.Run(t, w)
	txtest.WaitFor(t, "the end of the offer", txtest.Contains(out, "wrong phrase for result "+digest[:12]+", 3 times: nothing authorized"), out)
	e.WaitPolls(t, 2, out)
	if err := stop(); err != nil {
		t.Fatalf("Run: %v", err)
	}
	if asker.Calls() != PhraseTries || asker.Opens() != 1 {
		t.Errorf("phrase asked %d times (terminal opened %d); want %d in one offer, none after", asker.Calls(), asker.Opens(), PhraseTries)
	}
	if files := e.files(t); len(files) != 0 {
		t.Fatalf("authorization dir holds %v after the tries ran out", files)
	}
	kinds, lines := e.Decisions(t)
	want := []string{exec.DecisionOffer, exec.DecisionPhraseRefused, exec.DecisionPhraseRefused, exec.DecisionPhraseRefused, exec.DecisionOfferEnded}
	if !slices.Equal(kinds, want) {
		t.Fatalf("decision lines %v, want %v", kinds, want)
	}
	for i, left := range []int{2, 1, 0} {
		if l := lines[1+i].TriesLeft; l == nil || *l != left {
			t.Errorf("refusal %d: tries_left %v, want %d", i+1, l, left)
		}
	}

	// A restart, the same bytes in a fresh commit at a moved tip: not
	// offered again.
	data, err := result.Encode(r)
	if err != nil {
		t.Fatal(err)
	}
	e.F.PublishBytes(t, data)
	gittest.Seed(t, e.F.Remote, "rx-node", map[string]string{"NOTES.md": "unrelated\n"})
	tip := gittest.Tip(t, e.F.Remote, "rx-node")
	out2, asker2 := &gittest.SyncBuffer{}, &scriptAsker{}
	stop2 := txtest.Run(t, e.watcher(out2, opener(asker2)))
	txtest.WaitFor(t, "the new tip to be handled", func() bool {
		s, err := state.LoadTX(e.Pol.StatePath())
		return err == nil && s.LastResultCommit == tip
	}, out2)
	if err := stop2(); err != nil {
		t.Fatal(err)
	}
	if asker2.Calls() != 0 || strings.Contains(out2.String(), "READY result") || len(e.files(t)) != 0 {
		t.Fatalf("a READY whose tries ran out was offered again after a restart:\n%s", out2)
	}
}

// Normal reads as normal: the current task's COMPLETE at the tip is one
// line, and so is an earlier task's COMPLETE met at start-up; neither is
// offered, and neither reads as a refusal.
func TestWatchCompleteIsOneLine(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, taskID, want string
	}{
		{"current task", txtest.TaskID, "capture complete: " + txtest.TaskID + " ("},
		{"earlier task", "RX_OTA_0000", ": capture complete for an earlier task, RX_OTA_0000 ("},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			r := txtest.CompleteOf(txtest.Ready(time.Now()))
			r.TaskID, r.Overruns = tc.taskID, new(int64(3))
			e.F.Publish(t, r)
			out := &gittest.SyncBuffer{}
			asker := &scriptAsker{}
			stop := txtest.Run(t, e.watcher(out, opener(asker)))
			txtest.WaitFor(t, "the complete", txtest.Contains(out, tc.want), out)
			e.WaitPolls(t, 2, out)
			if err := stop(); err != nil {
				t.Fatal(err)
			}
			s := out.String()
			var line string
			for _, l := range strings.Split(s, "\n") {
				if strings.Contains(l, tc.want) {
					line = l
				}
			}
			summary := fmt.Sprintf("%d bytes, %.1f s, sha256 %s, overruns %d", *r.CaptureSizeBytes, *r.CaptureDurationS, (*r.CaptureSHA256)[:12], *r.Overruns)
			if !strings.Contains(line, summary+")") {
				t.Errorf("the line %q lacks %q", line, summary)
			}
			for _, no := range []string{"refused", "problems", "not capturing", "\n  "} {
				if strings.Contains(s, no) {
					t.Errorf("a COMPLETE reads as a refusal (%q):\n%s", no, s)
				}
			}
			if asker.Calls() != 0 || strings.Count(s, "capture complete") != 1 {
				t.Errorf("asked %d times; reported:\n%s", asker.Calls(), s)
			}
		})
	}
}

// No line, no effect: an offer the audit log cannot hold is not made, and
// a phrase it cannot hold writes no record.
func TestWatchDecisionsFailClosed(t *testing.T) {
	t.Parallel()
	for _, when := range []string{"offer", "phrase"} {
		t.Run(when, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			e.F.Publish(t, txtest.Ready(time.Now()))
			path := filepath.Join(t.TempDir(), "decisions.jsonl")
			log, err := exec.OpenAuditLog(path)
			if err != nil {
				t.Fatal(err)
			}
			breakLog := func() {
				if err := os.Remove(path); err != nil {
					t.Error(err)
				}
				if err := os.Mkdir(path, 0o700); err != nil { // a directory where the log was
					t.Error(err)
				}
			}
			asker := &scriptAsker{Answers: []answer{{Typed: gate.TXPhrase, Before: breakLog}}}
			want := "the phrase for result "
			if when == "offer" {
				breakLog()
				want = " is not offered, nothing authorized: cannot record the decision (offer)"
			}
			out := &gittest.SyncBuffer{}
			w := e.watcher(out, opener(asker))
			w.Audit = log
			stop := txtest.Run(t, w)
			txtest.WaitFor(t, "the refusal", txtest.Contains(out, want), out)
			if err := stop(); err != nil {
				t.Fatal(err)
			}
			if files := e.files(t); len(files) != 0 {
				t.Fatalf("records written without their decision lines: %v", files)
			}
			if calls := asker.Calls(); (when == "offer") != (calls == 0) {
				t.Errorf("phrase asked %d times", calls)
			}
		})
	}
}

// While the clock refuses, a READY that passes every check is not offered
// and nothing is recorded (said once); once the clock allows, the next
// poll offers it.
func TestWatchHoldsAnOfferWhileTheClockRefuses(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	_, digest := e.F.Publish(t, txtest.Ready(time.Now()))
	out := &gittest.SyncBuffer{}
	asker := &scriptAsker{Answers: []answer{{Typed: gate.TXPhrase}}}
	w := e.watcher(out, opener(asker))
	var mu sync.Mutex
	synced, asked := false, 0
	w.Clock = func(context.Context) error {
		mu.Lock()
		defer mu.Unlock()
		asked++
		if !synced {
			return errors.New("the host clock is not synchronised (stand-in)")
		}
		return nil
	}
	stop := txtest.Run(t, w)
	txtest.WaitFor(t, "the clock's refusal", txtest.Contains(out, "not offered for authorization yet: the host clock is not synchronised (stand-in)"), out)
	txtest.WaitFor(t, "a second ask", func() bool { mu.Lock(); defer mu.Unlock(); return asked >= 3 }, out)
	if asker.Calls() != 0 {
		t.Fatal("the phrase was asked while the clock refused")
	}
	if st, err := state.LoadTX(e.Pol.StatePath()); err == nil && st.Shown(digest) {
		t.Fatal("the digest was recorded as shown while the clock refused")
	}
	if n := strings.Count(out.String(), "not offered for authorization yet"); n != 1 {
		t.Errorf("the refusal said %d times, want once:\n%s", n, out)
	}
	mu.Lock()
	synced = true
	mu.Unlock()
	txtest.WaitFor(t, "the record", txtest.Contains(out, "AUTHORIZED: record"), out)
	if err := stop(); err != nil {
		t.Fatalf("Run: %v", err)
	}
}
