package prompt

import (
	"errors"
	"io/fs"
	"os"
	"testing"
)

func TestParseLine(t *testing.T) {
	cases := []struct {
		in   string
		want string
		ok   bool
	}{
		{"A\n", "A", true},
		{"A\r\n", "A", true},
		{"\n", "", true},
		{"AUTHORIZE RF TX\n", "AUTHORIZE RF TX", true},
		{"AUTHORIZE RF TX \n", "AUTHORIZE RF TX ", true},
		{"A", "", false},       // pushed with Ctrl-D: no Enter
		{"", "", false},        // nothing
		{"A\r", "", false},     // CR without NL
		{"A\n\n", "", false},   // two lines
		{"A\nB\n", "", false},  // two lines
		{"A\r\r\n", "", false}, // one CR too many
		{"A\rB\n", "", false},
	}
	for _, c := range cases {
		got, ok := parseLine([]byte(c.in))
		if got != c.want || ok != c.ok {
			t.Errorf("parseLine(%q) = %q, %v; want %q, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

// The phrase the operator types must be exactly the phrase, one line
// ending aside (PROTOCOL#main-pc): the check Terminal.Phrase makes.
func TestPhraseMatches(t *testing.T) {
	tests := []struct {
		typed, want string
		ok          bool
	}{
		{"AUTHORIZE RF TX", "AUTHORIZE RF TX", false}, // no Enter: not a line
		{"AUTHORIZE RF TX\n", "AUTHORIZE RF TX", true},
		{"AUTHORIZE RF TX\r\n", "AUTHORIZE RF TX", true},
		{"AUTHORIZE RF TX ", "AUTHORIZE RF TX", false},
		{" AUTHORIZE RF TX", "AUTHORIZE RF TX", false},
		{"AUTHORIZE RF TX \n", "AUTHORIZE RF TX", false},
		{"authorize rf tx", "AUTHORIZE RF TX", false},
		{"Authorize RF TX\n", "AUTHORIZE RF TX", false},
		{"AUTHORIZE  RF TX", "AUTHORIZE RF TX", false},
		{"AUTHORIZE RF TX\r", "AUTHORIZE RF TX", false}, // a lone CR is not a line ending
		{"AUTHORIZE RF TX\n\n", "AUTHORIZE RF TX", false},
		{"AUTHORIZE RF TX\r\n\n", "AUTHORIZE RF TX", false},
		{"AUTHORIZE RF\tTX", "AUTHORIZE RF TX", false},
		{"AUTHORIZE RF TX.", "AUTHORIZE RF TX", false},
		{"AUTHORIZE T_001\n", "AUTHORIZE T_001", true},
		{"AUTHORIZE T_002\n", "AUTHORIZE T_001", false},
		{"AUTHORIZE t_001\n", "AUTHORIZE T_001", false},
		{"A\n", "A", true},
		{"A\r\n", "A", true},
		{"a\n", "A", false},
		{"A \n", "A", false},
		{"AA\n", "A", false},
		{"", "", false},
		{"\n", "", false},
	}
	for _, tt := range tests {
		if got := phraseMatches([]byte(tt.typed), tt.want); got != tt.ok {
			t.Errorf("phraseMatches(%q, %q) = %v, want %v", tt.typed, tt.want, got, tt.ok)
		}
	}
}

func TestParseChoice(t *testing.T) {
	cases := map[string]Choice{
		"A\n": ChoiceApprove, "D\n": ChoiceDefer, "S\n": ChoiceStop, "A\r\n": ChoiceApprove,
		"a\n": ChoiceNone, "d\n": ChoiceNone, "s\n": ChoiceNone, "A \n": ChoiceNone,
		"AA\n": ChoiceNone, "A": ChoiceNone, "\n": ChoiceNone, "Approve\n": ChoiceNone,
	}
	for in, want := range cases {
		got, ok := parseChoice([]byte(in))
		if got != want || ok != (want != ChoiceNone) {
			t.Errorf("parseChoice(%q) = %v, %v; want %v", in, got, ok, want)
		}
	}
}

func TestCheckPhrase(t *testing.T) {
	for _, good := range []string{"AUTHORIZE RF TX", "AUTHORIZE RX_CAPTURE_001"} {
		if err := checkPhrase(good); err != nil {
			t.Errorf("checkPhrase(%q): %v", good, err)
		}
	}
	for _, bad := range []string{"", "AUTHORIZE\n", "AUTHORIZE\x1b", "AUTHORİZE"} {
		if err := checkPhrase(bad); err == nil {
			t.Errorf("checkPhrase(%q) accepted", bad)
		}
	}
}

func TestOpenRefusesWhatIsNotATerminal(t *testing.T) {
	// /dev/null opens fine but is no terminal.
	_, err := open(os.DevNull)
	var nt *noTerminalError
	if !errors.Is(err, ErrNoTerminal) || !errors.As(err, &nt) || nt.Err != nil {
		t.Fatalf("open(%s) = %v, want a noTerminalError without cause", os.DevNull, err)
	}
	_, err = open("/nonexistent/tty")
	if !errors.Is(err, ErrNoTerminal) || !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("open of a missing path = %v, want ErrNoTerminal wrapping ENOENT", err)
	}
}

func TestExpiredError(t *testing.T) {
	var err error = &expiredError{}
	if !errors.Is(err, ErrExpired) || errors.Is(err, ErrNoTerminal) {
		t.Fatalf("expiredError matches wrongly: %v", err)
	}
}
