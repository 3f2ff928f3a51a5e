package rxside

import (
	"bytes"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"rfhandoff/gitcli"
)

func TestReporterOncePerDistinctError(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	log := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelInfo}))
	now := time.Unix(1000, 0)
	r := &reporter{log: log, now: func() time.Time { return now }, mirror: "/lab/.local/mirror-rx.git"}

	down := errors.New("connection refused")
	for range 5 {
		r.failure(down, time.Second)
	}
	r.failure(errors.New("timed out"), 2*time.Second)
	r.failure(errors.New("timed out"), 2*time.Second)
	now = now.Add(7 * time.Second)
	r.success()
	r.success() // nothing more to say
	r.failure(&gitcli.ForcePushError{Remote: "origin", Branch: "video-development", Reason: "non-fast-forward"}, time.Second)

	out := buf.String()
	for _, c := range []struct {
		text string
		n    int
	}{
		{"connection refused", 1},
		{"timed out", 1},
		{"remote reachable again", 1},
		{"failed_polls=7", 1},
		{"down_for=7s", 1},
		{"task branch rewritten", 1},
		{"then remove /lab/.local/mirror-rx.git and /lab/.local/mirror-rx.git.anchors: rfhandoff rebuilds the mirror and takes origin/video-development as it is then", 1},
	} {
		if got := strings.Count(out, c.text); got != c.n {
			t.Errorf("%q logged %d times, want %d:\n%s", c.text, got, c.n, out)
		}
	}
}
