package config

import (
	"fmt"
	"net"
	"net/url"
	"slices"
	"strings"
	"time"

	"rfhandoff/errlist"
)

// Notify is [notify] (PROTOCOL#notifications); nothing configured sends nothing.
type Notify struct {
	NtfyURL           string   `toml:"ntfy_url"`
	NtfyTokenFile     string   `toml:"ntfy_token_file"`
	WebhookURL        string   `toml:"webhook_url"`
	WebhookSecretFile string   `toml:"webhook_secret_file"`
	Command           []string `toml:"command"`
	Events            []string `toml:"events"`
	Timeout           Duration `toml:"timeout"`
	AllowHTTPHosts    []string `toml:"allow_http_hosts"`
}

// The notification events (PROTOCOL#notifications).
const (
	EventApprovalNeeded      = "approval_needed"
	EventAuthorizationNeeded = "authorization_needed"
	EventCaptureStarted      = "capture_started"
	EventCaptureComplete     = "capture_complete"
	EventCaptureFailed       = "capture_failed"
	EventTXExecuted          = "tx_executed"
	EventRemoteUnreachable   = "remote_unreachable"
	EventRemoteBack          = "remote_back"
	EventWatcherStopped      = "watcher_stopped"
)

var NotifyEvents = []string{
	EventApprovalNeeded, EventAuthorizationNeeded, EventCaptureStarted,
	EventCaptureComplete, EventCaptureFailed, EventTXExecuted,
	EventRemoteUnreachable, EventRemoteBack, EventWatcherStopped,
}

// NotifyArgPlaceholders may each be a whole [notify] command argument:
// words rfhandoff names or the TASK_ID (PROTOCOL#notifications), never text
// a program could run as code.
var NotifyArgPlaceholders = []string{"{event}", "{role}", "{task_id}", "{risk_level}"}

// notifyTextPlaceholders are the task's text: never an argument, only on
// standard input and in the environment.
var notifyTextPlaceholders = []string{"{title}", "{message}"}

const (
	defaultNotifyTimeout = 5 * time.Second
	maxNotifyTimeout     = 30 * time.Second
	maxNotifySecretBytes = 4096
)

// NotifyEnabled: some receiver is configured and the event is in notify.events.
func (p Policy) NotifyEnabled(event string) bool {
	n := p.Notify
	return (n.NtfyURL != "" || n.WebhookURL != "" || len(n.Command) > 0) && slices.Contains(n.Events, event)
}

// The [notify] files made absolute, or "".
func (p Policy) ntfyTokenPath() string     { return p.Resolve(p.Notify.NtfyTokenFile) }
func (p Policy) WebhookSecretPath() string { return p.Resolve(p.Notify.WebhookSecretFile) }

func (p Policy) validateNotify(ps *problems) {
	n := p.Notify
	ps.check("notify.ntfy_url", n.NtfyURL, checkNotifyURL(n.NtfyURL, n.AllowHTTPHosts))
	ps.check("notify.webhook_url", n.WebhookURL, checkNotifyURL(n.WebhookURL, n.AllowHTTPHosts))
	for _, f := range []struct{ key, v, needs, needsKey string }{
		{"notify.ntfy_token_file", n.NtfyTokenFile, n.NtfyURL, "notify.ntfy_url"},
		{"notify.webhook_secret_file", n.WebhookSecretFile, n.WebhookURL, "notify.webhook_url"},
	} {
		if f.v == "" {
			continue
		}
		ps.check(f.key, f.v, checkLocalPath(f.v))
		if f.needs == "" {
			ps.add(f.key, f.v, "is used only with %s, which is not set", f.needsKey)
		}
	}
	for _, h := range n.AllowHTTPHosts {
		if h == "" || strings.ContainsAny(h, "/@:[] ") || checkText(h) != nil {
			ps.add("notify.allow_http_hosts", h, "must be a plain host name or IPv4 address, without scheme, port or path")
		}
	}
	if len(n.Command) > 0 {
		checkNotifyCommand(ps, n.Command)
	}
	seen := map[string]bool{}
	for _, e := range n.Events {
		switch {
		case !slices.Contains(NotifyEvents, e):
			ps.add("notify.events", e, "is not an event (one of %s)", strings.Join(NotifyEvents, ", "))
		case seen[e]:
			ps.add("notify.events", e, "is listed twice")
		}
		seen[e] = true
	}
	if t := n.Timeout.Duration; t <= 0 || t > maxNotifyTimeout {
		ps.add("notify.timeout", n.Timeout, "must be positive and at most %s", maxNotifyTimeout)
	}
}

// checkNotifyURL accepts https, or http to loopback or allow_http_hosts (a
// lab's own ntfy on the LAN). Credentials belong in the token file.
func checkNotifyURL(raw string, allowHTTP []string) error {
	if raw == "" {
		return nil
	}
	if err := checkText(raw); err != nil {
		return err
	}
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("is not a URL")
	}
	if u.User != nil {
		return fmt.Errorf("must not hold credentials (put a token in notify.ntfy_token_file)")
	}
	if u.Host == "" || u.Opaque != "" {
		return fmt.Errorf("must be an absolute http(s) URL with a host")
	}
	if u.Fragment != "" || u.RawQuery != "" {
		return fmt.Errorf("must not have a query or fragment")
	}
	switch u.Scheme {
	case "https":
		return nil
	case "http":
		host := u.Hostname()
		if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() || host == "localhost" {
			return nil
		}
		if slices.ContainsFunc(allowHTTP, func(h string) bool { return strings.EqualFold(h, host) }) {
			return nil
		}
		return fmt.Errorf("http is allowed only to a loopback address or a host in notify.allow_http_hosts (%s is neither); use https", host)
	default:
		return fmt.Errorf("scheme must be https (or http to loopback or notify.allow_http_hosts)")
	}
}

// checkNotifyCommand: the task's text is refused anywhere, as an argv is
// code to sh -c, awk, find -exec, ..., a list never complete.
func checkNotifyCommand(ps *problems, argv []string) {
	if argv[0] == "" {
		ps.add("notify.command", argv, "must name a program first, e.g. [\"/usr/local/bin/rfhandoff-notify\", \"{event}\"]")
		return
	}
	for i, a := range argv {
		key := fmt.Sprintf("notify.command[%d]", i)
		if err := checkText(a); err != nil {
			ps.add(key, a, "%v", err)
			continue
		}
		for _, ph := range notifyTextPlaceholders {
			if strings.Contains(a, ph) {
				ps.add(key, a, "%s is never an argument: a program may run its arguments as code, so task text "+
					"goes to the program on its standard input (the message as JSON) and in RFHANDOFF_TITLE and "+
					"RFHANDOFF_MESSAGE; arguments may be only %s", ph, strings.Join(NotifyArgPlaceholders, ", "))
			}
		}
		switch {
		case i == 0 && slices.Contains(NotifyArgPlaceholders, a):
			ps.add("notify.command", a, "the program must not be a placeholder")
		case !slices.Contains(NotifyArgPlaceholders, a) && strings.ContainsAny(a, "{}"):
			for _, ph := range NotifyArgPlaceholders {
				if strings.Contains(a, ph) {
					ps.add(key, a, "a placeholder must be a whole argument (%s alone)", ph)
				}
			}
		}
	}
}

// ReadNotifySecrets reads the [notify] token and secret files ("" when
// unset). Errors name the key and the file, never the content.
func (p Policy) ReadNotifySecrets() (token, secret string, err error) {
	var ps problems
	read := func(key, v string) (s string) {
		p.readKeyFile(&ps, key, v, maxNotifySecretBytes, func(data []byte) error {
			line := strings.TrimSpace(string(data))
			if line == "" {
				return fmt.Errorf("is empty")
			}
			if strings.ContainsAny(line, "\r\n") || checkText(line) != nil {
				return fmt.Errorf("must hold one line of printable text")
			}
			s = line
			return nil
		})
		return s
	}
	token = read("notify.ntfy_token_file", p.Notify.NtfyTokenFile)
	secret = read("notify.webhook_secret_file", p.Notify.WebhookSecretFile)
	return token, secret, errlist.List(ps...)
}

func (p Policy) NotifyProgram() string {
	if len(p.Notify.Command) == 0 {
		return ""
	}
	return p.Notify.Command[0]
}
