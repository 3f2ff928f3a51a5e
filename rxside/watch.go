package rxside

import (
	"context"
	"time"

	"rfhandoff/backoff"
	"rfhandoff/exec"
	"rfhandoff/hiddentext"
	"rfhandoff/notify"
	"rfhandoff/taskfetch"
)

// Watcher is `rx watch`: it polls the task branch and offers each new
// valid task at the prompt until stopped. Failures never stop it.
type Watcher struct {
	S      *Session
	Poller *Poller
	// Prompter is nil without a terminal: tasks awaiting approval are
	// then reported, and nothing is approved.
	Prompter Prompter
	Outbox   *ManualExecutor
	Interval time.Duration
	Backoff  backoff.Backoff
	// EachPoll, when set, runs before each poll: rx watch recovers there a
	// capture whose rx capture died, so its COMPLETE is out within one poll.
	EachPoll func(context.Context)

	deferred  map[string]bool // ID+digest deferred at this watcher's prompt
	announced map[string]bool // events already reported once
}

func NewWatcher(s *Session, p Prompter) *Watcher {
	pol := s.Policy
	return &Watcher{
		S:        s,
		Poller:   &Poller{Git: s.Mirror, Policy: pol, Store: s.Store, Now: s.Now},
		Prompter: p,
		Outbox:   NewManualExecutor(s.StateDir(), pol),
		Interval: pol.Poll.RXInterval.Duration,
		Backoff:  backoff.Backoff{Base: pol.Poll.RXInterval.Duration, Max: pol.Poll.MaxBackoff.Duration},
	}
}

// Run polls until ctx ends or the operator answers [S]; both return nil.
func (w *Watcher) Run(ctx context.Context) error {
	log := w.S.log()
	w.deferred, w.announced = map[string]bool{}, map[string]bool{}
	rep := &reporter{log: log, now: w.S.now, mirror: w.S.Mirror.Dir}
	if w.Prompter == nil {
		log.Warn("no terminal: tasks awaiting approval are reported, but nothing can be approved here")
	}
	outage := &notify.Outage{D: w.S.Notify, Watcher: "rx watch", After: w.Backoff.Max}
	stopped := "a signal or shutdown"
	defer func() { w.S.Notify.Notify(notify.WatcherStopped("rx watch", stopped)) }()
	log.Info("watching the task branch", "remote", w.S.Policy.Repo.Remote, "branch", w.S.Policy.Repo.TaskBranch,
		"interval", w.Interval, "max_backoff", w.Backoff.Max)
	for {
		if w.EachPoll != nil {
			w.EachPoll(ctx)
		}
		p, err := w.Poller.Poll(ctx)
		if ctx.Err() != nil {
			return nil
		}
		wait := w.Interval
		if err != nil {
			wait = w.Backoff.Next()
			rep.failure(err, wait)
			outage.Failed(w.S.now(), err)
		} else {
			w.Backoff.Reset()
			rep.success()
			outage.OK()
			if stop := w.consider(ctx, p); stop {
				stopped = "[S] at the prompt"
				return nil
			}
		}
		if ctx.Err() != nil || !backoff.Sleep(ctx, wait) {
			return nil
		}
	}
}

func (w *Watcher) announce(key string, f func()) {
	if !w.announced[key] {
		w.announced[key] = true
		f()
	}
}

// consider acts on a successful poll; it returns true to stop.
func (w *Watcher) consider(ctx context.Context, p Poll) bool {
	log := w.S.log()
	if p.TaskErr != nil {
		if err := w.S.Accept(p.Accept); err != nil {
			w.announce("state "+err.Error(), func() { log.Error("cannot use the RX state", "err", err) })
		}
		w.announce("rejected "+p.Commit, func() {
			log.Warn("task rejected", "commit", p.Commit, "err", hiddentext.SanitizeLine(p.TaskErr.Error()))
		})
		return false
	}
	cur := p.Task
	t := cur.Task
	key := t.ID + " " + t.SHA256
	if d, err := forNode(w.S.Policy, t); err != nil || d.Verdict == NotForNode {
		if aerr := w.S.Accept(p.Accept); aerr != nil {
			w.announce("state "+aerr.Error(), func() { log.Error("cannot use the RX state", "err", aerr) })
		}
		if err != nil {
			w.announce("refused "+key, func() { log.Error("task refused", "task_id", t.ID, "err", err) })
		} else {
			w.announce("other nodes "+key, func() {
				log.Info("task is not for this node: not offered", "task_id", t.ID, "rx_nodes", t.Nodes.String(), "node", w.S.Policy.Node.Name)
			})
		}
		return false
	}
	d, err := w.S.Record(cur, p.Accept)
	if err != nil {
		w.announce("state "+err.Error(), func() { log.Error("cannot use the RX state", "err", err) })
		return false
	}
	if err := rejection(d, cur); err != nil {
		w.announce(d.Verdict.String()+" "+key, func() { log.Error("task rejected", "task_id", t.ID, "err", err) })
		return false
	}
	switch d.Verdict {
	case Completed:
		w.announce("completed "+key, func() { log.Info("task is completed: not offered again", "task_id", t.ID) })
		return false
	case Approved:
		changes, err := w.S.PlanChanges(t)
		if err != nil || len(changes) == 0 {
			w.announce("approved "+key, func() { log.Info("task already approved", "task_id", t.ID, "sha256", t.SHA256) })
			return false
		}
		// Approved to run another capture than the policy's now: asked again.
		log.Warn("task was approved with other capture parameters: offering it again", "task_id", t.ID, "changes", changes)
	}
	if w.deferred[key] {
		return false
	}
	if err := w.S.startRefusal(t); err != nil {
		// Said once: time only moves further past it.
		w.announce("refused "+key, func() { log.Error("task refused", "task_id", t.ID, "err", err) })
		return false
	}
	w.S.NotifyApprovalNeeded(cur)
	if w.Prompter == nil {
		w.announce("awaiting "+key, func() {
			if err := w.S.decide(exec.DecisionApprovalRefused, t, cur.Commit, "no terminal"); err != nil {
				log.Warn("the refusal is not on record", "task_id", t.ID, "err", err)
			}
			log.Warn("task awaits approval, but there is no terminal: nothing can be approved here",
				"task_id", t.ID, "level", t.EffectiveLevel.String(), "commit", cur.Commit,
				"to_approve", "run `rfhandoff rx approve "+t.ID+"` at a terminal (stop this watcher first)")
		})
		return false
	}
	log.Info("new task awaits approval: prompting", "task_id", t.ID, "level", t.EffectiveLevel.String(), "commit", cur.Commit)
	res, err := w.S.Offer(ctx, w.Prompter, cur, w.reread, w.Outbox)
	if err != nil {
		log.Error("approval prompt failed: continuing without prompts; nothing approved", "task_id", t.ID, "err", err)
		w.Prompter = nil
		return false
	}
	switch res.Outcome {
	case OutcomeStopped:
		log.Info("stopping: nothing approved", "task_id", t.ID)
		return true
	case OutcomeDeferred:
		w.deferred[key] = true
		log.Info("task deferred: this watcher will not ask again", "task_id", t.ID,
			"to_approve", "rfhandoff rx approve "+t.ID)
	case OutcomeWrongPhrase:
		log.Warn("wrong phrase: nothing approved; asking again at the next poll", "task_id", t.ID)
	case OutcomeRefused:
		log.Error("approval refused: nothing approved", "task_id", t.ID, "err", res.Err)
	case OutcomeApproved:
		log.Info("task approved", "task_id", t.ID, "sha256", res.Approval.TaskSHA256, "commit", res.Approval.Commit)
		if res.Err != nil {
			log.Error("approval recorded, but preparing the outbox failed; run `rfhandoff rx approve` to prepare it again",
				"task_id", t.ID, "err", res.Err)
		} else {
			log.Info("ManualExecutor prepared the task", "task_id", t.ID, "outbox", res.Outbox)
		}
	}
	return false
}

func (w *Watcher) reread(ctx context.Context) (*taskfetch.Current, error) {
	p, err := w.Poller.Refresh(ctx)
	if err != nil {
		return nil, err
	}
	if p.TaskErr != nil {
		return nil, p.TaskErr
	}
	return p.Task, nil
}
