package prompt

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
	"unicode"

	"rfhandoff/hiddentext"
)

var noDeadline time.Time

// Phrase asks the operator to type phrase exactly and returns true only for a byte-for-byte
// match on one line confirmed with Enter; anything else, end of input included, approves
// nothing. With a non-zero deadline the prompt counts the seconds left in place; when the
// deadline passes first, the pending read is abandoned (ErrExpired), and a match that arrives
// after it counts as expired.
func (t *Terminal) Phrase(ctx context.Context, phrase string, deadline time.Time) (bool, error) {
	if err := checkPhrase(phrase); err != nil {
		return false, err
	}
	end, err := t.begin()
	if err != nil {
		return false, err
	}
	defer end()

	if err := t.discardTypeAhead(); err != nil {
		return false, err
	}
	if !deadline.IsZero() {
		t.bell()
	}
	if err := t.say("Type exactly: %s\n", hiddentext.SanitizeLine(phrase)); err != nil {
		return false, err
	}
	if !deadline.IsZero() {
		left := secondsLeft(deadline)
		if left <= 0 {
			_ = t.say("Expired: nothing approved.\n")
			return false, &expiredError{Deadline: deadline}
		}
		// The status line sits directly above the input line so the
		// countdown can rewrite it without touching what is being typed.
		if err := t.say("Expires at %s.\n%s\n", deadline.Local().Format("15:04:05"), statusLine(left)); err != nil {
			return false, err
		}
	}
	if err := t.say("> "); err != nil {
		return false, err
	}

	stopCountdown := t.countdown(deadline)
	line, err := t.readLine(ctx, deadline)
	stopCountdown()

	var expired *expiredError
	switch {
	case errors.As(err, &expired):
		_ = t.say("\nExpired: nothing approved.\n")
		_ = t.discardTypeAhead() // drop the half-typed line
		return false, err
	case errors.Is(err, errNoLine):
		return false, t.say("\nEnd of input: nothing approved.\n")
	case err != nil:
		_ = t.say("\nCancelled: nothing approved.\n")
		_ = t.discardTypeAhead()
		return false, err
	}
	if !deadline.IsZero() && !time.Now().Before(deadline) {
		_ = t.say("Expired: nothing approved.\n")
		return false, &expiredError{Deadline: deadline}
	}
	if phraseMatches(line, phrase) {
		return true, t.say("Phrase matched.\n")
	}
	return false, t.say("Wrong phrase: nothing approved.\n")
}

// phraseMatches: exactly phrase and one line ending, no trimming, no case folding. An empty
// phrase never matches, so a missing phrase approves nothing.
func phraseMatches(line []byte, phrase string) bool {
	answer, ok := parseLine(line)
	return ok && phrase != "" && answer == phrase
}

// checkPhrase refuses phrases that an empty or mangled line could match or
// that would not show as typed.
func checkPhrase(phrase string) error {
	if phrase == "" {
		return errors.New("prompt: empty phrase")
	}
	for _, r := range phrase {
		if r > unicode.MaxASCII || !unicode.IsPrint(r) {
			return fmt.Errorf("prompt: phrase %q must be printable ASCII", phrase)
		}
	}
	return nil
}

func secondsLeft(deadline time.Time) int {
	d := time.Until(deadline)
	if d <= 0 {
		return 0
	}
	return int((d + time.Second - 1) / time.Second)
}

func statusLine(left int) string {
	return fmt.Sprintf("%d s left", left)
}

// Cursor control for the in-place countdown: save the cursor (DECSC), go one
// line up to column 1, clear that line, write the status, restore the cursor
// (DECRC). No CR or NL inside, so the tty writes it as one block and the
// kernel's echo of typed keys cannot land in the middle.
const (
	countdownBegin = "\x1b7\x1b[1A\x1b[1G\x1b[2K"
	countdownEnd   = "\x1b8"
)

// countdown rewrites the status line every tick until stopped; the
// returned function waits until no more writes can happen. An answer long
// enough to wrap past the terminal's width would be partly overwritten on
// screen (not in what is read); the phrases are far shorter than a line.
func (t *Terminal) countdown(deadline time.Time) (stop func()) {
	if deadline.IsZero() {
		return func() {}
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tk := time.NewTicker(t.tick)
		defer tk.Stop()
		for {
			select {
			case <-done:
				return
			case <-tk.C:
				left := secondsLeft(deadline)
				// Not through say: the transcript gets no cursor control.
				_, _ = fmt.Fprintf(t.f, "%s%s%s", countdownBegin, statusLine(left), countdownEnd)
				if left <= 0 {
					return
				}
			}
		}
	}()
	return func() { close(done); wg.Wait() }
}
