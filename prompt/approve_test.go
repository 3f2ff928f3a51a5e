package prompt_test

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"rfhandoff/prompt"
)

func TestApproveChoices(t *testing.T) {
	for answer, want := range map[string]string{"A": "approve", "D": "defer", "S": "stop"} {
		t.Run(answer, func(t *testing.T) {
			t.Parallel()
			s := startHelper(t, "approve")
			s.WaitForText("TASK_ID: RX_CAPTURE_001", waitLong)
			s.WaitForText(prompt.Menu, waitLong)
			s.Send(answer)
			if got := oneOutcome(t, s); got.Choice != want || got.Err != "" {
				t.Errorf("answer %q: got %+v, want choice %s", answer, got, want)
			}
			// The prompt went to the terminal, not to stdout where an
			// agent driving us would read it.
			if strings.Contains(s.Stdout.String(), "Approve") {
				t.Errorf("prompt leaked to stdout: %q", s.Stdout.String())
			}
		})
	}
}

func TestApproveReasksUntilExactAnswer(t *testing.T) {
	s := startHelper(t, "approve")
	s.WaitForText(prompt.Menu, waitLong)
	// Lowercase, a word, stray spaces: never taken as a decision.
	for _, wrong := range []string{"a", "Approve", " A", "A "} {
		s.Send(wrong)
		s.WaitForText("Type exactly A, D or S", waitLong)
		s.WaitForText(prompt.Menu, waitLong)
	}
	s.Send("A")
	if got := oneOutcome(t, s); got.Choice != "approve" {
		t.Fatalf("got %+v, want approve", got)
	}
}

func TestApproveGivesUpAsDefer(t *testing.T) {
	s := startHelper(t, "approve")
	for i := 1; i <= prompt.MaxMenuAttempts; i++ {
		s.WaitForText(prompt.Menu, waitLong)
		s.Send("yes")
	}
	s.WaitForText("No valid answer", waitLong)
	if got := oneOutcome(t, s); got.Choice != "defer" || got.Err != "" {
		t.Fatalf("got %+v, want defer", got)
	}
}

func TestApproveEndOfInputStops(t *testing.T) {
	s := startHelper(t, "approve")
	s.WaitForText(prompt.Menu, waitLong)
	s.Type("\x04") // Ctrl-D on an empty line: end of input
	if got := oneOutcome(t, s); got.Choice != "stop" || got.Err != "" {
		t.Fatalf("got %+v, want stop without error", got)
	}
	s.TTY.WaitForText("nothing approved", waitLong)
}

func TestApproveCtrlDWithoutEnterIsNoAnswer(t *testing.T) {
	s := startHelper(t, "approve")
	s.WaitForText(prompt.Menu, waitLong)
	s.Type("A\x04") // pushes "A" without a line end: not confirmed
	s.WaitForText("Type exactly A, D or S", waitLong)
	s.WaitForText(prompt.Menu, waitLong)
	s.Send("D")
	if got := oneOutcome(t, s); got.Choice != "defer" {
		t.Fatalf("got %+v, want defer", got)
	}
}

func TestApproveShowsBodyNeutralised(t *testing.T) {
	s := startHelper(t, "approve")
	s.WaitForText(prompt.Menu, waitLong)
	s.Send("D")
	oneOutcome(t, s)
	shown := s.TTY.String()

	for _, want := range []string{
		`Title:   Capture \x1b[5mblink\x1b[0m`,
		"Level:   YELLOW (declared YELLOW, derived YELLOW)",
		`\x1b[31mRED\x1b[0m \x1b[2J\x1b[H cleared?`,
		`\x1b]0;owned\x07 bell\x07`,
		`c1 \u009b31m and raw \x9b31m`,
		`bidi \u202eevil\u202c and \u2066iso\u2069`,
		"tab\there",
	} {
		if !strings.Contains(shown, want) {
			t.Errorf("terminal does not show %q", want)
		}
	}
	// Nothing the terminal would act on: the prompts use no escape
	// sequences of their own, so any control byte would have come from
	// the task. \r comes from the tty's NL→CRLF output mapping.
	for i, r := range shown {
		bad := (r < 0x20 && r != '\n' && r != '\r' && r != '\t') || r == 0x7f ||
			(r >= 0x80 && r <= 0x9f) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069)
		if r == utf8.RuneError {
			bad = true
		}
		if bad {
			t.Errorf("raw %U at offset %d of terminal output", r, i)
		}
	}
	if t.Failed() {
		t.Logf("terminal output:\n%s", shown)
	}
}

func TestAnswersComeOnlyFromTerminal(t *testing.T) {
	opts := helperOpts(t, "approve")
	opts.PipeStdin = true
	opts.Stdin = "A\nA\nA\n"
	s := startHelperWith(t, opts)
	s.WaitForText(prompt.Menu, waitLong)
	s.Send("D")
	if got := oneOutcome(t, s); got.Choice != "defer" {
		t.Fatalf("got %+v, want defer (the terminal's answer)", got)
	}
	if left := s.StdinLeft(); left != opts.Stdin {
		t.Fatalf("stdin was read: %q left of %q", left, opts.Stdin)
	}
}

func TestTypeAheadIsDiscarded(t *testing.T) {
	s := startHelper(t, "approve", "WAIT_USR1=1")
	s.Stdout.WaitForText(`"ready":true`, waitLong)
	// Typed before the question exists: must not answer it.
	s.Send("A")
	s.WaitFor(regexp.MustCompile(`A\r\n`), waitLong) // the tty took it in (echo)
	s.Signal(sigUSR1)
	s.WaitForText(prompt.Menu, waitLong)
	s.Send("D")
	res := outcomes(t, s)
	if len(res) != 2 || res[1].Choice != "defer" {
		t.Fatalf("got %+v, want ready then defer", res)
	}
}
