package exec

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Notify is the operator's notification command ([notify] command,
// PROTOCOL#notifications), run with an argv array, never through a shell.
const Notify Tool = "notify"

// notReceivers are the tools rfhandoff runs under their own names: a
// notification must not fetch, push, sign or transmit through another
// door. No shells are listed: no task text is ever an argument.
var notReceivers = map[string]bool{
	"git": true, "hackrf_transfer": true, "hackrf_info": true, "hackrf_clock": true,
	"ssh-keygen": true, "ssh": true,
}

// ResolveNotify resolves a notification program (absolute, or a bare name on
// PATH), refusing one of tools or notReceivers, by name, link or file.
func ResolveNotify(program string, tools map[Tool]string, environ []string) (string, error) {
	if program == "" {
		return "", fmt.Errorf("the command has no program")
	}
	if !filepath.IsAbs(program) && strings.ContainsAny(program, `/\`) {
		return "", fmt.Errorf("program %q must be a bare name (looked up on PATH) or an absolute path", program)
	}
	var pinned string
	if filepath.IsAbs(program) {
		pinned = filepath.Clean(program)
	}
	path, err := resolve(Tool(program), pinned, environ)
	if err != nil {
		return "", err
	}
	names := []string{path}
	if target, err := filepath.EvalSymlinks(path); err == nil {
		names = append(names, target)
	}
	for _, n := range names {
		if base := programName(n); notReceivers[base] {
			return "", fmt.Errorf("program %s is %s, which a notification may never run", path, base)
		}
	}
	st, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	for t, p := range tools {
		if ts, err := os.Stat(p); err == nil && os.SameFile(st, ts) {
			return "", fmt.Errorf("program %s is the same file as %s (%s), which a notification may never run", path, t, p)
		}
	}
	return path, nil
}

// programName: the base name, lower case, without .exe or .com.
func programName(path string) string {
	base := strings.ToLower(filepath.Base(path))
	for _, ext := range []string{".exe", ".com"} {
		base = strings.TrimSuffix(base, ext)
	}
	return base
}

// EventDelivery is the audit line of a notification sent over HTTP.
const EventDelivery = "delivery"

// Delivery is what the audit log keeps of one: never its body, a token, a
// secret or a URL's credentials.
type Delivery struct {
	Side         string // the side the message names: "rx" or "main" (notify.Side)
	Notification string // the event, e.g. "approval_needed"
	Receiver     string // "ntfy", "webhook"
	Host         string // the destination host (and port)
	Status       string // "200 OK", or "failed"
	Attempts     int
	Duration     time.Duration
	Error        string
}

func (l *AuditLog) RecordDelivery(d Delivery) error {
	ms := d.Duration.Milliseconds()
	_, err := l.Append(Entry{
		Event: EventDelivery, ID: newID(), Role: d.Side,
		Notification: d.Notification, Receiver: d.Receiver,
		Host: redactString(d.Host, nil), Status: d.Status, Attempts: d.Attempts,
		DurationMS: &ms, Error: redactString(d.Error, nil),
	})
	return err
}

// resolveNotify adds the notification program to the resolved tools.
func (s *Stack) resolveNotify(program string) {
	if program == "" {
		return
	}
	tools := maps.Clone(s.paths)
	if s.keygen != "" {
		tools[SSHKeygen] = s.keygen
	}
	p, err := ResolveNotify(program, tools, s.os.environ)
	if err != nil {
		s.missing[Notify] = err
		return
	}
	s.paths[Notify] = p
}
