package notify

import (
	"fmt"
	"strings"
	"time"

	"rfhandoff/config"
	"rfhandoff/exec"
	"rfhandoff/hiddentext"
)

// Event is one thing a person may want to know. Name is one of
// config.NotifyEvents; Title is the raw task title (sanitized when
// rendered); Detail is rfhandoff's own one-line account of the event
// (sanitized and scrubbed of URL credentials too, since it may quote an
// error). Role, Node and Time are filled by the Dispatcher when empty.
type Event struct {
	Name      string
	Role      string
	Node      string
	TaskID    string
	Title     string
	RiskLevel string
	Time      time.Time
	Detail    string
}

// Message is an event as the receivers send it.
type Message struct {
	Event     string `json:"event"`
	Role      string `json:"role"`
	Node      string `json:"node"`
	TaskID    string `json:"task_id"`
	Title     string `json:"title"`
	RiskLevel string `json:"risk_level"`
	Time      string `json:"time"`
	Text      string `json:"message"`
	// Headline is ntfy's Title header; Priority (1–5) and Tags its others.
	Headline string `json:"-"`
	Priority int    `json:"-"`
	Tags     string `json:"-"`
}

// maxDetail bounds the quoted part of a message (an error can be long).
const maxDetail = 300

// render builds the message for ev. Every field that comes from a task or
// an error goes through the one sanitizer of §16 (so a title's hidden
// characters arrive escaped), and secrets (a token, a webhook secret) and
// URL credentials are replaced before anything leaves.
func render(ev Event, secrets ...string) Message {
	clean := func(s string) string {
		return hiddentext.SanitizeLine(exec.Redact([]string{s}, secrets)[0])
	}
	m := Message{
		Event: ev.Name, Role: clean(ev.Role), Node: clean(ev.Node),
		TaskID: clean(ev.TaskID), Title: clean(ev.Title), RiskLevel: clean(ev.RiskLevel),
		Time: ev.Time.UTC().Format(time.RFC3339),
	}
	detail := clean(ev.Detail)
	if len(detail) > maxDetail {
		detail = detail[:maxDetail] + "..."
	}
	var b strings.Builder
	fmt.Fprintf(&b, "rfhandoff %s: %s on %s", m.Event, m.Role, m.Node)
	if m.TaskID != "" {
		fmt.Fprintf(&b, ", task %s", m.TaskID)
		if m.Title != "" {
			fmt.Fprintf(&b, " %q", m.Title)
		}
		if m.RiskLevel != "" {
			fmt.Fprintf(&b, " (%s)", m.RiskLevel)
		}
	}
	fmt.Fprintf(&b, " at %s", m.Time)
	if detail != "" {
		b.WriteString(": " + detail)
	}
	m.Text = b.String()
	m.Headline = "rfhandoff: " + strings.ReplaceAll(m.Event, "_", " ")
	if m.TaskID != "" {
		m.Headline += " " + m.TaskID
	}
	m.Priority = priority(ev.Name)
	m.Tags = "rfhandoff," + m.Event
	return m
}

// priority is ntfy's: 5 for the phrase (its window is seconds), 4 for
// what else waits for a person or went wrong, 3 for the rest.
func priority(event string) int {
	switch event {
	case config.EventAuthorizationNeeded:
		return 5
	case config.EventApprovalNeeded, config.EventCaptureFailed, config.EventRemoteUnreachable:
		return 4
	}
	return 3
}

// argv substitutes the placeholders of a [notify] command, each only where
// it is a whole argument (config refuses one spliced into a longer one).
func argv(command []string, m Message) []string {
	out := make([]string, len(command))
	for i, a := range command {
		switch a {
		case "{event}":
			a = m.Event
		case "{task_id}":
			a = m.TaskID
		case "{title}":
			a = m.Title
		case "{message}":
			a = m.Text
		}
		out[i] = a
	}
	return out
}
