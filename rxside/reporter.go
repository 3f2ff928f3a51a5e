package rxside

import (
	"errors"
	"fmt"
	"log/slog"
	"time"

	"rfhandoff/exec"
	"rfhandoff/gitcli"
	"rfhandoff/mirror"
)

// reporter logs poll failures once per distinct error, and says when polling works again.
type reporter struct {
	log      *slog.Logger
	now      func() time.Time
	mirror   string // the RX mirror, which a re-anchor removes with its anchors file
	last     string // key of the last error reported
	failures int
	since    time.Time
}

func (r *reporter) failure(err error, retryIn time.Duration) {
	if r.failures == 0 {
		r.since = r.now()
	}
	r.failures++
	key := fmt.Sprintf("%T: %v", err, err)
	if key == r.last {
		r.log.Debug("task branch poll failed again", "err", err, "failures", r.failures, "retry_in", retryIn.Round(time.Millisecond),
			"detail", exec.Detail(err))
		return
	}
	r.last = key
	var fp *gitcli.ForcePushError
	var rw *rewoundError
	var re *gitcli.RemoteError
	switch {
	case errors.As(err, &fp):
		r.log.Error("task branch rewritten: refused, not followed; the watcher keeps polling and stays refused until a person re-anchors",
			"err", err, "re_anchor", fmt.Sprintf("check the branch on the remote, then remove %s and %s: rfhandoff rebuilds the mirror and takes %s/%s as it is then "+
				"(removing the mirror alone is not enough: the anchors file keeps the last tip accepted)",
				r.mirror, mirror.AnchorsPath(r.mirror), fp.Remote, fp.Branch),
			"retry_in", retryIn.Round(time.Millisecond))
	case errors.As(err, &rw):
		r.log.Error("task branch rewritten: refused, not followed; restart the watcher after checking the branch to re-anchor",
			"err", err, "retry_in", retryIn.Round(time.Millisecond))
	case errors.As(err, &re):
		// One attribute per line of the message: a log line stays one line.
		r.log.Warn("task branch poll failed; backing off", "cause", re.Cause.String(), "said", re.Said,
			"what_to_do", re.Hint, "command", re.Command, "failures", r.failures, "retry_in", retryIn.Round(time.Millisecond))
	default:
		r.log.Warn("task branch poll failed; backing off", "err", err, "failures", r.failures, "retry_in", retryIn.Round(time.Millisecond))
	}
}

func (r *reporter) success() {
	if r.failures > 0 {
		r.log.Info("remote reachable again: polling resumed", "failed_polls", r.failures,
			"down_for", r.now().Sub(r.since).Round(time.Millisecond))
	}
	r.failures, r.last = 0, ""
}
