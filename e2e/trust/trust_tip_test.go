package trust

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"rfhandoff/internal/faultkit"
	"rfhandoff/internal/gittest"
	"rfhandoff/internal/tasktest"
	"rfhandoff/result"
	"rfhandoff/state"
)

// Results are read only from a tip that speaks (PROTOCOL#trust): these tests
// play an attacker with push rights and no key against a MAIN side that
// requires signed results.

// roomyTrustLab is a trustLab whose READY results stay fresh and have
// capture time left for minutes, so a refusal below is the rule under test
// and never a stale publication on a slow machine.
func roomyTrustLab(t *testing.T) *trustLab {
	t.Helper()
	l := newTrustLab(t)
	for _, s := range []*faultkit.Side{l.RX, l.Main} {
		s.Policy.Limits.PlannedDurationS = 900
		s.Policy.Limits.MaxPublicationAgeS = 300
		s.WritePolicy()
	}
	return l
}

// completeOf is the CAPTURE_COMPLETE that follows READY r.
func completeOf(r *result.Result) *result.Result {
	c := *r
	c.State = result.StateComplete
	c.PublishedAt = r.PublishedAt.Add(time.Second)
	c.RXReadyForTX, c.ProcessAlive, c.FileGrowing = false, false, false
	end, code, size, dur, sum := c.PublishedAt, int64(0), int64(0), 0.0, result.SHA256(nil)
	clk, obs := result.ClkinDetected, result.RFTXUnknown
	c.CaptureEndedAt, c.CaptureExitCode, c.CaptureSizeBytes, c.CaptureDurationS, c.CaptureSHA256 = &end, &code, &size, &dur, &sum
	c.ClkinAfter, c.RFTXObserved = &clk, &obs
	return &c
}

// publish commits r on the result branch signed with key ("" unsigned),
// with env added to git's (GIT_COMMITTER_DATE=...).
func (l *trustLab) publish(t *testing.T, r *result.Result, key string, env ...string) string {
	t.Helper()
	return faultkit.SignedSeed(t, l.Remote, tasktest.ResultBranch, map[string]string{tasktest.ResultPath: string(l.Encode(r))}, key, env...)
}

func (l *trustLab) treeOf(t *testing.T, commit string) string {
	t.Helper()
	return strings.TrimSpace(gittest.Git(t, l.R, l.Remote.Dir, "rev-parse", commit+"^{tree}"))
}

// records lists the authorization records in the MAIN state.
func (l *trustLab) records(t *testing.T) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(l.Main.StateDir(), "tx_authorizations", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	var recs []string
	for _, p := range m {
		if !strings.HasSuffix(p, ".outcome.json") {
			recs = append(recs, p)
		}
	}
	return recs
}

// authorizeTip has a tx watch authorize the READY at the result tip and
// returns the record.
func (l *trustLab) authorizeTip(t *testing.T) string {
	t.Helper()
	w := l.Main.StartTTY("tx", "watch")
	faultkit.TypePhrase(t, w)
	m := w.WaitFor(faultkit.ReAuthorized, faultkit.Wait)
	w.Signal(syscall.SIGTERM)
	w.Wait(faultkit.Wait)
	return m[1]
}

// executeRefused runs tx execute on record, types the phrase when phrase
// (a refusal in the quick checks comes before it), and wants exit 1
// naming every one of want, with the record left unused.
func (l *trustLab) executeRefused(t *testing.T, record string, phrase bool, want ...string) {
	t.Helper()
	x := l.Main.StartTTY("tx", "execute", record)
	if phrase {
		faultkit.TypePhrase(t, x)
	}
	if st := x.Wait(faultkit.Wait); st.ExitCode() != 1 {
		t.Fatalf("tx execute: exit %d, want 1\n%s", st.ExitCode(), x.TTY.String())
	}
	for _, w := range want {
		if !strings.Contains(x.TTY.String(), w) {
			t.Errorf("tx execute does not say %q:\n%s", w, x.TTY.String())
		}
	}
	if recordUsed(t, l.Main, record) {
		t.Error("the refused execution used the record")
	}
}

// watchRefuses starts tx watch, waits until it refused the tip naming
// want, lets several polls pass and checks that the tip was reported once
// and nothing was offered.
func (l *trustLab) watchRefuses(t *testing.T, tip string, want ...string) {
	t.Helper()
	w := l.Main.StartTTY("tx", "watch")
	w.WaitForText("result at commit "+tip[:12]+" refused, not offered for authorization (no valid result", faultkit.Wait)
	for _, s := range want {
		w.WaitForText(s, faultkit.Wait)
	}
	faultkit.MorePolls(t, l.Main, 5)
	w.Signal(syscall.SIGTERM)
	w.Wait(faultkit.Wait)
	out := w.TTY.String()
	if n := strings.Count(out, "refused, not offered"); n != 1 {
		t.Errorf("the tip was reported %d times, want once:\n%s", n, out)
	}
	if strings.Contains(out, "Type exactly") {
		t.Fatalf("tip %s was offered for authorization:\n%s", tip, out)
	}
}

// The replay of issue 19: after the RX key signed READY (R) and COMPLETE
// (C), an unsigned merge carrying R's tree is pushed, with C first and
// then with R as the first parent. A MAIN PC that never saw the branch
// offers nothing and records nothing, and tx execute of the record made
// for R before the merge refuses.
func TestTrustResultMergeReplay(t *testing.T) {
	t.Parallel()
	l := roomyTrustLab(t)
	const id = "TRUST_REPLAY_0001"
	l.PushTask(tasktest.Capture(id))
	r := l.Ready(id)
	ready := l.publish(t, r, l.rx.Private)
	record := l.authorizeTip(t)
	complete := l.publish(t, completeOf(r), l.rx.Private)

	tip := complete
	for _, first := range []string{"complete", "ready"} {
		parents := []string{tip, ready}
		if first == "ready" {
			parents = []string{ready, tip}
		}
		tip = faultkit.CommitTree(t, l.Remote, tasktest.ResultBranch, l.treeOf(t, ready), parents, "")
		// A MAIN side that has not seen the branch before (another PC,
		// or a state directory started afresh).
		if err := os.Remove(filepath.Join(l.Main.StateDir(), state.TXStateFile)); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		l.watchRefuses(t, tip, "the tip "+tip+" did not change "+tasktest.ResultPath+" itself (its last change is "+ready)
		if recs := l.records(t); len(recs) != 1 {
			t.Fatalf("merge with %s first: records %v, want only the one made before", first, recs)
		}
		// The watcher read the COMPLETE in the branch's history (PROTOCOL#trust).
		l.executeRefused(t, record, false, "refused at quick checks: task "+id+" is over: a CAPTURE_COMPLETE for it was seen at result commit "+complete)
		// A MAIN state that never saw the branch: the re-check refuses.
		if err := os.Remove(filepath.Join(l.Main.StateDir(), state.TXStateFile)); err != nil {
			t.Fatal(err)
		}
		l.executeRefused(t, record, true, "the result branch is at "+tip, "did not change", "task "+id+" is over")
	}
}

// COMPLETE ends a task for the MAIN side: after it, neither an unsigned
// commit restoring READY's bytes nor a new signed READY for the task is
// offered, and tx execute refuses the record made for the READY.
func TestTrustCompleteEndsTask(t *testing.T) {
	t.Parallel()
	l := roomyTrustLab(t)
	const id = "TRUST_DONE_0001"
	l.PushTask(tasktest.Capture(id))
	r := l.Ready(id)
	l.publish(t, r, l.rx.Private)
	w := l.Main.StartTTY("tx", "watch")
	faultkit.TypePhrase(t, w)
	record := w.WaitFor(faultkit.ReAuthorized, faultkit.Wait)[1]

	complete := l.publish(t, completeOf(r), l.rx.Private)
	w.WaitForText("capture complete: "+id+" (", faultkit.Wait) // the normal end, one line
	unsigned := l.publish(t, r, "")
	w.WaitForText("result at commit "+unsigned[:12]+" refused", faultkit.Wait)
	w.WaitForText("unsigned", faultkit.Wait)
	l.publish(t, r, l.rx.Private) // READY's bytes again, signed: already shown
	again := l.Ready(id)
	again.CapturePID = 4002
	l.publish(t, again, l.rx.Private)
	w.WaitForText("task "+id+" is over: a CAPTURE_COMPLETE for it was seen at result commit "+complete, faultkit.Wait)
	w.Signal(syscall.SIGTERM)
	w.Wait(faultkit.Wait)
	if n := strings.Count(w.TTY.String(), "Type exactly"); n != 1 {
		t.Fatalf("offered %d times, want only the READY before COMPLETE:\n%s", n, w.TTY.String())
	}
	st, err := state.LoadTX(l.Main.StateDir())
	if err != nil || st.CompletedTasks[id] != complete {
		t.Fatalf("tx state completed_tasks = %v (%v), want %s at %s", st.CompletedTasks, err, id, complete)
	}
	l.executeRefused(t, record, false, "refused at quick checks: task "+id+" is over")
	if out := l.Main.Run(faultkit.Wait, "tx", "status"); !strings.Contains(out.Stdout, "tasks over:     1") || !strings.Contains(out.Stdout, id+"  at result commit "+complete[:12]) {
		t.Errorf("tx status does not list the task as over:\n%s", out)
	}
}

// One foreign commit at the result tip costs a report, not the lab: the
// RX side's next signed publish on top is offered.
func TestTrustForeignTipThenSignedPublish(t *testing.T) {
	t.Parallel()
	l := roomyTrustLab(t)
	const id = "TRUST_FOREIGN_0001"
	l.PushTask(tasktest.Capture(id))
	ready := l.pushResult(t, id, 5001, l.rx.Private)
	foreign := l.PushFiles(tasktest.ResultBranch, map[string]string{"docs/handoff/results/RX_RESULT.md": "forged\n"})
	w := l.Main.StartTTY("tx", "watch")
	w.WaitForText("result at commit "+foreign[:12]+" refused, not offered for authorization (no valid result", faultkit.Wait)
	w.WaitForText("its last change is "+ready, faultkit.Wait)
	faultkit.MorePolls(t, l.Main, 5)
	if out := w.TTY.String(); strings.Contains(out, "Type exactly") || strings.Count(out, "refused, not offered") != 1 {
		t.Fatalf("the foreign tip was offered or reported more than once:\n%s", out)
	}
	next := l.pushResult(t, id, 5002, l.rx.Private)
	w.WaitForText("result branch commit "+next, faultkit.Wait)
	faultkit.TypePhrase(t, w)
	w.WaitFor(faultkit.ReAuthorized, faultkit.Wait)
	w.Signal(syscall.SIGTERM)
	w.Wait(faultkit.Wait)
}

// A key withdrawn in the allowed signers (valid-before in the past) does
// not sign today, whatever date its commit claims: git alone would accept
// a commit backdated into the key's window.
func TestTrustWithdrawnKeyBackdated(t *testing.T) {
	t.Parallel()
	l := roomyTrustLab(t)
	const backdated = "GIT_COMMITTER_DATE=2020-06-01T12:00:00Z"
	faultkit.WriteAllowedSigners(t, l.resultSigners, faultkit.SignerLine("rx@lab", l.rx, `namespaces="git",valid-before="20210101"`))
	faultkit.WriteAllowedSigners(t, l.taskSigners, faultkit.SignerLine("main@lab", l.main, `namespaces="git",valid-before="20210101"`))

	// The task: rx check refuses it, naming the window.
	faultkit.SignedSeed(t, l.Remote, tasktest.TaskBranch,
		map[string]string{tasktest.TaskPath: tasktest.TaskFile(l.taskSpec("TRUST_OLDKEY_0001"))}, l.main.Private, backdated)
	out := l.RX.Run(faultkit.Wait, "rx", "check")
	if out.Code != 1 || !strings.Contains(out.Stderr, "key "+l.main.Fingerprint+" for main@lab is outside its window at now") ||
		!strings.Contains(out.Stderr, `valid-before="20210101"`) {
		t.Fatalf("rx check of a task signed by a withdrawn key on a backdated commit: want exit 1 naming the window\n%s", out)
	}
	if show := l.RX.Run(faultkit.Wait, "audit", "show"); !strings.Contains(show.Stdout, "good signature on") {
		t.Errorf("git itself did not find the backdated signature good, so the test proves nothing:\n%s", show.Stdout)
	}

	// The result: tx watch refuses it the same way.
	l.PushTask(tasktest.Capture("TRUST_OLDKEY_0002"))
	tip := l.publish(t, l.Ready("TRUST_OLDKEY_0002"), l.rx.Private, backdated)
	l.watchRefuses(t, tip, "key "+l.rx.Fingerprint+" for rx@lab is outside its window at now")
}

// A READY whose signed commit is dated far from its published_at is
// inconsistent and refused.
func TestTrustCommitterDateFarFromPublication(t *testing.T) {
	t.Parallel()
	l := newTrustLab(t)
	const id = "TRUST_DATE_0001"
	l.PushTask(tasktest.Capture(id))
	r := l.Ready(id)
	hourAgo := r.PublishedAt.Add(-time.Hour).UTC().Format(time.RFC3339) // whole seconds: 1h to 1h+1s away
	tip := l.publish(t, r, l.rx.Private, "GIT_COMMITTER_DATE="+hourAgo)
	w := l.Main.StartTTY("tx", "watch")
	w.WaitForText("at commit "+tip[:12]+" refused, not offered for authorization", faultkit.Wait)
	w.WaitForText(fmt.Sprintf("is 1h0m0s away from published_at %s (more than max_publication_age_s (%d s)): inconsistent, refused",
		r.PublishedAt.Format(time.RFC3339), l.Main.Policy.Limits.MaxPublicationAgeS), faultkit.Wait)
	w.Signal(syscall.SIGTERM)
	w.Wait(faultkit.Wait)
	if strings.Contains(w.TTY.String(), "Type exactly") {
		t.Fatalf("offered:\n%s", w.TTY.String())
	}
}

// With max_publication_age_s = 0 a signed READY's committer date is
// bounded by the task's CAPTURE_DURATION_S, as every other MAIN check is
// (PROTOCOL#main-pc): 5 minutes away is refused for a 60 s task, though
// the policy's planned duration (900 s here) would allow it.
func TestTrustCommitterDateBoundIsTheTasksDuration(t *testing.T) {
	t.Parallel()
	l := newTrustLab(t)
	l.Main.Policy.Limits.MaxPublicationAgeS = 0
	l.Main.WritePolicy()
	const id = "TRUST_DATE_0002"
	spec := tasktest.Capture(id)
	spec.CaptureDurationS = 60
	l.PushTask(spec)
	r := l.Ready(id)
	r.PlannedDurationS = spec.CaptureDurationS
	fiveAgo := r.PublishedAt.Add(-5 * time.Minute).UTC().Format(time.RFC3339) // whole seconds: 5m to 5m+1s away
	tip := l.publish(t, r, l.rx.Private, "GIT_COMMITTER_DATE="+fiveAgo)
	w := l.Main.StartTTY("tx", "watch")
	w.WaitForText("at commit "+tip[:12]+" refused, not offered for authorization", faultkit.Wait)
	w.WaitForText(fmt.Sprintf("is 5m0s away from published_at %s (more than the task's CAPTURE_DURATION_S (60 s; max_publication_age_s is 0)): inconsistent, refused",
		r.PublishedAt.Format(time.RFC3339)), faultkit.Wait)
	w.Signal(syscall.SIGTERM)
	w.Wait(faultkit.Wait)
	if strings.Contains(w.TTY.String(), "Type exactly") {
		t.Fatalf("offered:\n%s", w.TTY.String())
	}
}
