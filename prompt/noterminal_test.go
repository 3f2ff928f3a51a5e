package prompt_test

import (
	"testing"

	"rfhandoff/internal/prompttest"
)

// Run the way cron or an agent would: a new session with no controlling
// terminal and the "answer" piped to stdin. Nothing may be read from it.
func TestNoTerminalRefusesAndReadsNothing(t *testing.T) {
	for _, scenario := range []string{"approve", "phrase"} {
		t.Run(scenario, func(t *testing.T) {
			t.Parallel()
			opts := helperOpts(t, scenario, "PHRASE="+txPhrase, "DEADLINES_MS=0")
			opts.Stdin = "A\nAUTHORIZE RF TX\n"
			s := prompttest.StartDetached(t, self(t), nil, opts)
			got := oneOutcome(t, s)
			if !got.NoTerm || got.Choice != "" || got.OK {
				t.Fatalf("got %+v, want a no-terminal refusal", got)
			}
			if left := s.StdinLeft(); left != opts.Stdin {
				t.Fatalf("stdin was read: %q left of %q", left, opts.Stdin)
			}
		})
	}
}
