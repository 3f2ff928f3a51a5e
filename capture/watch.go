package capture

import (
	"context"
	"fmt"
	"time"
)

// endState is why rfhandoff itself ended a capture early, if it did.
type endState struct {
	interrupted bool  // a signal to rfhandoff
	cause       error // the signal, as context.Cause says
	stalled     bool
	reason      string
}

// watch follows the running capture until the tool exits: progress,
// stalls, and a signal relayed as SIGINT, then a kill after Grace.
func (s *session) watch(ctx context.Context) endState {
	var end endState
	tick := time.NewTicker(s.o.Tick)
	defer tick.Stop()
	var kill <-chan time.Time
	done := ctx.Done()
	lastSize, lastGrowth := s.size(), time.Now()
	stop := func() {
		_ = s.rcv.Interrupt()
		if kill == nil {
			kill = time.After(s.o.Grace)
		}
	}
	for {
		select {
		case <-s.exited:
			s.prog.done(s.sample(time.Now()))
			return end
		case <-done:
			done = nil // seen once; later signals change nothing
			end.interrupted, end.cause = true, context.Cause(ctx)
			end.reason = fmt.Sprintf("rfhandoff was interrupted (%v) %s into the capture; hackrf_transfer was stopped with SIGINT",
				end.cause, fmtDur(time.Since(s.rep.ProcessStarted)))
			s.prog.clear()
			s.d.Logger.Warn("interrupted: stopping hackrf_transfer; COMPLETE follows", "cause", end.cause)
			stop()
		case <-kill:
			kill = nil
			s.prog.clear()
			s.d.Logger.Warn("hackrf_transfer ignored SIGINT; killing it", "pid", s.rcv.Pid(), "grace", s.o.Grace)
			s.cancelProc()
		case t := <-tick.C:
			size := s.size()
			if size > lastSize {
				lastSize, lastGrowth = size, t
			} else if !end.stalled && !end.interrupted && t.Sub(lastGrowth) >= s.o.StallAfter {
				end.stalled = true
				end.reason = fmt.Sprintf("the capture file stopped growing at %d bytes for %s while hackrf_transfer was running; it was stopped with SIGINT",
					size, s.o.StallAfter)
				s.prog.clear()
				s.d.Logger.Warn("capture stalled: stopping hackrf_transfer", "size", size, "for", s.o.StallAfter)
				stop()
			}
			s.prog.update(s.sample(t))
		}
	}
}

func (s *session) sample(t time.Time) sample {
	st := s.rcv.Stats()
	return sample{
		at: t, elapsed: t.Sub(s.rep.ProcessStarted), bytes: s.size(),
		power: st.LastPower, hasPower: st.ProgressLines > 0,
	}
}
