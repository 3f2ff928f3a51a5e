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
	"slices"
	"time"

	"rfhandoff/captureplan"
	"rfhandoff/hackrfcli"
	"rfhandoff/localfile"
	"rfhandoff/notify"
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
	// node is the [node] name of a task with RX_NODES, "" for a
	// single-node task (PROTOCOL#several-nodes).
	node      string
	simulated bool // rfhandoff's HackRF simulator captures, as allowed

	plan   captureplan.Plan // what was approved and runs
	params hackrfcli.RxParams
	facts  liveFacts
	first  *firstSample
	armed  startLine
	sched  *schedule // nil without START_AT

	sha256, sha512 hash.Hash
	an             *quicklook.Analyzer
	fol            *follower // SHA-256 and analyzer: what COMPLETE waits for
	fol512         *follower // SHA-512 for the SigMF file, in the background

	rcv        *hackrfcli.Receive
	cancelProc context.CancelFunc
	exited     chan struct{} // closed when the tool's exit was collected
	res        hackrfcli.ReceiveResult
	waitErr    error

	prog   *progress
	record *state.CaptureInProgress // capture_in_progress as last written, nil when none is
}

// run reserves the file, starts the tool, and sees the capture through.
// Until READY is on the remote the capture is void if anything fails: one
// deferred abort, armed once the file is reserved, undoes what was done,
// so no early return can leave hackrf_transfer running or a file behind
// (PROTOCOL#capture). Once READY may have landed, finish publishes an
// honest COMPLETE instead.
func (s *session) run(ctx context.Context) (*Report, error) {
	rep := s.rep
	// A scheduled start is judged before anything is reserved.
	if sy := s.plan.Sync; sy != nil {
		var err error
		if s.sched, err = s.planSchedule(ctx, *sy); err != nil {
			return nil, err
		}
	}
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
	armed := true
	defer func() {
		if armed {
			s.abort()
		}
		// Only after abort stopped the tool its own way (SIGINT, Grace,
		// kill): else the runner would kill it after its shorter grace.
		if s.cancelProc != nil {
			s.cancelProc()
		}
	}()

	pl := s.plan
	s.params = hackrfcli.RxParams{
		FrequencyHz: pl.FrequencyHz, SampleRateHz: pl.SampleRateHz,
		LNAGainDB: pl.LNAGainDB, VGAGainDB: pl.VGAGainDB, Amp: pl.Amp,
		NumSamples: pl.Samples(), Serial: s.hc.Serial, OutPath: rep.DataPath,
	}
	if err := s.fault(stepParams, s.params.Validate()); err != nil {
		return nil, fmt.Errorf("capture parameters of the plan: %w", err)
	}
	if s.sched != nil {
		if err := s.rehearse(ctx); err != nil {
			return nil, err
		}
	}
	planned := time.Duration(pl.PlannedDurationS) * time.Second
	s.sha256, s.sha512 = sha256.New(), sha512.New()
	s.an = quicklook.NewAnalyzer(quicklook.Params{
		SampleRateHz: pl.SampleRateHz, FrequencyHz: pl.FrequencyHz, PlannedDuration: planned,
	})
	s.fol, err = follow(rep.DataPath, s.sha256, s.an)
	if err := s.fault(stepFollow, err); err != nil {
		return nil, fmt.Errorf("reading the capture file: %w", err)
	}
	// The CPU goes first to the tool, the SHA-256 and the analyzer.
	s.fol512, err = followBehind(rep.DataPath, func() bool { return s.fol.caughtUp() }, s.sha512)
	if err := s.fault(stepFollowBehind, err); err != nil {
		return nil, fmt.Errorf("reading the capture file: %w", err)
	}
	s.prog = &progress{
		w: s.d.Progress, terminal: s.d.Terminal, every: s.o.ProgressEvery,
		taskID: rep.TaskID, planned: planned, total: s.params.Bytes(),
	}

	// Not the caller's context: a signal is relayed as SIGINT (so COMPLETE
	// can follow), and only cancelProc kills the tool.
	procCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	s.cancelProc = cancel
	if s.sched != nil {
		if err := s.sched.waitUntil(ctx, s.sched.startAt); err != nil {
			return nil, err
		}
		s.params.Trigger = s.sched.trigger
	}
	rep.ProcessStarted = now()
	s.first = newFirstSample(s.params.SampleRateHz, rep.ProcessStarted)
	rcv, err := s.hc.StartReceive(procCtx, s.params, s.armed.onLine)
	if err != nil {
		return nil, startFailed("hackrf_transfer could not be started", nil, "", err)
	}
	s.rcv, s.exited = rcv, make(chan struct{})
	go func() {
		s.res, s.waitErr = s.rcv.Wait()
		rep.ProcessEnded = time.Now()
		s.fol.writerDone()
		s.fol512.writerDone()
		close(s.exited)
	}()
	s.d.Logger.Info("capture started", "task_id", rep.TaskID, "pid", s.rcv.Pid(), "file", rep.DataPath,
		"frequency_hz", s.params.FrequencyHz, "sample_rate_hz", s.params.SampleRateHz, "samples", s.params.NumSamples)
	s.d.Notify.Notify(notify.CaptureStarted(notify.FromTask(s.cur.Task), s.rcv.Pid()))
	if err := s.fault(stepStarted, nil); err != nil {
		return nil, err
	}

	confirm := func() error {
		err := s.confirm(ctx)
		if err != nil && ctx.Err() != nil {
			return interrupted(context.Cause(ctx), false)
		}
		return err
	}
	// A scheduled start was rehearsed with nothing beside the tool: its git
	// reads wait until the capture is confirmed (doc.go).
	if s.sched != nil {
		if err := confirm(); err != nil {
			return nil, err
		}
	}
	// HEAD and READY's publish reads run while confirm waits (doc.go).
	headOf := s.d.Git.HeadLater(context.WithoutCancel(ctx))
	prepCtx, cancelPrep := context.WithTimeout(context.WithoutCancel(ctx), s.o.PublishTimeout)
	defer cancelPrep()
	prep, err := publish.Prepare(prepCtx, publishDeps(s.d, s.stateDir, nil))
	if err != nil {
		headOf()
		return nil, err
	}
	defer prep.Close()
	if s.sched == nil {
		err = confirm()
	}
	head, herr := headOf()
	if err != nil {
		return nil, err
	}
	if err := s.fault(stepHead, herr); err != nil {
		return nil, fmt.Errorf("reading the RX checkout's HEAD: %w", err)
	}
	if s.rcv.Stats().Simulated && !s.simulated {
		if err := checkSimulator(s.d, rep.TaskID, "hackrf_transfer answered as rfhandoff's HackRF simulator"); err != nil {
			return nil, err
		}
		s.simulated = true
	}
	s.facts = liveFacts{
		taskID: rep.TaskID, sourceHead: head, startedAt: rep.ProcessStarted,
		plannedS: pl.PlannedDurationS, freqHz: s.params.FrequencyHz,
		rateHz: s.params.SampleRateHz, pid: s.rcv.Pid(), simulated: s.simulated,
	}

	// Recorded first: if rfhandoff is killed from here on, the next rx
	// capture or rx watch publishes COMPLETE for this capture.
	if err := s.fault(stepRecord, s.recordStart()); err != nil {
		return nil, fmt.Errorf("recording the capture in the RX state before READY (capture_in_progress): %w; the capture was stopped and nothing was published", err)
	}
	s.facts.align = s.alignment(0)
	rep.Ready = ready(s.facts, now())
	out, err := s.publish(ctx, rep.Ready, nil, prep)
	if _, ok := errors.AsType[*publish.CheckError](err); ok {
		// Refused before anything was committed or pushed: the capture is void.
		return nil, readyFailed(err, false)
	}
	// READY may be on the remote from here: the capture is no longer void.
	armed = false
	if err != nil {
		// READY may have been pushed: an honest COMPLETE supersedes it.
		s.stopTool()
		_, cerr := s.finish(ctx, endState{reason: fmt.Sprintf("READY could not be published (%v); the capture was stopped", err)})
		return rep, readyFailed(err, cerr == nil)
	}
	rep.ReadyCommit, rep.ReadyPublished = out.Commit, time.Now()
	s.updateRecord("READY's publication", func(r *state.CaptureInProgress) {
		r.ReadyPublished, r.ReadyCommit = true, out.Commit
	})
	s.d.Logger.Info("READY published", "task_id", rep.TaskID, "commit", out.Commit)

	return s.finish(ctx, s.watch(ctx))
}

// The steps before READY where a test's Options.fail may fail the capture
// (after the step's own work, so there is something to undo).
const (
	stepParams       = "params"
	stepFollow       = "follow"
	stepFollowBehind = "follow-behind"
	stepStarted      = "started"
	stepHead         = "head"
	stepRecord       = "record"
	stepPublish      = "publish-" // + the result's state, after the local copy is written
)

// fault is err, or else the failure a test injects at step.
func (s *session) fault(step string, err error) error {
	if err == nil && s.o.fail != nil {
		err = s.o.fail(step)
	}
	return err
}

// abort undoes a capture that never became READY, as far as it got.
func (s *session) abort() {
	if s.rcv != nil {
		s.stopTool()
	}
	if s.fol != nil {
		s.fol.wait()
	}
	if s.fol512 != nil {
		s.fol512.abandon()
	}
	s.void()
	s.forgetRecord()
}

// firstBytePoll is how often confirm stats the file for its first bytes.
const firstBytePoll = 5 * time.Millisecond

// confirm waits, within StartupTimeout, until the tool is alive and its
// file has grown between two readings ConfirmGap apart (doc.go).
func (s *session) confirm(ctx context.Context) error {
	deadline := time.Now().Add(s.o.StartupTimeout)
	wait := time.NewTimer(firstBytePoll)
	defer wait.Stop()
	first := int64(-1)
	var firstAt time.Time
	for {
		select {
		case <-s.exited:
			return s.startFailure("hackrf_transfer exited before the capture was confirmed")
		case <-ctx.Done():
			return context.Cause(ctx)
		case <-wait.C:
		}
		size := s.size()
		next := firstBytePoll
		switch {
		case first >= 0 && time.Since(firstAt) < s.o.ConfirmGap:
			next = s.o.ConfirmGap - time.Since(firstAt)
		case first >= 0 && size > first:
			// Both readings were taken while the tool lived: does it still?
			if closed(s.exited) {
				return s.startFailure("hackrf_transfer exited before the capture was confirmed")
			}
			return nil
		case first >= 0 || size > 0:
			// The first byte, or no growth over ConfirmGap: a new first reading.
			first, firstAt = size, time.Now()
			next = s.o.ConfirmGap
		}
		if time.Now().After(deadline) {
			return startFailed(fmt.Sprintf("the capture file did not grow within %s", s.o.StartupTimeout), nil, s.stderrSoFar(), nil)
		}
		wait.Reset(next)
	}
}

// startFailure describes a tool that exited during startup.
func (s *session) startFailure(reason string) error {
	if s.res.ExitCode == 0 && s.res.Stats.Reason == hackrfcli.ExitFinished {
		reason = "hackrf_transfer finished all its samples before the capture could be confirmed and READY published"
	}
	return startFailed(reason, &s.res.ExitCode, string(s.res.StderrTail), s.waitErr)
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

// size is the capture file's size now (0 when unreadable); every reading
// also tightens the first sample's estimate.
func (s *session) size() int64 {
	st, err := os.Stat(s.rep.DataPath)
	if err != nil {
		return 0
	}
	s.first.observe(time.Now(), st.Size())
	return st.Size()
}

// stopTool interrupts the tool (SIGINT to its group), then kills it after Grace.
func (s *session) stopTool() {
	if closed(s.exited) {
		return
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

// void removes the data file and result copy of a capture never announced.
func (s *session) void() {
	for _, path := range []string{s.rep.DataPath, s.rep.ResultPath} {
		err := os.Remove(path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			s.d.Logger.Warn("could not remove a file of a capture that never became READY", "file", path, "err", err)
		default:
			s.d.Logger.Info("removed a file of a capture that never became READY", "file", path)
		}
	}
}

func publishDeps(d Deps, stateDir string, notes []string) publish.Deps {
	return publish.Deps{
		Git: d.Git, Runner: d.Runner, Policy: d.Policy, StateDir: stateDir,
		Audit: d.Audit, Notes: notes, Logger: d.Logger,
	}
}

// publish writes r beside the capture and publishes it with a context a
// signal does not cancel, so a push is never torn in half; on prep's
// reads when it is not nil (READY's).
func (s *session) publish(ctx context.Context, r *result.Result, notes []string, prep *publish.Prepared) (publish.Outcome, error) {
	data, err := encode(r, s.node, s.rep.MetaSHA512)
	if err != nil {
		return publish.Outcome{}, err
	}
	if err := localfile.WriteFileAtomic(s.rep.ResultPath, data, 0o644); err != nil {
		s.d.Logger.Warn("could not keep a local copy of the result", "err", err)
	} else if r.State == result.StateComplete {
		// A recovery publishes exactly these bytes again.
		s.updateRecord("the COMPLETE about to be published", func(r *state.CaptureInProgress) {
			r.CompleteSHA256, r.CompleteNotes = sha256Hex(data), slices.Clone(notes)
		})
	}
	if err := s.fault(stepPublish+string(r.State), nil); err != nil {
		return publish.Outcome{}, err
	}
	pctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.o.PublishTimeout)
	defer cancel()
	s.prog.clear()
	if prep != nil {
		return prep.Publish(pctx, data)
	}
	return publish.Publish(pctx, publishDeps(s.d, s.stateDir, notes), data)
}

// encode writes r as a single-node result, or for node as a node result
// whose COMPLETE carries metaSHA512 ("": no SigMF metadata was written).
func encode(r *result.Result, node, metaSHA512 string) ([]byte, error) {
	if node == "" {
		return result.Encode(r)
	}
	nf := result.NodeFields{Node: node}
	if r.State == result.StateComplete && metaSHA512 != "" {
		nf.SigMFMetaSHA512 = &metaSHA512
	}
	return result.EncodeNode(r, nf)
}
