package notify

import "time"

// Outage sends one remote_unreachable once polls have failed for After
// (poll.max_backoff), and one remote_back when the remote answers again.
type Outage struct {
	D       *Dispatcher
	Watcher string // "rx watch", "tx watch"
	After   time.Duration

	since time.Time
	sent  bool
}

func (o *Outage) Failed(now time.Time, err error) {
	if o.since.IsZero() {
		o.since = now
	}
	if !o.sent && now.Sub(o.since) >= o.After {
		o.sent = true
		o.D.Notify(remoteUnreachable(o.Watcher, now.Sub(o.since), err.Error()))
	}
}

func (o *Outage) OK() {
	if o.sent {
		o.D.Notify(remoteBack(o.Watcher))
	}
	o.since, o.sent = time.Time{}, false
}
