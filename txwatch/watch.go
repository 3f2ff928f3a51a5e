package txwatch

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"rfhandoff/backoff"
	"rfhandoff/config"
	"rfhandoff/exec"
	"rfhandoff/gate/txgate"
	"rfhandoff/gitcli"
	"rfhandoff/localfile"
	"rfhandoff/mirror"
	"rfhandoff/notify"
	"rfhandoff/result"
	"rfhandoff/resultfetch"
	"rfhandoff/state"
	"rfhandoff/taskfetch"
)

// Watcher is tx watch: for a READY result that passes every check it asks
// for the phrase and writes one authorization record. It never transmits.
type Watcher struct {
	Git    *gitcli.Client // in the MAIN checkout (repo.path); its remote is the mirror's
	Policy config.Policy
	Out    io.Writer // reports, one event per line
	Logger *slog.Logger
	Now    func() time.Time // the checks' clock (nil: time.Now)
	// OpenAsker opens the terminal for the phrase (nil: OpenTerminal).
	OpenAsker func() (Asker, error)
	Notify    *notify.Dispatcher // PROTOCOL#notifications; nil sends nothing
	Audit     *exec.AuditLog     // the decision lines (PROTOCOL#audit-log); nil records none
	// ExecuteCommand is printed after a record is written ("": "rfhandoff tx execute").
	ExecuteCommand string
	// Clock, when set, may hold an offer back until a later poll (PROTOCOL#main-pc).
	Clock func(ctx context.Context) error
	// Resync bounds how long a ref moved outside rfhandoff goes unnoticed (0: DefaultResync).
	Resync time.Duration

	rep          *reporter
	mirror       *mirror.Mirror
	src          resultfetch.Source
	store        Store
	st           state.TX
	lastCommit   string         // the result commit last handled
	rand         func() float64 // backoff jitter (nil: math/rand/v2)
	fetchFailing bool           // the last poll failed at the fetch
	// The tracking refs as last resolved, by branch; see trackingCommits.
	resolved    bool
	tracked     map[string]string
	trackedHint string
	lastResolve time.Time
	views       map[string]*nodeView // by node name
}

const DefaultResync = 5 * time.Minute

func (w *Watcher) now() time.Time {
	if w.Now != nil {
		return w.Now()
	}
	return time.Now()
}

// Run watches until ctx ends, then clears running in the state and returns
// nil. It returns an error only when it cannot start.
func (w *Watcher) Run(ctx context.Context) (err error) {
	w.rep = newReporter(w.Out, "tx watch: ")
	if err := w.Policy.ValidateMAIN(); err != nil {
		return fmt.Errorf("policy: no result could ever be authorized and executed with it: %w", err)
	}
	if w.store, err = StoreOf(w.Policy); err != nil {
		return err
	}
	// Created only once git is known to ignore it.
	if err := w.Git.RequireIgnored(ctx, w.Policy.Repo.Path, w.Policy.StatePath(), "state directory"); err != nil {
		return err
	}
	dir := w.Policy.StatePath()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("state directory: %w", err)
	}
	lock, err := localfile.AcquireAs(w.Policy.StatePath(state.TXLockFile), "tx watch")
	if err != nil {
		return err
	}
	defer lock.Release()
	if err := w.openMirror(ctx); err != nil {
		return err
	}
	if err := checkReachable(ctx, w.mirror, w.Policy); err != nil {
		return err
	}
	// Holding the lock, no live writer owns a temp file.
	for _, f := range []string{state.TXStateFile, nodesFile} {
		if _, err := localfile.CleanTemps(filepath.Join(dir, f)); err != nil {
			return err
		}
	}
	if _, err := w.store.CleanTemps(); err != nil {
		return err
	}
	if w.st, err = state.LoadTX(dir); err != nil {
		return err
	}
	if lock.RecoverStale(w.st.Running, w.st.WatcherPID) {
		w.rep.printf("warning: the state said a watcher (pid %d) was running; it is gone (this process holds the lock), recovered", w.st.WatcherPID)
	}
	w.st.Running, w.st.WatcherPID = true, os.Getpid()
	if err := state.SaveTX(dir, w.st); err != nil {
		return err
	}
	defer func() {
		w.st.Running, w.st.WatcherPID = false, 0
		if serr := state.SaveTX(dir, w.st); serr != nil && err == nil {
			err = serr
		}
	}()
	w.lastCommit = w.st.LastResultCommit
	r := w.Policy.Repo
	w.rep.printf("watching %s/%s every %s (pid %d)", r.Remote, r.ResultBranch, w.Policy.Poll.TXInterval.Duration, os.Getpid())
	if err := txgate.CheckTXParams(w.Policy); err != nil {
		w.rep.printf("warning: tx execute will refuse every record while the [tx] parameters are outside the limits:\n%v", err)
	}

	bo := backoff.Backoff{Base: w.Policy.Poll.TXInterval.Duration, Max: w.Policy.Poll.MaxBackoff.Duration, Rand: w.rand}
	outage := &notify.Outage{D: w.Notify, Watcher: "tx watch", After: bo.Max}
	defer w.Notify.Notify(notify.WatcherStopped("tx watch", "a signal or shutdown"))
	for {
		err := w.poll(ctx)
		if ctx.Err() != nil {
			break
		}
		wait := w.Policy.Poll.TXInterval.Duration
		if err != nil {
			w.rep.failure(err)
			outage.Failed(w.now(), err)
			wait = bo.Next()
			cmp.Or(w.Logger, slog.New(slog.DiscardHandler)).Debug("tx watch: backing off", "wait", wait, "error", err, "detail", exec.Detail(err))
		} else {
			w.rep.ok()
			outage.OK()
			bo.Reset()
		}
		if !backoff.Sleep(ctx, wait) {
			break
		}
	}
	w.rep.printf("stopped")
	return nil
}

// poll is one round. An error is operational and retried; a refused
// result is reported, not an error.
func (w *Watcher) poll(ctx context.Context) error {
	commits, err := w.trackingCommits(ctx)
	if err != nil {
		w.fetchFailing = true
		return fmt.Errorf("fetching the result branch: %w", err)
	}
	if w.fetchFailing {
		// The remote is back: say so before anything it brought is shown.
		w.fetchFailing = false
		w.rep.ok()
	}
	if len(w.Policy.Nodes) > 0 {
		if err := w.pollNodes(ctx, commits); err != nil {
			return err
		}
		if slices.ContainsFunc(w.Policy.Nodes, func(n config.MainNode) bool { return n.ResultBranch == w.Policy.Repo.ResultBranch }) {
			return nil // a [[nodes]] branch: read as that node's
		}
	}
	commit := commits[w.Policy.Repo.ResultBranch]
	if commit == w.lastCommit {
		return nil
	}
	// Every result since the last look first: a COMPLETE between two polls
	// still ends its task (saved with the state below).
	l, err := w.src.Look(ctx, commit, w.lastCommit)
	if err != nil {
		return err
	}
	w.reportLook(w.src.Branch(), l, l.Record(&w.st))
	// A tip that does not speak for the file is "no valid result now": a
	// property of the commit, not the bytes, so it is reported once per tip,
	// the digest stays unshown, and the next signed publish is judged afresh.
	now := w.now()
	v, err := readNode(ctx, w.src, commit, now)
	switch {
	case err != nil:
		return err
	case v.unreadable:
		// Bad content, not a bad remote: refuse it once, never retry it.
		w.rep.once("unreadable:"+commit, "result at commit %s refused, not offered for authorization: %v", short(commit), v.bad)
		return w.remember(commit)
	case v.snap.Data == nil:
		w.rep.once("nofile:"+commit, "no %s at result branch commit %s yet", w.src.ResultPath(), commit)
		return w.remember(commit)
	case v.r == nil && resultfetch.NotSpeaking(v.bad):
		w.rep.once("tip:"+commit, "result at commit %s refused, not offered for authorization (no valid result on the result branch now):\n%v", short(commit), errors.Unwrap(v.bad))
		return w.remember(commit)
	}
	snap := v.snap
	if w.st.Shown(snap.Digest) {
		return w.remember(commit)
	}
	cur, err := w.src.CurrentTask(ctx)
	if err != nil {
		return fmt.Errorf("reading the current task (needed to check result %s): %w", short(snap.Digest), err)
	}
	r, checkErr := v.r, v.bad
	if checkErr == nil && r.State == result.StateComplete {
		w.st.MarkCompleted(r.TaskID, commit)
	}
	if checkErr == nil {
		checkErr = judgeReady(w.src, v, cur, now, 0, &w.st)
	}
	if checkErr == nil && !w.clockAllows(ctx, "result:"+snap.Digest, fmt.Sprintf("result %s at commit %s", short(snap.Digest), short(commit))) {
		return nil // neither shown nor remembered: asked again at the next poll
	}
	// Recorded as shown before it is shown: if the save fails nothing is
	// shown; once saved, never again, not even after a crash at the prompt.
	w.st.MarkShown(snap.Digest, now)
	w.st.LastResultCommit = commit
	if err := state.SaveTX(w.Policy.StatePath(), w.st); err != nil {
		delete(w.st.ShownResultDigests, snap.Digest)
		return err
	}
	w.lastCommit = commit
	switch line := normalEnd(r, cur.ID, commit); {
	case checkErr == nil:
		return w.authorize(ctx, cur, []*nodeView{v})
	case line != "":
		w.rep.printf("%s", line)
	case r != nil && r.TaskID != cur.ID:
		// Another task's result: the task ID settles it, in one line.
		w.rep.printf("result %s at commit %s refused, not offered for authorization: %s: it is task %s's (%s), the current task is %s",
			short(snap.Digest), short(commit), txgate.TXRuleTaskID, r.TaskID, r.State, cur.ID)
	default:
		w.rep.printf("result %s at commit %s refused, not offered for authorization:\n%v",
			short(snap.Digest), short(commit), checkErr)
	}
	return nil
}

// clockAllows asks w.Clock; a refusal is said once and nothing recorded,
// so the next poll reads the branch again.
func (w *Watcher) clockAllows(ctx context.Context, key, what string) bool {
	if w.Clock == nil {
		return true
	}
	if err := w.Clock(ctx); err != nil {
		w.rep.once("clock:"+key, "%s not offered for authorization yet: %v", what, err)
		return false
	}
	return true
}

// normalEnd is the one line for a CAPTURE_COMPLETE, no refusal but the
// normal course (PROTOCOL#main-pc); "" for anything else.
func normalEnd(r *result.Result, current, commit string) string {
	if r == nil || r.State != result.StateComplete {
		return ""
	}
	if r.TaskID != current {
		return fmt.Sprintf("result at commit %s: capture complete for an earlier task, %s (%s); the current task is %s",
			short(commit), r.TaskID, captureSummary(r), current)
	}
	return fmt.Sprintf("capture complete: %s (%s)", r.TaskID, captureSummary(r))
}

// captureSummary is a COMPLETE's size, duration, SHA-256 and overruns ("?" when absent).
func captureSummary(r *result.Result) string {
	size, dur, sum, over := "? bytes", "? s", "sha256 ?", "overruns ?"
	if r.CaptureSizeBytes != nil {
		size = fmt.Sprintf("%d bytes", *r.CaptureSizeBytes)
	}
	if r.CaptureDurationS != nil {
		dur = fmt.Sprintf("%.1f s", *r.CaptureDurationS)
	}
	if r.CaptureSHA256 != nil {
		sum = "sha256 " + short(*r.CaptureSHA256)
	}
	if r.Overruns != nil {
		over = fmt.Sprintf("overruns %d", *r.Overruns)
	}
	return strings.Join([]string{size, dur, sum, over}, ", ")
}

// openMirror opens the MAIN side's mirror (tx execute uses the same one).
func (w *Watcher) openMirror(ctx context.Context) (err error) {
	if w.mirror, err = mirror.ForTX(ctx, w.Git, w.Policy, w.Logger); err != nil {
		return err
	}
	w.src = resultfetch.Source{Git: w.mirror, Policy: w.Policy}
	return nil
}

// trackingCommits does one fetch of every branch and returns each tracking
// ref's commit. It resolves refs only after a failure, a possible change, a
// fetch hint from tx execute, and every Resync: an idle poll is one process.
func (w *Watcher) trackingCommits(ctx context.Context) (map[string]string, error) {
	branches := []string{w.Policy.Repo.ResultBranch}
	for _, n := range w.Policy.Nodes {
		if !slices.Contains(branches, n.ResultBranch) {
			branches = append(branches, n.ResultBranch)
		}
	}
	wasResolved := w.resolved
	w.resolved = false // until every ref below is resolved
	ups, err := w.mirror.FetchBranchesUpdated(ctx, w.Policy.Repo.Remote, branches)
	if err != nil {
		var fp *gitcli.ForcePushError
		if errors.As(err, &fp) {
			delete(w.tracked, fp.Branch)
		}
		return nil, err
	}
	hint := ReadFetchHint(w.Policy)
	resync := w.Resync
	if resync <= 0 {
		resync = DefaultResync
	}
	fresh := wasResolved && hint == w.trackedHint && time.Since(w.lastResolve) < resync
	if w.tracked == nil {
		w.tracked = map[string]string{}
	}
	out := make(map[string]string, len(branches))
	for _, b := range branches {
		if c, ok := w.tracked[b]; ok && fresh && !ups[b].MayHaveMoved() {
			out[b] = c
			continue
		}
		ref := taskfetch.TrackingRef(w.Policy, b)
		commit, err := w.mirror.ResolveCommit(ctx, ref)
		if err != nil {
			return nil, err
		}
		if old := w.tracked[b]; old != "" && commit != old {
			ok, err := w.mirror.IsAncestor(ctx, old, commit)
			if err != nil {
				return nil, err
			}
			if !ok {
				// A forced fetch outside rfhandoff: refused like a force-push.
				return nil, fmt.Errorf("%s moved from %s to %s, which does not contain it: the result branch was rewritten "+
					"(and fetched outside rfhandoff); refused, not followed", ref, old, commit)
			}
		}
		w.tracked[b], out[b] = commit, commit
	}
	w.resolved, w.trackedHint, w.lastResolve = true, hint, time.Now()
	return out, nil
}

// reportLook says, once, which tasks a look found over, and a look past the bound.
func (w *Watcher) reportLook(branch string, l resultfetch.Look, newly []string) {
	if l.Unread {
		w.rep.once("unread:"+branch+":"+l.Tip, "result branch %s at %s: more than %d results since the last look; the %d nearest the tip were read, "+
			"and every task they name (%s) counts as over, as a CAPTURE_COMPLETE for it among the unread ones cannot be ruled out: "+
			"a new task goes on", branch, short(l.Tip), resultfetch.MaxLookResults, resultfetch.MaxLookResults, strings.Join(l.Named, ", "))
	}
	for _, id := range newly {
		if c, ok := l.Completed[id]; ok && c != l.Tip {
			w.rep.once("over:"+id, "task %s is over: a CAPTURE_COMPLETE for it was seen at result commit %s on %s (since the last look, not at the tip %s)",
				id, c, branch, short(l.Tip))
		}
	}
}

func (w *Watcher) remember(commit string) error {
	w.lastCommit = commit
	if w.st.LastResultCommit == commit {
		return nil
	}
	w.st.LastResultCommit = commit
	return state.SaveTX(w.Policy.StatePath(), w.st)
}

func short(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}
