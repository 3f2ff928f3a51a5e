package demo

import (
	"bytes"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// sink is the demo's output, shared by the narration and the children's
// prefixed output: whole lines only, so they never interleave mid-line.
type sink struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *sink) printf(format string, args ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	fmt.Fprintf(s.w, format, args...)
}

func (s *sink) line(prefix, text string) { s.printf("%s%s\n", prefix, text) }

// Terminal control the children print: the countdown's in-place block
// (save cursor … restore cursor) is dropped whole, any other escape
// sequence is removed.
var (
	savedBlock = regexp.MustCompile("\x1b7[^\x1b]*(?:\x1b\\[[0-9;?]*[ -/]*[@-~][^\x1b]*)*\x1b8")
	csiSeq     = regexp.MustCompile("\x1b\\[[0-9;?]*[ -/]*[@-~]")
	otherEsc   = regexp.MustCompile("\x1b[@-Z\\\\-_78]?")
)

// plain turns one line of terminal output into plain text. The bell the
// watchers ring before a question (PROTOCOL#notifications) is heard, not read.
func plain(b []byte) string {
	s := strings.ReplaceAll(string(b), "\r", "")
	s = strings.ReplaceAll(s, "\a", "")
	s = savedBlock.ReplaceAllString(s, "")
	s = csiSeq.ReplaceAllString(s, "")
	s = otherEsc.ReplaceAllString(s, "")
	return s
}

// lineSplitter hands a child's output to each, line by line, as plain text.
type lineSplitter struct {
	each func(string)
	buf  []byte
}

func (l *lineSplitter) Write(p []byte) (int, error) {
	l.buf = append(l.buf, p...)
	for {
		i := bytes.IndexByte(l.buf, '\n')
		if i < 0 {
			return len(p), nil
		}
		text := plain(l.buf[:i])
		l.buf = l.buf[i+1:]
		l.each(text)
	}
}

func (l *lineSplitter) flush() {
	if len(l.buf) > 0 {
		l.each(plain(l.buf))
		l.buf = nil
	}
}

func prefixed(out *sink, prefix string) *lineSplitter {
	return &lineSplitter{each: func(text string) { out.line(prefix, text) }}
}

// teeLines passes output through unchanged and splits it into lines too.
type teeLines struct {
	w io.Writer
	lineSplitter
}

func (t *teeLines) Write(p []byte) (int, error) {
	_, _ = t.w.Write(p)
	return t.lineSplitter.Write(p)
}

// Answer is one prompt --auto expects and what it types there.
type Answer struct {
	Prompt string // a whole line the question shows before its input line
	Reply  string // typed once the input line is shown
}

// inputLine is what the prompt package shows where the answer goes.
const inputLine = "> "

var questionMarkers = []string{"[A] Approve", "Type exactly: "}

// autoOperator plays the person at a child's pseudo-terminal: it prints
// what the child shows and types each expected answer after its question
// appeared.
type autoOperator struct {
	side    string
	out     *sink
	term    io.Writer // the pty master: what is written here is typed
	answers []Answer
	onLine  func(string) // optional: every line shown, plain

	mu       sync.Mutex
	lines    lineSplitter    // its buf is the current line, not yet ended
	seen     strings.Builder // plain text since the last answer
	echoWant string          // the echo of the last reply, to mark it
	err      error
}

func (a *autoOperator) Write(p []byte) (int, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.lines.each == nil {
		a.lines.each = a.line
	}
	_, _ = a.lines.Write(p)
	a.maybeAnswer()
	return len(p), nil
}

func (a *autoOperator) line(text string) {
	a.show(text)
	a.seen.WriteString(text + "\n")
	if a.onLine != nil {
		a.onLine(text)
	}
}

func (a *autoOperator) show(text string) {
	if a.echoWant != "" && text == a.echoWant {
		a.echoWant = ""
		a.out.line(sidePrefix(a.side), text+"      <- typed by demo --auto")
		return
	}
	a.out.line(sidePrefix(a.side), text)
}

// maybeAnswer types the next reply when its question's input line is
// showing: the prompt discards input typed before the question is shown.
func (a *autoOperator) maybeAnswer() {
	if a.err != nil || plain(a.lines.buf) != inputLine {
		return
	}
	seen := a.seen.String()
	if len(a.answers) > 0 && slices.Contains(strings.Split(seen, "\n"), a.answers[0].Prompt) {
		next := a.answers[0]
		a.answers = a.answers[1:]
		a.seen.Reset()
		a.echoWant = inputLine + next.Reply
		if _, err := io.WriteString(a.term, next.Reply+"\n"); err != nil {
			a.err = fmt.Errorf("typing on %s's terminal: %w", a.side, err)
		}
		return
	}
	for _, m := range questionMarkers {
		if i := strings.LastIndex(seen, m); i >= 0 {
			q := strings.TrimSpace(seen[i:])
			a.err = fmt.Errorf("%s asked a question the demo does not answer on its own: %q", a.side, q)
			a.out.line(sidePrefix(a.side), "(demo --auto: this question was not expected; it stays unanswered)")
			return
		}
	}
}

func (a *autoOperator) flush() {
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.lines.buf) > 0 {
		a.show(plain(a.lines.buf))
		a.lines.buf = nil
	}
}

// result reports the answers not typed yet and the first error.
func (a *autoOperator) result() (pending []Answer, err error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]Answer(nil), a.answers...), a.err
}
