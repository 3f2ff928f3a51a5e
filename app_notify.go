package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"rfhandoff/exec"
	"rfhandoff/notify"
)

// Notifier is the side's notification dispatcher (PROTOCOL#notifications),
// built once; nil (which sends nothing) when [notify] names no receiver.
func (a *App) Notifier(side notify.Side) (*notify.Dispatcher, error) {
	a.mu.Lock()
	d := a.notifier
	a.mu.Unlock()
	if d != nil {
		return d, nil
	}
	n := a.Policy.Notify
	if n.NtfyURL == "" && n.WebhookURL == "" && len(n.Command) == 0 {
		return nil, nil
	}
	token, secret, err := a.Policy.ReadNotifySecrets()
	if err != nil {
		return nil, err
	}
	var runner exec.Runner
	if len(n.Command) > 0 {
		s, err := a.Stack(exec.RoleNotify)
		if err != nil {
			return nil, err
		}
		if err := s.Missing()[exec.Notify]; err != nil {
			return nil, fmt.Errorf("notify.command = %q: %w", n.Command[0], err)
		}
		runner = s
	}
	log, err := a.AuditLog()
	if err != nil {
		return nil, err
	}
	d, err = notify.New(notify.Options{
		Policy: a.Policy, Side: side, Node: nodeName(), Runner: runner,
		Audit: log, Logger: a.Logger, Token: token, Secret: secret,
	})
	if err != nil {
		return nil, err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.notifier == nil {
		a.notifier = d
	}
	return a.notifier, nil
}

// closeNotifier delivers what is queued, within a bound.
func (a *App) closeNotifier() {
	a.mu.Lock()
	d := a.notifier
	a.mu.Unlock()
	if d == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*a.Policy.Notify.Timeout.Duration+time.Second)
	defer cancel()
	d.Close(ctx)
}

func nodeName() string {
	if h, err := os.Hostname(); err == nil && h != "" {
		return h
	}
	return "unknown"
}
