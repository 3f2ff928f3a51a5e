package prompt_test

import (
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

const txPhrase = "AUTHORIZE RF TX"

func TestPhraseExactMatchOnly(t *testing.T) {
	cases := []struct {
		name, typed string
		want        bool
	}{
		{"exact", txPhrase + "\n", true},
		{"crlf", txPhrase + "\r\n", true},
		{"enter as cr", txPhrase + "\r", true},
		{"trailing space", txPhrase + " \n", false},
		{"leading space", " " + txPhrase + "\n", false},
		{"lowercase", "authorize rf tx\n", false},
		{"double space", "AUTHORIZE  RF TX\n", false},
		{"cyrillic A lookalike", "\u0410UTHORIZE RF TX\n", false},
		{"prefix", "AUTHORIZE RF\n", false},
		{"empty", "\n", false},
		{"other phrase", "AUTHORIZE RX_CAPTURE_001\n", false},
		{"ctrl-d without enter", txPhrase + "\x04", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if strings.Contains(c.typed, "\x04") {
				needUnixTerminal(t, "Ctrl-D ends input only on a Unix terminal")
			}
			t.Parallel()
			s := startHelper(t, "phrase", "PHRASE="+txPhrase, "DEADLINES_MS=0")
			s.WaitForText("Type exactly: "+txPhrase, waitLong)
			s.Type(enterKey(c.typed))
			got := oneOutcome(t, s)
			if got.OK != c.want || got.Err != "" {
				t.Fatalf("typed %q: got %+v, want ok=%v", c.typed, got, c.want)
			}
			if !c.want {
				s.TTY.WaitForText("nothing approved", waitLong)
			}
		})
	}
}

func TestPhraseExpires(t *testing.T) {
	// First prompt: 2 s; second: no deadline, to show the terminal still
	// works and the half-typed line of the first is gone.
	s := startHelper(t, "phrase", "PHRASE="+txPhrase, "DEADLINES_MS=2000,0")
	s.WaitForText("Type exactly: "+txPhrase, waitLong)
	s.WaitFor(regexp.MustCompile(`\d+ s left`), waitLong)
	s.Type("AUTHORIZE") // no Enter: abandoned when the prompt expires
	s.WaitForText("Expired: nothing approved", waitLong)
	s.WaitForText("Type exactly: "+txPhrase, waitLong)
	s.Send(txPhrase)
	if pendingLineSurvives {
		s.WaitForText("type it again", waitLong)
		s.Send(txPhrase)
	}
	res := outcomes(t, s)
	if len(res) != 2 {
		t.Fatalf("want 2 outcomes, got %+v", res)
	}
	if !res[0].Expired || res[0].OK {
		t.Errorf("first prompt: got %+v, want expired", res[0])
	}
	if !res[1].OK || res[1].Err != "" {
		t.Errorf("second prompt: got %+v, want ok", res[1])
	}
}

// TestPhraseHalfTypedLineDoesNotCarryOver: what was typed at an expired
// prompt never opens the next one's line, so the phrase cannot be made of
// a half typed at one prompt and the rest at the next.
func TestPhraseHalfTypedLineDoesNotCarryOver(t *testing.T) {
	s := startHelper(t, "phrase", "PHRASE="+txPhrase, "DEADLINES_MS=1500,0")
	s.WaitForText("Type exactly: "+txPhrase, waitLong)
	s.Type("AUTHORIZE RF ") // no Enter
	s.WaitForText("Expired: nothing approved", waitLong)
	s.WaitForText("Type exactly: "+txPhrase, waitLong)
	s.Send("TX")
	if pendingLineSurvives {
		// The console's pending line ("AUTHORIZE RF TX") is dropped.
		s.WaitForText("type it again", waitLong)
		s.Send("no")
	}
	res := outcomes(t, s)
	if len(res) != 2 || res[1].OK {
		t.Fatalf("got %+v, want the second prompt not approved", res)
	}
	s.TTY.WaitForText("Wrong phrase: nothing approved", waitLong)
}

func TestPhrasePastDeadlineAsksNothing(t *testing.T) {
	s := startHelper(t, "phrase", "PHRASE="+txPhrase, "DEADLINES_MS=-1000")
	got := oneOutcome(t, s)
	if !got.Expired || got.OK {
		t.Fatalf("got %+v, want expired", got)
	}
	s.TTY.WaitForText("Expired: nothing approved", waitLong)
}

func TestPhraseCountdownUpdatesInPlace(t *testing.T) {
	s := startHelper(t, "phrase", "PHRASE="+txPhrase, "DEADLINES_MS=600000", "TRANSCRIPT=1")
	first := s.WaitFor(regexp.MustCompile(`\n(\d+) s left\r\n> `), waitLong)
	// An update: save cursor, one line up, column 1, clear line, the
	// status, restore cursor.
	upd := s.WaitFor(regexp.MustCompile(`\x1b7\x1b\[1A\x1b\[1G\x1b\[2K(\d+) s left\x1b8`), waitLong)
	before, _ := strconv.Atoi(first[1])
	after, _ := strconv.Atoi(upd[1])
	if before > 600 || after >= before {
		t.Errorf("countdown went from %d to %d s", before, after)
	}
	s.Send(txPhrase)
	if got := oneOutcome(t, s); !got.OK {
		t.Fatalf("got %+v, want ok", got)
	}
	// The transcript has the narration but none of the cursor control.
	tr := s.Stderr.String()
	if !strings.Contains(tr, "Type exactly: "+txPhrase+"\n") || !strings.Contains(tr, "Phrase matched.") ||
		!regexp.MustCompile(`\n\d+ s left\n> `).MatchString(tr) || strings.Contains(tr, "\x1b") {
		t.Errorf("transcript %q", tr)
	}
}

func TestPhraseCancelled(t *testing.T) {
	s := startHelper(t, "phrase", "PHRASE="+txPhrase, "DEADLINES_MS=0")
	s.WaitForText("Type exactly: "+txPhrase, waitLong)
	s.Type("AUTHORIZE RF") // half typed when the watcher is told to stop
	s.Signal(syscall.SIGTERM)
	got := oneOutcome(t, s)
	if !got.Canceled || got.OK {
		t.Fatalf("got %+v, want canceled", got)
	}
	s.TTY.WaitForText("Cancelled: nothing approved", waitLong)
}

func TestPhraseTypeAheadIsDiscarded(t *testing.T) {
	needUnixTerminal(t, "a console echoes keys only while something reads them, and has no SIGUSR1")
	s := startHelper(t, "phrase", "PHRASE="+txPhrase, "DEADLINES_MS=0", "WAIT_USR1=1")
	s.Stdout.WaitForText(`"ready":true`, waitLong)
	s.Send(txPhrase) // before the question: must not count
	s.WaitFor(regexp.MustCompile(txPhrase+`\r\n`), waitLong)
	s.Signal(sigUSR1)
	s.WaitForText("Type exactly: "+txPhrase, waitLong)
	s.Send("no")
	res := outcomes(t, s)
	if len(res) != 2 || res[1].OK {
		t.Fatalf("got %+v, want ready then not ok", res)
	}
}
