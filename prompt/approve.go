package prompt

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"

	"rfhandoff/hiddentext"
)

// Task is what the approval prompt shows, every field sanitized before it reaches the terminal.
type Task struct {
	ID             string
	Title          string
	DeclaredLevel  string
	DerivedLevel   string
	EffectiveLevel string
	Body           string
	Signer         string   // "principal SHA256:...", when a signature was required
	Capture        []string // the effective capture, one line per fact, shown just above the menu
	Watcher        bool     // rx watch's prompt: only there does [S] stop a watcher
}

type Choice int

const (
	ChoiceNone    Choice = iota // no decision (returned with an error)
	ChoiceApprove               // [A]
	ChoiceDefer                 // [D]
	ChoiceStop                  // [S], or end of input
)

var choiceNames = map[Choice]string{ChoiceApprove: "approve", ChoiceDefer: "defer", ChoiceStop: "stop"}

func (c Choice) String() string { return cmp.Or(choiceNames[c], "none") }

// Menu is how the approval question starts at rx watch and rx approve alike
// (PROTOCOL#task-file); [S] stops a watcher only where one runs.
const Menu = "[A] Approve  [D] Defer  [S] Stop"

const (
	WatcherMenu = Menu + " watcher"            // rx watch
	OneShotMenu = Menu + " (nothing approved)" // rx approve
)

func menu(watcher bool) string {
	if watcher {
		return WatcherMenu
	}
	return OneShotMenu
}

// MaxMenuAttempts is how many unrecognised answers the menu takes before it defers the task.
const MaxMenuAttempts = 5

// Approve shows the task and asks [A]/[D]/[S] until it gets exactly A, D or S. End of input
// is ChoiceStop. After MaxMenuAttempts unrecognised answers it returns ChoiceDefer: nothing
// approved, and the watcher does not stop because of a slip of the keyboard.
func (t *Terminal) Approve(ctx context.Context, task Task) (Choice, error) {
	end, err := t.begin()
	if err != nil {
		return ChoiceNone, err
	}
	defer end()

	if err := t.say("%s", renderTask(task)); err != nil {
		return ChoiceNone, err
	}
	t.bell()
	for attempt := 1; ; attempt++ {
		if err := t.discardTypeAhead(); err != nil {
			return ChoiceNone, err
		}
		if err := t.say("%s\n> ", menu(task.Watcher)); err != nil {
			return ChoiceNone, err
		}
		line, err := t.readLine(ctx, noDeadline)
		if errors.Is(err, errNoLine) {
			return ChoiceStop, t.say("\nEnd of input: stopping, nothing approved.\n")
		}
		if err != nil {
			_ = t.say("\nCancelled: nothing approved.\n")
			return ChoiceNone, err
		}
		if c, ok := parseChoice(line); ok {
			return c, nil
		}
		if attempt == MaxMenuAttempts {
			return ChoiceDefer, t.say("No valid answer after %d tries: task deferred, nothing approved.\n", attempt)
		}
		if err := t.say("Type exactly A, D or S (capital letter), then Enter.\n"); err != nil {
			return ChoiceNone, err
		}
	}
}

func parseChoice(line []byte) (Choice, bool) {
	answer, ok := parseLine(line)
	if !ok {
		return ChoiceNone, false
	}
	switch answer {
	case "A":
		return ChoiceApprove, true
	case "D":
		return ChoiceDefer, true
	case "S":
		return ChoiceStop, true
	}
	return ChoiceNone, false
}

// renderTask is the task as the operator sees it: the body in hiddentext.Sanitize's
// rendering, as in TASK.md, so what is approved is exactly what an agent will read.
func renderTask(t Task) string {
	var b strings.Builder
	b.WriteString("\n=== Task awaiting approval ===\n")
	b.WriteString("TASK_ID: " + hiddentext.SanitizeLine(t.ID) + "\n")
	b.WriteString("Title:   " + hiddentext.SanitizeLine(t.Title) + "\n")
	b.WriteString("Level:   " + hiddentext.SanitizeLine(t.EffectiveLevel) +
		" (declared " + hiddentext.SanitizeLine(t.DeclaredLevel) +
		", derived " + hiddentext.SanitizeLine(t.DerivedLevel) + ")\n")
	if t.Signer != "" {
		b.WriteString("Signed:  " + hiddentext.SanitizeLine(t.Signer) + " (good signature, listed in trust.task_signers)\n")
	}
	if n := len(hiddentext.Escapes(t.Body)); n > 0 {
		fmt.Fprintf(&b, "Note:    the body holds %d character%s a terminal does not show, written below as <U+XXXX> "+
			"(bytes that are not UTF-8 as <0xNN>); the prepared TASK.md holds the same text.\n", n, plural(n))
	}
	b.WriteString("--- task body (hidden and control characters shown as <U+XXXX>) ---\n")
	body := hiddentext.Sanitize(t.Body)
	b.WriteString(body)
	if body != "" && !strings.HasSuffix(body, "\n") {
		b.WriteString("\n")
	}
	b.WriteString("--- end of task body ---\n")
	if len(t.Capture) > 0 {
		b.WriteString("--- what [A] approves to run on this node (its policy) ---\n")
		for _, l := range t.Capture {
			b.WriteString(hiddentext.SanitizeLine(l) + "\n")
		}
		b.WriteString("--- end of capture ---\n")
	}
	return b.String()
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
