package fault

import (
	"strings"
	"syscall"
	"testing"
	"time"

	"rfhandoff/config"
	"rfhandoff/internal/faultkit"
)

// Invariant: a remote that accepts connections and never answers cannot
// hang anything. Every git call ends at poll.git_timeout (the process is
// stopped, an end line is written), the watchers live on and back off
// (the wait between failed fetches grows well past the poll interval),
// and the one-shot `rx check` fails within the timeout.
func TestFaultBlackHoleRemote(t *testing.T) {
	t.Parallel()
	const (
		timeout  = time.Second
		interval = 200 * time.Millisecond
	)
	for _, c := range []struct {
		name string
		side func(*faultkit.Lab) *faultkit.Side
		args []string
	}{
		{"rx watch", func(l *faultkit.Lab) *faultkit.Side { return l.RX }, []string{"rx", "watch"}},
		{"tx watch", func(l *faultkit.Lab) *faultkit.Side { return l.Main }, []string{"tx", "watch"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			lab := faultkit.NewLab(t)
			hole := faultkit.StartBlackHole(t)
			side := c.side(lab)
			side.SetRemoteURL(hole.URL("remote.git"))
			side.Policy.Poll.GitTimeout = config.Duration{Duration: timeout}
			side.Policy.Poll.RXInterval = config.Duration{Duration: interval}
			side.Policy.Poll.TXInterval = config.Duration{Duration: interval}
			side.Policy.Poll.MaxBackoff = config.Duration{Duration: 4 * time.Second}
			side.WritePolicy()

			w := side.Start(c.args...)
			// Five timed-out fetches take about 5 × 1 s plus the backoff.
			faultkit.WaitFetches(t, side, "five fetches ended", 5, func(c faultkit.Call) bool { return c.End != nil })
			if w.Exited() {
				t.Fatalf("%s died against a black hole\nstdout:\n%s\nstderr:\n%s", c.name, w.Stdout.String(), w.Stderr.String())
			}
			calls := faultkit.FetchCalls(t, side)
			var maxWait time.Duration
			for i, call := range calls {
				if call.End == nil {
					continue // the one in progress
				}
				if call.OK() {
					t.Fatalf("fetch %d from a black hole succeeded", i)
				}
				if d := time.Duration(*call.End.DurationMS) * time.Millisecond; d < timeout || d > timeout+15*time.Second {
					t.Errorf("fetch %d ended after %v; want the timeout %v (plus the interrupt grace at most)", i, d, timeout)
				}
				if !strings.Contains(call.End.Error, "timed out") {
					t.Errorf("fetch %d end line does not say it timed out: %q", i, call.End.Error)
				}
				if i+1 < len(calls) {
					if wait := calls[i+1].Start.Time.Sub(call.End.Time); wait > maxWait {
						maxWait = wait
					}
				}
			}
			// Without backoff every wait is one interval; with it the
			// fourth wait is already 4–8 intervals.
			if maxWait < 4*interval {
				t.Errorf("longest wait between failed fetches %v; want backoff beyond %v", maxWait, 4*interval)
			}
			t.Logf("%d fetches, %d accepted connections, longest wait %v", len(calls), hole.Accepted.Load(), maxWait)
			if hole.Accepted.Load() == 0 {
				t.Error("the black hole saw no connection: the test did not test it")
			}
			w.Signal(syscall.SIGTERM)
			if st := w.Wait(faultkit.Wait); st.ExitCode() != 0 {
				t.Errorf("%s after SIGTERM: exit %d", c.name, st.ExitCode())
			}
			faultkit.CheckAuditChain(t, side.AuditPath())
		})
	}
	t.Run("rx check", func(t *testing.T) {
		t.Parallel()
		lab := faultkit.NewLab(t)
		hole := faultkit.StartBlackHole(t)
		lab.RX.SetRemoteURL(hole.URL("remote.git"))
		lab.RX.Policy.Poll.GitTimeout = config.Duration{Duration: timeout}
		lab.RX.WritePolicy()
		start := time.Now()
		out := lab.RX.Run(faultkit.Wait, "rx", "check")
		if out.Code != 1 || !strings.Contains(out.Stderr, "timed out") {
			t.Errorf("rx check against a black hole: want exit 1 saying it timed out\n%s", out)
		}
		if d := time.Since(start); d > timeout+20*time.Second {
			t.Errorf("rx check took %v against a %v git timeout", d, timeout)
		}
	})
}
