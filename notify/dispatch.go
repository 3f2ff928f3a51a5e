package notify

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"net/url"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"rfhandoff/config"
	"rfhandoff/exec"
	"rfhandoff/hiddentext"
)

// Side is a message's role field: a label that permits nothing (what a
// runner may start is its exec.Role).
type Side string

const (
	SideRX   Side = "rx"
	SideMain Side = "main"
)

type Options struct {
	Policy        config.Policy
	Side          Side
	Node          string         // the machine's name
	Runner        exec.Runner    // an exec.RoleNotify Stack that can start nothing else, or nil
	Audit         *exec.AuditLog // one line per HTTP delivery
	Logger        *slog.Logger
	Token, Secret string // the contents of ntfy_token_file and webhook_secret_file
	Now           func() time.Time
	Backoff       time.Duration // the first pause between attempts (default 250ms, doubling)
}

const (
	queueLength = 32 // events beyond it are dropped and counted, never waited for
	maxAttempts = 3
)

// Dispatcher delivers events to every receiver, each from its own bounded
// queue and goroutine: Notify never blocks.
type Dispatcher struct {
	o       Options
	secrets []string // Token and Secret, when set: scrubbed from all that leaves
	workers []*worker
	closed  bool
	mu      sync.Mutex
}

type worker struct {
	r    receiver
	q    chan Event
	done chan struct{}
	d    *Dispatcher

	mu      sync.Mutex
	failing bool // reported; later failures are only counted
	failed  int
	dropped atomic.Int64
	auditOK bool
}

// New starts a worker for each receiver; with none it sends nothing.
func New(o Options) (*Dispatcher, error) {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Backoff <= 0 {
		o.Backoff = 250 * time.Millisecond
	}
	o.Logger = cmp.Or(o.Logger, slog.New(slog.DiscardHandler))
	n := o.Policy.Notify
	d := &Dispatcher{o: o, secrets: slices.DeleteFunc([]string{o.Token, o.Secret}, func(s string) bool { return s == "" })}
	var rs []receiver
	if n.NtfyURL != "" {
		rs = append(rs, ntfy(n.NtfyURL, o.Token))
	}
	if n.WebhookURL != "" {
		rs = append(rs, webhook(n.WebhookURL, o.Secret))
	}
	if len(n.Command) > 0 {
		if o.Runner == nil {
			return nil, fmt.Errorf("notify.command is set but no runner resolves it")
		}
		rs = append(rs, d.command())
	}
	for _, r := range rs {
		w := &worker{r: r, q: make(chan Event, queueLength), done: make(chan struct{}), d: d, auditOK: true}
		d.workers = append(d.workers, w)
		go func() {
			defer close(w.done)
			for ev := range w.q {
				w.deliver(ev)
			}
		}()
	}
	return d, nil
}

func hostOf(raw string) string {
	if u, err := url.Parse(raw); err == nil {
		return u.Host
	}
	return ""
}

// Notify queues ev for every receiver when the policy sends that event,
// never blocking: a full queue drops and counts it. Safe on nil.
func (d *Dispatcher) Notify(ev Event) {
	if d == nil || !d.o.Policy.NotifyEnabled(ev.Name) {
		return
	}
	ev.Role = cmp.Or(ev.Role, string(d.o.Side))
	ev.Node = cmp.Or(ev.Node, d.o.Node)
	if ev.Time.IsZero() {
		ev.Time = d.o.Now()
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return
	}
	for _, w := range d.workers {
		select {
		case w.q <- ev:
		default:
			if w.dropped.Add(1) == 1 {
				d.o.Logger.Warn("notify: queue full, event dropped (further drops are counted)", "receiver", w.name(), "event", ev.Name)
			}
		}
	}
}

// Close waits until the queued events are delivered or ctx ends, then
// says what failed or was dropped. Safe on nil.
func (d *Dispatcher) Close(ctx context.Context) {
	if d == nil {
		return
	}
	d.mu.Lock()
	if !d.closed {
		d.closed = true
		for _, w := range d.workers {
			close(w.q)
		}
	}
	d.mu.Unlock()
	for _, w := range d.workers {
		select {
		case <-w.done:
		case <-ctx.Done():
			d.o.Logger.Warn("notify: gave up waiting for deliveries", "receiver", w.name())
			return
		}
		w.mu.Lock()
		failed, dropped := w.failed, w.dropped.Load()
		w.mu.Unlock()
		if failed > 0 || dropped > 0 {
			d.o.Logger.Warn("notify: undelivered events", "receiver", w.name(), "failed", failed, "dropped", dropped)
		}
	}
}

func (w *worker) name() string {
	if w.r.host != "" {
		return w.r.kind + " at " + w.r.host
	}
	return w.r.kind
}

func (w *worker) deliver(ev Event) {
	o := w.d.o
	timeout := o.Policy.Notify.Timeout.Duration
	m := render(ev, w.d.secrets...)
	begin := o.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 2*timeout)
	defer cancel()
	var status string
	var err error
	attempts := 0
	for pause := o.Backoff; ; pause *= 2 {
		attempts++
		actx, acancel := context.WithTimeout(ctx, timeout)
		var retry bool
		status, retry, err = w.r.send(actx, m)
		acancel()
		if err == nil || !retry || attempts == maxAttempts {
			break
		}
		select {
		case <-time.After(pause):
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
	}
	errText := ""
	if err != nil {
		errText = exec.Redact([]string{err.Error()}, w.d.secrets)[0]
		status = cmp.Or(status, "failed")
	}
	// A command's run is already audited by the runner.
	if w.r.kind != "command" && o.Audit != nil {
		d := exec.Delivery{Side: string(o.Side), Notification: ev.Name, Receiver: w.r.kind, Host: w.r.host,
			Status: status, Attempts: attempts, Duration: o.Now().Sub(begin), Error: errText}
		if aerr := o.Audit.RecordDelivery(d); aerr != nil && w.auditOK {
			w.auditOK = false
			o.Logger.Warn("notify: cannot write the delivery to the audit log", "error", aerr)
		}
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	// A receiver's answer is escaped before it reaches the log's reader,
	// whatever the log format.
	if err != nil {
		w.failed++
		if !w.failing {
			w.failing = true
			o.Logger.Warn("notify: delivery failed (further failures are counted, not reported)",
				"receiver", w.name(), "event", ev.Name, "attempts", attempts,
				"error", hiddentext.SanitizeLine(errText))
		}
		return
	}
	if w.failing {
		w.failing = false
		o.Logger.Info("notify: delivering again", "receiver", w.name(), "failed_before", w.failed)
	}
	o.Logger.Debug("notify: delivered", "receiver", w.name(), "event", ev.Name, "status", hiddentext.SanitizeLine(status))
}
