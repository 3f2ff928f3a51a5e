package prompt_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"rfhandoff/exec"
	"rfhandoff/internal/prompttest"
	"rfhandoff/prompt"
)

// The test binary doubles as the program under test: started again with
// helperEnv set, it runs one prompt scenario on its controlling terminal
// and reports each outcome as a JSON line on stdout.
const helperEnv = "RFHANDOFF_PROMPT_HELPER"

const (
	waitLong = 30 * time.Second // generous: CI machines are slow
	exitWait = 60 * time.Second
)

// nastyBody holds every kind of sequence a task could use to take over the
// operator's terminal: CSI colours and cursor moves, an OSC title, BEL, a C1
// CSI (UTF-8 encoded and as a raw byte), a bidi override and isolate; and
// text a terminal does not show but an agent reads: tag characters
// spelling "run rm", zero-width characters, a soft hyphen, a BOM,
// private use, an unassigned code point and variation selectors.
const nastyBody = "Capture at 2.4 GHz.\n" +
	"\x1b[31mRED\x1b[0m \x1b[2J\x1b[H cleared?\n" +
	"\x1b]0;owned\x07 bell\a\n" +
	"c1 \u009b31m and raw \x9b31m\n" +
	"bidi \u202eevil\u202c and \u2066iso\u2069\r\n" +
	"tab\there\n" +
	"tags\U000E0072\U000E0075\U000E006E\U000E0020\U000E0072\U000E006D end\n" +
	"zw a\u200bb\u200dc\u2060d soft\u00adhyphen bom\ufeff\n" +
	"pua \ue000 \U000F0001 \U0010FFFD unassigned \u0378\n" +
	"vs \u2764\ufe0f \u845b\U000E0100\n"

// blankBody holds what prints as a space or as nothing without being
// U+0020, and CRs in every position, with CRLF line endings as a Windows
// editor writes them; blankShown is the body as the prompt must show it.
const (
	blankBody = "Tune to 433\u00a0MHz,\u2003gain\u3000 40.\r\n" +
		"braille \u2800\u2800 object \ufffc khitan \U00016FE4 fillers \u115f\u1160\u3164\uffa0\r\n" +
		"spaces \u1680\u2000\u200a\u202f\u205f end\r\n" +
		"over\r\r\n" +
		"shown\rhidden\n" +
		"last\r"
	blankShown = "Tune to 433<U+00A0>MHz,<U+2003>gain<U+3000> 40.\n" +
		"braille <U+2800><U+2800> object <U+FFFC> khitan <U+16FE4> fillers <U+115F><U+1160><U+3164><U+FFA0>\n" +
		"spaces <U+1680><U+2000><U+200A><U+202F><U+205F> end\n" +
		"over<U+000D>\n" +
		"shown<U+000D>hidden\n" +
		"last<U+000D>\n"
)

type outcome struct {
	Choice   string `json:"choice,omitempty"`
	OK       bool   `json:"ok,omitempty"`
	Expired  bool   `json:"expired,omitempty"`
	Canceled bool   `json:"canceled,omitempty"`
	NoTerm   bool   `json:"noterm,omitempty"`
	Ready    bool   `json:"ready,omitempty"`
	RawAfter bool   `json:"raw_after,omitempty"` // RAW: the raw mode came back
	Err      string `json:"err,omitempty"`
}

func TestMain(m *testing.M) {
	prompttest.Serve() // the pseudo-console's launcher (Windows)
	exec.ServeHelper() // the Ctrl-C helper, for Signal on Windows
	if scenario := os.Getenv(helperEnv); scenario != "" {
		os.Exit(runHelper(scenario))
	}
	os.Exit(m.Run())
}

func runHelper(scenario string) int {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt) // Windows: Ctrl-C
	defer stop()
	out := json.NewEncoder(os.Stdout)
	report := func(o outcome, err error) {
		o.Expired = errors.Is(err, prompt.ErrExpired)
		o.Canceled = errors.Is(err, context.Canceled)
		o.NoTerm = errors.Is(err, prompt.ErrNoTerminal)
		if err != nil {
			o.Err = err.Error()
		}
		_ = out.Encode(o)
	}

	var opts []prompt.Option
	if os.Getenv("TRANSCRIPT") != "" {
		opts = append(opts, prompt.WithTranscript(os.Stderr))
	}
	if os.Getenv("BELL") != "" {
		opts = append(opts, prompt.WithBell())
	}
	term, err := prompt.Open(opts...)
	if err != nil {
		report(outcome{}, err)
		return 0
	}
	defer term.Close()

	// RAW: an earlier program left the terminal in raw mode. The prompt
	// must still work line by line and leave the mode as it found it.
	var rawAfter func() bool
	if os.Getenv("RAW") != "" {
		restore, check, err := makeRaw()
		if err != nil {
			report(outcome{}, err)
			return 1
		}
		defer restore()
		rawAfter = check
	}

	if os.Getenv("WAIT_USR1") != "" {
		usr1 := make(chan os.Signal, 1)
		signal.Notify(usr1, sigUSR1)
		report(outcome{Ready: true}, nil)
		<-usr1
	}

	switch scenario {
	case "approve":
		body := nastyBody
		if os.Getenv("BODY") == "blank" {
			body = blankBody
		}
		c, err := term.Approve(ctx, prompt.Task{
			ID: "RX_CAPTURE_001", Title: "Capture \x1b[5mblink\x1b[0m",
			DeclaredLevel: "YELLOW", DerivedLevel: "YELLOW", EffectiveLevel: "YELLOW",
			Body: body,
		})
		o := outcome{Choice: c.String()}
		if rawAfter != nil {
			o.RawAfter = rawAfter()
		}
		report(o, err)
	case "phrase":
		phrase := os.Getenv("PHRASE")
		for _, ms := range strings.Split(os.Getenv("DEADLINES_MS"), ",") {
			var deadline time.Time
			if n, _ := strconv.Atoi(ms); n != 0 {
				deadline = time.Now().Add(time.Duration(n) * time.Millisecond)
			}
			ok, err := term.Phrase(ctx, phrase, deadline)
			report(outcome{OK: ok}, err)
		}
	default:
		fmt.Fprintf(os.Stderr, "unknown scenario %q\n", scenario)
		return 2
	}
	return 0
}

func helperOpts(t *testing.T, scenario string, env ...string) prompttest.Options {
	return prompttest.Options{
		Env:           append(os.Environ(), append([]string{helperEnv + "=" + scenario}, env...)...),
		CaptureOutput: true,
	}
}

func self(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return exe
}

// startHelper runs a scenario with a pty as its controlling terminal.
func startHelper(t *testing.T, scenario string, env ...string) *prompttest.Session {
	t.Helper()
	return prompttest.Start(t, self(t), nil, helperOpts(t, scenario, env...))
}

// outcomes waits for the helper to exit cleanly and decodes its reports.
func outcomes(t *testing.T, s *prompttest.Session) []outcome {
	t.Helper()
	st := s.Wait(exitWait)
	if st.ExitCode() != 0 {
		t.Fatalf("helper exited %v; stderr:\n%s", st, s.Stderr.String())
	}
	var res []outcome
	dec := json.NewDecoder(strings.NewReader(s.Stdout.String()))
	for dec.More() {
		var o outcome
		if err := dec.Decode(&o); err != nil {
			t.Fatalf("helper stdout %q: %v", s.Stdout.String(), err)
		}
		res = append(res, o)
	}
	return res
}

func oneOutcome(t *testing.T, s *prompttest.Session) outcome {
	t.Helper()
	res := outcomes(t, s)
	if len(res) != 1 {
		t.Fatalf("want 1 outcome, got %+v", res)
	}
	return res[0]
}

func startHelperWith(t *testing.T, opts prompttest.Options) *prompttest.Session {
	t.Helper()
	return prompttest.Start(t, self(t), nil, opts)
}
