package notify

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf16"

	"rfhandoff/config"
	"rfhandoff/exec"
	"rfhandoff/hiddentext"
)

// Event is one thing a person may want to know. Title and Detail are raw:
// render sanitizes them and scrubs URL credentials, as Detail may quote an
// error. The Dispatcher fills an empty Role, Node and Time.
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

type Message struct {
	Event     string `json:"event"`
	Role      string `json:"role"`
	Node      string `json:"node"`
	TaskID    string `json:"task_id"`
	Title     string `json:"title"`
	RiskLevel string `json:"risk_level"`
	Time      string `json:"time"`
	Text      string `json:"message"`
	Headline  string `json:"-"` // ntfy's Title
	Priority  int    `json:"-"`
	Tags      string `json:"-"`
}

// maxDetail bounds the quoted part of a message (an error can be long).
const maxDetail = 300

// render passes every field through the one sanitizer of
// PROTOCOL#hidden-text and replaces secrets and URL credentials.
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

// priority: 5 for the phrase, whose window is seconds.
func priority(event string) int {
	switch event {
	case config.EventAuthorizationNeeded:
		return 5
	case config.EventApprovalNeeded, config.EventCaptureFailed, config.EventRemoteUnreachable:
		return 4
	}
	return 3
}

// argv substitutes whole-argument placeholders. With words set, each value
// must be a closedWord: the argv never carries text a program could run as
// code (PROTOCOL#notifications). Preview's role "<rx|main>" is no word.
func argv(command []string, m Message, words bool) ([]string, error) {
	values := map[string]string{"{event}": m.Event, "{role}": m.Role, "{task_id}": m.TaskID, "{risk_level}": m.RiskLevel}
	out := slices.Clone(command)
	for i, a := range command {
		if v, ok := values[a]; ok {
			if words && !closedWord(v) {
				return nil, fmt.Errorf("%s would be %q, not a word of letters, digits and '_': not run", a, v)
			}
			out[i] = v
		}
	}
	return out, nil
}

// closedWord: every event, side and risk level name and valid TASK_ID is
// one, and "" for an event about no task.
func closedWord(s string) bool {
	return len(s) <= 64 && !strings.ContainsFunc(s, func(r rune) bool { return !alnum(r) && r != '_' })
}

func alnum(r rune) bool {
	return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
}

func (m Message) fields() [][2]string {
	return [][2]string{{"event", m.Event}, {"role", m.Role}, {"node", m.Node}, {"task_id", m.TaskID},
		{"title", m.Title}, {"risk_level", m.RiskLevel}, {"time", m.Time}, {"message", m.Text}}
}

// environ is the message as the command's environment (PROTOCOL#notifications).
// No program runs a variable by itself; a script must not evaluate one
// (eval, or %VAR% in a Windows batch file, which cmd.exe parses).
func environ(m Message) []string {
	var env []string
	for _, f := range m.fields() {
		env = append(env, "RFHANDOFF_"+strings.ToUpper(f[0])+"="+f[1])
	}
	return env
}

// inertJSON is the command's standard input: the webhook's JSON on one
// line, every value character but ASCII letters and digits \u-escaped. A
// shell or interpreter that runs its input (a receiver named without a
// script) finds no quote, '$', '`' or space of the task's to act on.
func inertJSON(m Message) []byte {
	b := bytes.NewBufferString("{")
	for i, f := range m.fields() {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(b, "%q:\"", f[0])
		for _, u := range utf16.Encode([]rune(f[1])) {
			if alnum(rune(u)) {
				b.WriteByte(byte(u))
			} else {
				fmt.Fprintf(b, "\\u%04x", u)
			}
		}
		b.WriteByte('"')
	}
	b.WriteString("}\n")
	return b.Bytes()
}
