package demo

import (
	"fmt"
	"io"
	"regexp"
	"strings"
	"sync"
)

// sink is the demo's standard output, shared by the narration and the
// children's prefixed output: whole lines only, so they never interleave
// mid-line.
type sink struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *sink) printf(format string, args ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	fmt.Fprintf(s.w, format, args...)
}

func (s *sink) line(prefix, text string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	fmt.Fprintf(s.w, "%s%s\n", prefix, text)
}

// Terminal control the children print: the countdown's in-place block
// (save cursor … restore cursor) is dropped whole, any other escape
// sequence is removed, so the prefixed lines read as plain text.
var (
	savedBlock = regexp.MustCompile("\x1b7[^\x1b]*(?:\x1b\\[[0-9;?]*[ -/]*[@-~][^\x1b]*)*\x1b8")
	csiSeq     = regexp.MustCompile("\x1b\\[[0-9;?]*[ -/]*[@-~]")
	otherEsc   = regexp.MustCompile("\x1b[@-Z\\\\-_78]?")
)

// plain turns one line of terminal output into plain text.
func plain(b []byte) string {
	s := strings.ReplaceAll(string(b), "\r", "")
	// The bell the watchers ring before a question (PROTOCOL#notifications) is heard,
	// not read.
	s = strings.ReplaceAll(s, "\a", "")
	s = savedBlock.ReplaceAllString(s, "")
	s = csiSeq.ReplaceAllString(s, "")
	s = otherEsc.ReplaceAllString(s, "")
	return s
}

// lineSplitter feeds a child's output to the sink line by line.
type lineSplitter struct {
	out    *sink
	prefix string
	buf    []byte
}

func (l *lineSplitter) Write(p []byte) (int, error) {
	l.buf = append(l.buf, p...)
	for {
		i := strings.IndexByte(string(l.buf), '\n')
		if i < 0 {
			break
		}
		l.out.line(l.prefix, plain(l.buf[:i]))
		l.buf = l.buf[i+1:]
	}
	return len(p), nil
}

// flush prints a last line that had no newline.
func (l *lineSplitter) flush() {
	if len(l.buf) > 0 {
		l.out.line(l.prefix, plain(l.buf))
		l.buf = nil
	}
}

// teeLines passes output through unchanged and hands each line, as plain
// text, to onLine.
type teeLines struct {
	w      io.Writer
	onLine func(string)
	buf    []byte
}

func (t *teeLines) Write(p []byte) (int, error) {
	_, _ = t.w.Write(p)
	t.buf = append(t.buf, p...)
	for {
		i := strings.IndexByte(string(t.buf), '\n')
		if i < 0 {
			break
		}
		t.onLine(plain(t.buf[:i]))
		t.buf = t.buf[i+1:]
	}
	return len(p), nil
}

func (t *teeLines) flush() {
	if len(t.buf) > 0 {
		t.onLine(plain(t.buf))
		t.buf = nil
	}
}

// Answer is one prompt --auto expects and what it types there.
type Answer struct {
	// Prompt is a whole line the question shows before its input line
	// (the approval menu, or "Type exactly: <phrase>").
	Prompt string
	// Reply is the line typed once the input line ("> ") is shown.
	Reply string
}

// inputLine is what the prompt package shows where the answer goes.
const inputLine = "> "

// questionMarkers identify a question on the child's terminal.
var questionMarkers = []string{"[A] Approve", "Type exactly: "}

// autoOperator plays the person at a child's pseudo-terminal: it prints
// what the child shows (prefixed) and types each expected answer after
// its question appeared, like a person reading the screen would.
type autoOperator struct {
	side    string
	out     *sink
	prefix  string
	term    io.Writer // the pty master: what is written here is typed
	answers []Answer
	onLine  func(string) // optional: every line shown, plain

	mu       sync.Mutex
	partial  []byte          // the current line, not yet ended
	seen     strings.Builder // plain text since the last answer
	typed    []string        // replies typed, in order
	echoWant string          // the echo of the last reply, to mark it
	err      error
}

func (a *autoOperator) Write(p []byte) (int, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.partial = append(a.partial, p...)
	for {
		i := strings.IndexByte(string(a.partial), '\n')
		if i < 0 {
			break
		}
		text := plain(a.partial[:i])
		a.partial = a.partial[i+1:]
		a.show(text)
		a.seen.WriteString(text + "\n")
		if a.onLine != nil {
			a.onLine(text)
		}
	}
	a.maybeAnswer()
	return len(p), nil
}

func (a *autoOperator) show(text string) {
	if a.echoWant != "" && text == a.echoWant {
		a.echoWant = ""
		a.out.line(a.prefix, text+"      <- typed by demo --auto")
		return
	}
	a.out.line(a.prefix, text)
}

// maybeAnswer types the next reply when the input line of its question is
// showing. Input typed before a question is shown is discarded by the
// prompt, so answering only at the input line is both what a person does
// and the only thing that works.
func (a *autoOperator) maybeAnswer() {
	if a.err != nil || plain(a.partial) != inputLine {
		return
	}
	seen := a.seen.String()
	if len(a.answers) > 0 && hasLine(seen, a.answers[0].Prompt) {
		next := a.answers[0]
		a.answers = a.answers[1:]
		a.seen.Reset()
		a.typed = append(a.typed, next.Reply)
		a.echoWant = inputLine + next.Reply
		if _, err := io.WriteString(a.term, next.Reply+"\n"); err != nil {
			a.err = fmt.Errorf("typing on %s's terminal: %w", a.side, err)
		}
		return
	}
	for _, m := range questionMarkers {
		if i := strings.LastIndex(seen, m); i >= 0 {
			q := strings.TrimSpace(seen[i:])
			// Never answered: the step fails.
			a.err = fmt.Errorf("%s asked a question the demo does not answer on its own: %q", a.side, q)
			a.out.line(a.prefix, "(demo --auto: this question was not expected; it stays unanswered)")
			return
		}
	}
}

// hasLine reports whether text holds line as a whole line.
func hasLine(text, line string) bool {
	for _, l := range strings.Split(text, "\n") {
		if l == line {
			return true
		}
	}
	return false
}

// flush prints the unfinished last line.
func (a *autoOperator) flush() {
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.partial) > 0 {
		a.show(plain(a.partial))
		a.partial = nil
	}
}

// result reports the replies typed and the first error.
func (a *autoOperator) result() (typed []string, pending []Answer, err error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.typed...), append([]Answer(nil), a.answers...), a.err
}

// failed is the operator's error so far, without waiting.
func (a *autoOperator) failed() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.err
}
