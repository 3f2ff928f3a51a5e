package notify

import "time"

// Outage turns a watcher's failed and successful polls into one
// remote_unreachable, once the remote has failed for After (the policy's
// poll.max_backoff), and one remote_back when it answers again. The zero
// value with a nil Dispatcher sends nothing.
type Outage struct {
	D       *Dispatcher
	Watcher string // "rx watch", "tx watch"
	After   time.Duration

	since time.Time
	sent  bool
}

// Failed records a failed poll at now.
func (o *Outage) Failed(now time.Time, err error) {
	if o.since.IsZero() {
		o.since = now
	}
	if !o.sent && now.Sub(o.since) >= o.After {
		o.sent = true
		o.D.Notify(remoteUnreachable(o.Watcher, now.Sub(o.since), err.Error()))
	}
}

// OK records a successful poll.
func (o *Outage) OK() {
	if o.sent {
		o.D.Notify(remoteBack(o.Watcher))
	}
	o.since, o.sent = time.Time{}, false
}
