package capture

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"
)

// rehearsalSamples is four USB blocks: enough looks for the estimate.
const rehearsalSamples = 4 * usbBlockBytes / 2

const rehearsalSuffix = ".rehearsal"

// rehearsalLead is late, so the rehearsal meets the load the start will
// (other programs; a one-machine demo's other nodes, starting at the same
// moment), and early enough for a slow host to have its figure in time.
const rehearsalLead = 5 * time.Second

// rehearse measures hackrf_transfer's start-up on this host, now (doc.go,
// "A scheduled capture"), so a slow or busy host aims as well as an idle
// one. It must be done by the start the fixed estimate gives.
func (s *session) rehearse(ctx context.Context) error {
	sc := s.sched
	if err := sc.waitUntil(ctx, sc.startAt.Add(-rehearsalLead)); err != nil {
		return err
	}
	path := s.rep.DataPath + rehearsalSuffix
	// Exclusive create: a planted file or symlink is never written through.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fmt.Errorf("the start-up rehearsal's file: %w (remove it if no capture of this task is running)", err)
	}
	f.Close()
	defer os.Remove(path)

	p := s.params
	p.OutPath, p.NumSamples, p.Trigger = path, rehearsalSamples, false
	rctx, cancel := context.WithDeadline(ctx, sc.startAt)
	defer cancel()
	started := time.Now()
	first := newFirstSample(p.SampleRateHz, started)
	var line startLine
	rcv, err := s.hc.StartReceive(rctx, p, line.onLine)
	if err != nil {
		return fmt.Errorf("the start-up rehearsal (hackrf_transfer -n %d): %w", p.NumSamples, err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := rcv.Wait()
		done <- err
	}()
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	var waitErr error
	for ended := false; !ended; {
		select {
		case waitErr = <-done:
			ended = true
		case <-tick.C:
		}
		if st, err := os.Stat(path); err == nil {
			first.observe(time.Now(), st.Size())
		}
	}
	if !first.seen() {
		why := "it wrote no sample"
		if waitErr != nil {
			why += ": " + waitErr.Error()
		}
		if errors.Is(rctx.Err(), context.DeadlineExceeded) {
			why += " before the capture had to start"
		}
		return fmt.Errorf("the start-up rehearsal (hackrf_transfer -n %d to %s): %s; nothing was captured", p.NumSamples, path, why)
	}
	// PPS aims the arming (the start line), HOST_CLOCK the first sample.
	sc.latency = max(first.at().Sub(started), 0)
	if armed := line.seen(); sc.trigger && !armed.IsZero() {
		sc.latency = max(armed.Sub(started), 0)
	}
	s.d.Logger.Info("start-up rehearsed", "task_id", s.rep.TaskID, "start_up", sc.latency, "first_sample_after", first.at().Sub(started))
	return sc.aim()
}
