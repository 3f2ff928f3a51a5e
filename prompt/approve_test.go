package prompt_test

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"rfhandoff/hiddentext"
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
	needUnixTerminal(t, "Ctrl-D ends input only on a Unix terminal")
	s := startHelper(t, "approve")
	s.WaitForText(prompt.Menu, waitLong)
	s.Type("\x04") // Ctrl-D on an empty line: end of input
	if got := oneOutcome(t, s); got.Choice != "stop" || got.Err != "" {
		t.Fatalf("got %+v, want stop without error", got)
	}
	s.TTY.WaitForText("nothing approved", waitLong)
}

func TestApproveCtrlDWithoutEnterIsNoAnswer(t *testing.T) {
	needUnixTerminal(t, "Ctrl-D ends input only on a Unix terminal")
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
		`Title:   Capture <U+001B>[5mblink<U+001B>[0m`,
		"Level:   YELLOW (declared YELLOW, derived YELLOW)",
		"Note:    the body holds 30 characters a terminal does not show, written below as <U+XXXX>",
		`<U+001B>[31mRED<U+001B>[0m <U+001B>[2J<U+001B>[H cleared?`,
		`<U+001B>]0;owned<U+0007> bell<U+0007>`,
		`c1 <U+009B>31m and raw <0x9B>31m`,
		`bidi <U+202E>evil<U+202C> and <U+2066>iso<U+2069>`,
		"tab" + tabShown + "here",
		`tags<U+E0072><U+E0075><U+E006E><U+E0020><U+E0072><U+E006D> end`,
		`zw a<U+200B>b<U+200D>c<U+2060>d soft<U+00AD>hyphen bom<U+FEFF>`,
		`pua <U+E000> <U+F0001> <U+10FFFD> unassigned <U+0378>`,
		`vs ❤<U+FE0F> 葛<U+E0100>`,
	} {
		if !strings.Contains(shown, want) {
			t.Errorf("terminal does not show %q", want)
		}
	}
	// Nothing the terminal would act on or not show: the prompts use no
	// escape sequences of their own, so any such character would have
	// come from the task. \r comes from the tty's NL→CRLF output mapping.
	for i, r := range shown {
		bad := hiddentext.Hidden(r) && r != '\n' && r != '\r' && r != '\t'
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

// TestApproveShowsBlanksAndCRs: on a real terminal, every blank-looking
// character and every CR that does not end a line in a CRLF is shown as
// its escape, exactly as TASK.md and rx check write it. The body is
// compared whole: a raw CR would move the cursor back over what was shown,
// and the tty's own CR (NL→CRLF) would hide it from a character scan.
func TestApproveShowsBlanksAndCRs(t *testing.T) {
	s := startHelper(t, "approve", "BODY=blank")
	s.WaitForText(prompt.Menu, waitLong)
	s.Send("D")
	oneOutcome(t, s)
	tty := strings.ReplaceAll(s.TTY.String(), "\r\n", "\n")
	if want := "Note:    the body holds 19 characters a terminal does not show"; !strings.Contains(tty, want) {
		t.Errorf("terminal does not show %q", want)
	}
	_, after, _ := strings.Cut(tty, "--- task body (hidden and control characters shown as <U+XXXX>) ---\n")
	body, _, found := strings.Cut(after, "--- end of task body ---\n")
	if !found || body != blankShown {
		t.Errorf("the prompt showed the body as\n%q\nwant\n%q", body, blankShown)
	}
	if strings.ContainsRune(tty, '\r') {
		t.Errorf("a CR other than the tty's line ending reached the terminal:\n%q", tty)
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
	needUnixTerminal(t, "a console echoes keys only while something reads them, and has no SIGUSR1")
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

// TestApproveRingsTheBell: with WithBell the first menu is announced by a
// BEL, which a terminal turns into a sound or a flash (PROTOCOL#notifications).
func TestApproveRingsTheBell(t *testing.T) {
	needUnixTerminal(t, "a console sounds a BEL itself, and Wine's pseudo-console does not pass the byte on")
	s := startHelper(t, "approve", "BELL=1")
	s.WaitForText("--- end of task body ---\r\n\a"+prompt.Menu, waitLong)
	s.Send("x")
	s.WaitForText("Type exactly A, D or S", waitLong)
	s.WaitForText(prompt.Menu, waitLong)
	s.Send("D")
	if got := oneOutcome(t, s); got.Choice != "defer" {
		t.Fatalf("got %+v, want defer", got)
	}
}
