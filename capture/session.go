package capture

import (
	"context"
	"crypto/sha256"
	"crypto/sha512"
	"errors"
	"fmt"
	"hash"
	"io/fs"
	"os"
	"rfhandoff/notify"
	"sync/atomic"
	"time"

	"rfhandoff/hackrfcli"
	"rfhandoff/publish"
	"rfhandoff/quicklook"
	"rfhandoff/result"
	"rfhandoff/state"
	"rfhandoff/taskfetch"
)

// session is one capture from the reserved file to COMPLETE.
type session struct {
	d        Deps
	o        Options
	hc       *hackrfcli.Client
	cur      *taskfetch.Current
	info     hackrfcli.Info
	board    hackrfcli.Board
	stateDir string
	rep      *Report

	params hackrfcli.RxParams
	facts  liveFacts
	// first estimates the first sample's time from every look at the file.
	first *firstSample

	sha256, sha512 hash.Hash
	an             *quicklook.Analyzer
	fol            *follower // SHA-256 and analyzer: what COMPLETE waits for
	fol512         *follower // SHA-512 for the SigMF file, in the background
	// completeDue is set when the tool has exited and cleared once
	// COMPLETE was published (or given up): meanwhile fol512 reads nothing.
	completeDue atomic.Bool

	rcv        *hackrfcli.Receive
	cancelProc context.CancelFunc
	exited     chan struct{} // closed when the tool's exit was collected
	res        hackrfcli.ReceiveResult
	waitErr    error

	prog *progress

	// record is this capture's capture_in_progress as last written to the
	// state, nil when none is (record.go).
	record *state.CaptureInProgress
}

// run reserves the file, starts the tool, and sees the capture through.
func (s *session) run(ctx context.Context) (*Report, error) {
	p := s.d.Policy
	rep := s.rep
	// Exclusive create: an existing capture of this task is never
	// overwritten, and a symlink planted there is not followed.
	f, err := os.OpenFile(rep.DataPath, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return nil, fmt.Errorf("a capture of this task already exists at %s; it is never overwritten (a new capture needs a new TASK_ID)", rep.DataPath)
	}
	if err != nil {
		return nil, fmt.Errorf("creating the capture file: %w", err)
	}
	f.Close()

	s.params = hackrfcli.RxParams{
		FrequencyHz: p.Capture.FrequencyHz, SampleRateHz: p.Capture.SampleRateHz,
		LNAGainDB: p.Capture.LNAGainDB, VGAGainDB: p.Capture.VGAGainDB, Amp: p.Capture.Amp,
		NumSamples: p.Capture.SampleRateHz * int64(p.Limits.PlannedDurationS),
		Serial:     s.hc.Serial, OutPath: rep.DataPath,
	}
	if err := s.params.Validate(); err != nil {
		s.void()
		return nil, fmt.Errorf("capture parameters from the policy: %w", err)
	}
	planned := time.Duration(p.Limits.PlannedDurationS) * time.Second
	s.sha256, s.sha512 = sha256.New(), sha512.New()
	s.an = quicklook.NewAnalyzer(quicklook.Params{
		SampleRateHz: p.Capture.SampleRateHz, FrequencyHz: p.Capture.FrequencyHz, PlannedDuration: planned,
	})
	if s.fol, err = follow(rep.DataPath, s.sha256, s.an); err != nil {
		s.void()
		return nil, fmt.Errorf("reading the capture file: %w", err)
	}
	// The background SHA-512 reads only while the foreground reader has
	// caught up with the file, and not from the tool's exit to COMPLETE:
	// the CPU goes to what COMPLETE waits for first.
	mayRead := func() bool { return s.fol.caughtUp() && !s.completeDue.Load() }
	if s.fol512, err = followBehind(rep.DataPath, mayRead, s.sha512); err != nil {
		s.fol.wait()
		s.void()
		return nil, fmt.Errorf("reading the capture file: %w", err)
	}
	s.prog = &progress{
		w: s.d.Progress, terminal: s.d.Terminal, every: s.o.ProgressEvery,
		taskID: rep.TaskID, planned: planned, total: s.params.Bytes(),
	}

	// The tool's context is not the caller's: a signal to rfhandoff is
	// relayed as SIGINT (so the tool ends cleanly and COMPLETE can follow),
	// and only cancelProc kills it.
	procCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	s.cancelProc = cancel
	defer cancel()
	rep.ProcessStarted = now()
	s.first = newFirstSample(s.params.SampleRateHz, rep.ProcessStarted)
	s.rcv, err = s.hc.StartReceive(procCtx, s.params, nil)
	if err != nil {
		s.stopReaders()
		s.void()
		return nil, &StartError{Reason: "hackrf_transfer could not be started", Err: err}
	}
	s.exited = make(chan struct{})
	go func() {
		s.res, s.waitErr = s.rcv.Wait()
		rep.ProcessEnded = time.Now()
		s.completeDue.Store(true)
		s.fol.writerDone()
		s.fol512.writerDone()
		close(s.exited)
	}()
	s.d.Logger.Info("capture started", "task_id", rep.TaskID, "pid", s.rcv.Pid(), "file", rep.DataPath,
		"frequency_hz", s.params.FrequencyHz, "sample_rate_hz", s.params.SampleRateHz, "samples", s.params.NumSamples)
	s.d.Notify.Notify(notify.CaptureStarted(notify.Task{ID: rep.TaskID}, s.rcv.Pid()))

	if err := s.confirm(ctx); err != nil {
		s.stopTool()
		s.stopReaders()
		s.void()
		if ctx.Err() != nil {
			return nil, &InterruptedError{Cause: context.Cause(ctx)}
		}
		return nil, err
	}
	head, err := s.d.Git.Head(context.WithoutCancel(ctx))
	if err != nil {
		s.stopTool()
		s.stopReaders()
		s.void()
		return nil, fmt.Errorf("reading the RX checkout's HEAD: %w", err)
	}
	s.facts = liveFacts{
		taskID: rep.TaskID, sourceHead: head, startedAt: rep.ProcessStarted,
		plannedS: int64(p.Limits.PlannedDurationS), freqHz: s.params.FrequencyHz,
		rateHz: s.params.SampleRateHz, pid: s.rcv.Pid(),
	}
	return s.afterStart(ctx)
}

// afterStart publishes READY, watches the capture, and publishes COMPLETE.
func (s *session) afterStart(ctx context.Context) (*Report, error) {
	rep := s.rep
	// Recorded first: if rfhandoff is killed from here on, the next rx
	// capture or rx watch publishes COMPLETE for this capture.
	if err := s.recordStart(); err != nil {
		s.stopTool()
		s.stopReaders()
		s.void()
		return nil, fmt.Errorf("recording the capture in the RX state before READY (capture_in_progress): %w; the capture was stopped and nothing was published", err)
	}
	rep.Ready = ready(s.facts, now())
	out, err := s.publish(ctx, rep.Ready, nil)
	if err != nil {
		// A refused check happens before any clone: nothing reached git,
		// so the capture is void. A later failure may have pushed READY:
		// supersede it with an honest COMPLETE.
		s.stopTool()
		var ce *publish.CheckError
		if errors.As(err, &ce) {
			s.stopReaders()
			s.void()
			s.forgetRecord()
			return nil, &PublishError{State: string(result.StateReady), Err: err}
		}
		_, cerr := s.finish(ctx, endState{reason: fmt.Sprintf("READY could not be published (%v); the capture was stopped", err)})
		return rep, &PublishError{State: string(result.StateReady), Err: err, CompletePublished: cerr == nil}
	}
	rep.ReadyCommit, rep.ReadyPublished = out.Commit, time.Now()
	s.recordReady(out.Commit)
	s.d.Logger.Info("READY published", "task_id", rep.TaskID, "commit", out.Commit)

	end := s.watch(ctx)
	return s.finish(ctx, end)
}

// confirm waits until the tool is alive and its file has grown between
// two readings ConfirmGap apart, within StartupTimeout.
func (s *session) confirm(ctx context.Context) error {
	deadline := time.Now().Add(s.o.StartupTimeout)
	poll := time.NewTicker(50 * time.Millisecond)
	defer poll.Stop()
	first := int64(-1)
	var firstAt time.Time
	for {
		select {
		case <-s.exited:
			return s.startFailure("hackrf_transfer exited before the capture was confirmed")
		case <-ctx.Done():
			return context.Cause(ctx)
		case <-poll.C:
		}
		size := s.size()
		switch {
		case first < 0 && size > 0:
			first, firstAt = size, time.Now()
		case first >= 0 && time.Since(firstAt) >= s.o.ConfirmGap:
			if size > first {
				// Both readings were taken while the tool was alive; make
				// sure it still is now.
				select {
				case <-s.exited:
					return s.startFailure("hackrf_transfer exited before the capture was confirmed")
				default:
				}
				return nil
			}
			first, firstAt = size, time.Now()
		}
		if time.Now().After(deadline) {
			return &StartError{Reason: fmt.Sprintf("the capture file did not grow within %s", s.o.StartupTimeout),
				StderrTail: s.stderrSoFar()}
		}
	}
}

// startFailure describes a tool that exited during startup.
func (s *session) startFailure(reason string) error {
	code := s.res.ExitCode
	e := &StartError{Reason: reason, ExitCode: &code, StderrTail: string(s.res.StderrTail), Err: s.waitErr}
	if s.res.ExitCode == 0 && s.res.Stats.Reason == hackrfcli.ExitFinished {
		e.Reason = "hackrf_transfer finished all its samples before the capture could be confirmed and READY published"
	}
	return e
}

func (s *session) stderrSoFar() string {
	st := s.rcv.Stats()
	if len(st.Errors) > 0 {
		return st.Errors[len(st.Errors)-1]
	}
	if len(st.Failures) > 0 {
		return st.Failures[len(st.Failures)-1].Error()
	}
	return ""
}

// size is the capture file's size now (0 when it cannot be read). Every
// reading also tightens the estimate of the first sample's time.
func (s *session) size() int64 {
	st, err := os.Stat(s.rep.DataPath)
	if err != nil {
		return 0
	}
	s.first.observe(time.Now(), st.Size())
	return st.Size()
}

// stopTool interrupts the tool (SIGINT to its group), waits Grace for it
// to end, then kills it.
func (s *session) stopTool() {
	select {
	case <-s.exited:
		return
	default:
	}
	_ = s.rcv.Interrupt()
	t := time.NewTimer(s.o.Grace)
	defer t.Stop()
	select {
	case <-s.exited:
	case <-t.C:
		s.d.Logger.Warn("hackrf_transfer ignored SIGINT; killing it", "pid", s.rcv.Pid(), "grace", s.o.Grace)
		s.cancelProc()
		<-s.exited
	}
}

// stopReaders stops both readers of a capture that is void: nothing of
// it will be published, so the background hash is not finished.
func (s *session) stopReaders() {
	s.fol.wait()
	s.fol512.abandon()
}

// void removes the data file of a capture that was never announced.
func (s *session) void() {
	if err := os.Remove(s.rep.DataPath); err != nil && !errors.Is(err, fs.ErrNotExist) {
		s.d.Logger.Warn("could not remove the void capture file", "file", s.rep.DataPath, "err", err)
		return
	}
	s.d.Logger.Info("removed the capture file of a capture that never became READY", "file", s.rep.DataPath)
}

// publish writes r beside the capture and publishes it with a context a
// signal does not cancel, so a push is never torn in half.
func (s *session) publish(ctx context.Context, r *result.Result, notes []string) (publish.Outcome, error) {
	data, err := result.Encode(r)
	if err != nil {
		return publish.Outcome{}, err
	}
	if err := state.WriteFileAtomic(s.rep.ResultPath, data, 0o644); err != nil {
		s.d.Logger.Warn("could not keep a local copy of the result", "err", err)
	} else if r.State == result.StateComplete {
		s.recordComplete(data, notes)
	}
	pctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.o.PublishTimeout)
	defer cancel()
	s.prog.clear()
	return publish.Publish(pctx, publish.Deps{
		Git: s.d.Git, Runner: s.d.Runner, Policy: s.d.Policy, StateDir: s.stateDir,
		Audit: s.d.Audit, Notes: notes, Logger: s.d.Logger,
	}, data)
}
