package capture

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"rfhandoff/config"
	"rfhandoff/exec"
	"rfhandoff/hackrfcli"
	"rfhandoff/internal/gittest"
	"rfhandoff/internal/publishtest"
	"rfhandoff/internal/sigmftest"
	"rfhandoff/node"
	"rfhandoff/publish"
	"rfhandoff/result"
	"rfhandoff/state"
)

// TestCaptureRecordLifecycle: the capture is recorded in the RX state
// while READY stands, with what a recovery needs, and the record is gone
// once COMPLETE is published.
func TestCaptureRecordLifecycle(t *testing.T) {
	t.Parallel()
	w := newWorld(t, "", publishtest.Options{}, func(p *config.Policy) { p.Limits.PlannedDurationS = 15 })
	base := w.ResultTip(t)
	done := make(chan error, 1)
	var rep *Report
	go func() {
		var err error
		rep, err = w.run(t, t.Context(), opts())
		done <- err
	}()
	readyCommit := w.waitForTip(t, base, runDeadline)
	var rec *state.CaptureInProgress
	deadline := time.Now().Add(time.Minute)
	for rec == nil || !rec.ReadyPublished {
		if time.Now().After(deadline) {
			t.Fatalf("no record with ready_published after READY was published: %+v", rec)
		}
		time.Sleep(20 * time.Millisecond)
		st, err := state.LoadRX(w.StateDir)
		if err != nil {
			t.Fatal(err)
		}
		rec = st.CaptureInProgress
	}
	rd := w.resultCommits(t, base)[0]
	abs, _ := filepath.Abs(filepath.Join(w.Policy.CaptureDir(), publishtest.TaskID, publishtest.TaskID+DataSuffix))
	if rec.TaskID != publishtest.TaskID || rec.DataPath != abs || int64(rec.CapturePID) != rd.CapturePID ||
		rec.RfhandoffPID != os.Getpid() || !rec.StartedAt.Equal(rd.CaptureStartedAt) || rec.SourceHead != rd.SourceHead ||
		rec.PlannedDurationS != 15 || rec.FrequencyHz != rd.FrequencyHz || rec.SampleRateHz != rd.SampleRateHz ||
		rec.ReadyCommit != readyCommit || rec.CompleteSHA256 != "" {
		t.Errorf("record while READY stands = %+v\nREADY = %+v", rec, rd)
	}
	// The tool is still recording: its start now is the one recorded.
	if start, ok := exec.ProcessStart(rec.CapturePID); ok != (rec.CaptureStart != 0) || start != rec.CaptureStart {
		t.Errorf("capture_start = %d, hackrf_transfer's start %d (%v)", rec.CaptureStart, start, ok)
	}
	if err := <-done; err != nil {
		t.Fatalf("Run: %v", err)
	}
	st, err := state.LoadRX(w.StateDir)
	if err != nil || st.CaptureInProgress != nil {
		t.Fatalf("after COMPLETE: capture_in_progress = %+v, %v; want none", st.CaptureInProgress, err)
	}
	if rep.CompleteCommit == "" {
		t.Fatal("no COMPLETE published")
	}
}

// orphan is the situation a SIGKILLed rx capture leaves: hackrf_transfer
// still recording into the capture file, READY on the result branch, the
// record in the state, and nobody holding the capture lock.
type orphan struct {
	rec  *state.CaptureInProgress
	rcv  *hackrfcli.Receive
	base string // the result branch before READY
}

// newOrphan starts hackrf_transfer for the world's task (as the test's
// child, so the recovery must stop it itself), waits until its file grows,
// publishes READY and records the capture as a killed rx capture would
// have. With noTool the tool is not started: the file is written here.
func newOrphan(t *testing.T, w *world, noTool bool) *orphan {
	t.Helper()
	return newOrphanOf(t, w, noTool, "")
}

// newOrphanOf is newOrphan for the node named nodeName of a task with
// RX_NODES ("" for a single-node task): its recording, READY and record
// carry the name (PROTOCOL#several-nodes).
func newOrphanOf(t *testing.T, w *world, noTool bool, nodeName string) *orphan {
	t.Helper()
	p := w.Policy
	dir := filepath.Join(p.CaptureDir(), publishtest.TaskID)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	rec := publishtest.TaskID
	if nodeName != "" {
		rec = node.Recording(rec, nodeName)
	}
	path, _ := filepath.Abs(filepath.Join(dir, rec+DataSuffix))
	// The rx capture that "was killed": a real process, already gone.
	gone, err := w.Stack.Run(t.Context(), exec.Cmd{Tool: exec.Git, Dir: w.Checkout, Args: []string{"rev-parse", "HEAD"}})
	if err != nil {
		t.Fatal(err)
	}
	o := &orphan{base: w.ResultTip(t)}
	started := now()
	pid := gone.Pid // a dead pid for the tool too, when there is none
	if noTool {
		if err := os.WriteFile(path, []byte(strings.Repeat("\x01\xfe", 4096)), 0o644); err != nil {
			t.Fatal(err)
		}
	} else {
		hc := &hackrfcli.Client{R: w.Stack, Timeout: time.Minute}
		o.rcv, err = hc.StartReceive(context.WithoutCancel(t.Context()), hackrfcli.RxParams{
			FrequencyHz: p.Capture.FrequencyHz, SampleRateHz: p.Capture.SampleRateHz,
			LNAGainDB: p.Capture.LNAGainDB, VGAGainDB: p.Capture.VGAGainDB,
			NumSamples: p.Capture.SampleRateHz * int64(p.Limits.PlannedDurationS), OutPath: path,
		}, nil)
		if err != nil {
			t.Fatal(err)
		}
		pid = o.rcv.Pid()
		// Reaped when it ends, as init would reap a real orphan.
		go func() { _, _ = o.rcv.Wait() }()
		t.Cleanup(func() { _ = o.rcv.Interrupt() })
		deadline := time.Now().Add(time.Minute)
		for st, err := os.Stat(path); err != nil || st.Size() == 0; st, err = os.Stat(path) {
			if time.Now().After(deadline) {
				t.Fatal("the orphan's file did not grow")
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	f := liveFacts{taskID: publishtest.TaskID, sourceHead: w.Head, startedAt: started,
		plannedS: int64(p.Limits.PlannedDurationS), freqHz: p.Capture.FrequencyHz, rateHz: p.Capture.SampleRateHz, pid: pid}
	data, err := result.Encode(ready(f, now()))
	if nodeName != "" {
		data, err = result.EncodeNode(ready(f, now()), result.NodeFields{Node: nodeName})
	}
	if err != nil {
		t.Fatal(err)
	}
	out, err := publish.Publish(t.Context(), publish.Deps{Git: w.Git(), Runner: w.Stack, Policy: p,
		StateDir: w.StateDir, Audit: w.Stack.AuditLog()}, data)
	if err != nil {
		t.Fatal(err)
	}
	start, _ := exec.ProcessStart(pid)
	o.rec = &state.CaptureInProgress{TaskID: publishtest.TaskID, DataPath: path, CapturePID: pid, CaptureStart: start,
		RfhandoffPID: gone.Pid, StartedAt: started, SourceHead: w.Head, PlannedDurationS: f.plannedS,
		FrequencyHz: f.freqHz, SampleRateHz: f.rateHz, ReadyPublished: true, ReadyCommit: out.Commit,
		CompleteNotes: []string{}, Node: nodeName, Capture: new(p.CapturePlan())}
	setRecord(t, w, o.rec)
	return o
}

func setRecord(t *testing.T, w *world, rec *state.CaptureInProgress) {
	t.Helper()
	if _, err := (&state.RXStore{Dir: w.StateDir}).Update(func(st *state.RX) error {
		st.CaptureInProgress = rec
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

func record(t *testing.T, w *world) *state.CaptureInProgress {
	t.Helper()
	st, err := state.LoadRX(w.StateDir)
	if err != nil {
		t.Fatal(err)
	}
	return st.CaptureInProgress
}

// TestRecoverPublishesHonestComplete: a capture whose rfhandoff is gone,
// with its hackrf_transfer still recording, gets COMPLETE from the
// recovery: the tool stopped, exit code -1, the file's real size and
// SHA-256, its mtime as the end, common_clock_verified false; the record
// cleared. A recovery cut short after publishing (record not cleared)
// publishes the identical COMPLETE again: the publisher's no-op.
func TestRecoverPublishesHonestComplete(t *testing.T) {
	t.Parallel()
	w := newWorld(t, "", publishtest.Options{}, func(p *config.Policy) { p.Limits.PlannedDurationS = 60 })
	o := newOrphan(t, w, false)
	// The killed rfhandoff died inside the writes beside the capture.
	dir := filepath.Dir(o.rec.DataPath)
	meta := filepath.Base(strings.TrimSuffix(o.rec.DataPath, DataSuffix) + MetaSuffix)
	stale := []string{
		filepath.Join(dir, "."+ResultName+".tmp-123456"),
		filepath.Join(dir, "."+meta+".tmp-654321"),
	}
	for _, p := range stale {
		if err := os.WriteFile(p, []byte(`{"half":`), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	opt := opts()
	opt.Grace = 500 * time.Millisecond // then SIGINT: the tool is the test's child, no parent-death signal comes
	got, err := Recover(t.Context(), w.deps(t), opt)
	if err != nil {
		t.Fatalf("Recover: %v", err)
	}
	for _, p := range stale {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("the killed writer's temp file %s is still there: %v", p, err)
		}
	}
	if got == nil || got.NoOp || got.Reused || !strings.Contains(got.Tool, orphanStopped) {
		t.Fatalf("Recover = %+v", got)
	}
	if isCaptureTool(o.rec.CapturePID, o.rec.DataPath) {
		t.Fatal("the orphaned hackrf_transfer still runs after the recovery")
	}
	rs := w.resultCommits(t, o.base)
	if len(rs) != 2 || rs[0].State != result.StateReady || rs[1].State != result.StateComplete {
		t.Fatalf("result branch after the recovery: %d commits, want READY then COMPLETE", len(rs))
	}
	cp := rs[1]
	sum, _, size := fileSums(t, o.rec.DataPath)
	st, err := os.Stat(o.rec.DataPath)
	if err != nil {
		t.Fatal(err)
	}
	if size == 0 || size >= 2*w.Policy.Capture.SampleRateHz*60 {
		t.Errorf("file size %d: want a capture cut short", size)
	}
	if *cp.CaptureExitCode != -1 || *cp.CaptureSHA256 != sum || *cp.CaptureSizeBytes != size ||
		*cp.CaptureDurationS != float64(size/2)/float64(w.Policy.Capture.SampleRateHz) {
		t.Errorf("COMPLETE exit %d sha %s size %d duration %v; file %s %d", *cp.CaptureExitCode, *cp.CaptureSHA256,
			*cp.CaptureSizeBytes, *cp.CaptureDurationS, sum, size)
	}
	if !cp.CaptureEndedAt.Equal(st.ModTime().UTC().Truncate(time.Millisecond)) {
		t.Errorf("capture_ended_at %s, the file's mtime %s", cp.CaptureEndedAt, st.ModTime())
	}
	if cp.CommonClockVerified || *cp.ClkinAfter != result.ClkinDetected || *cp.RFTXObserved != result.RFTXUnknown ||
		cp.Overruns != nil || cp.DroppedFrames != nil {
		t.Errorf("COMPLETE = %+v", cp)
	}
	if cp.CapturePID != int64(o.rec.CapturePID) || !cp.CaptureStartedAt.Equal(o.rec.StartedAt) || cp.SourceHead != w.Head {
		t.Errorf("COMPLETE does not describe the recorded capture: %+v", cp)
	}
	md := w.resultMarkdown(t)
	for _, want := range []string{"Capture interrupted: rfhandoff (pid", "capture_exit_code is -1", "read from the file after the fact", o.rec.ReadyCommit} {
		if !strings.Contains(md, want) {
			t.Errorf("RX_RESULT.md lacks %q:\n%s", want, md)
		}
	}
	if r := record(t, w); r != nil {
		t.Fatalf("record left after the recovery: %+v", r)
	}
	// Like a finished capture, it gets its quick-look and SigMF metadata,
	// the latter with the file's SHA-512.
	base := strings.TrimSuffix(o.rec.DataPath, DataSuffix)
	if got.MetaPath != base+MetaSuffix || got.PNGPath != base+PNGSuffix {
		t.Errorf("recovered files: meta %q, png %q", got.MetaPath, got.PNGPath)
	}
	if png, err := os.Stat(base + PNGSuffix); err != nil || png.Size() == 0 {
		t.Errorf("quick-look: %v", err)
	}
	_, sum512, _ := fileSums(t, o.rec.DataPath)
	sigMeta, err := os.ReadFile(base + MetaSuffix)
	if err != nil || !strings.Contains(string(sigMeta), `"core:sha512": "`+sum512+`"`) {
		t.Errorf("SigMF metadata (want sha512 %s): %v\n%s", sum512, err, sigMeta)
	}
	// SigMF 1.2.x, with the gains of the plan recorded in
	// capture_in_progress.
	if err := sigmftest.ValidateMeta(sigMeta); err != nil {
		t.Errorf("recovered SigMF metadata does not validate: %v\n%s", err, sigMeta)
	}
	for _, want := range []string{`"core:version": "1.2.0"`, `"rfhandoff:lna_gain_db": 16`, `"rfhandoff:vga_gain_db": 20`,
		`"rfhandoff:amp": false`, `"rfhandoff:antenna_power": false`} {
		if !strings.Contains(string(sigMeta), want) {
			t.Errorf("recovered SigMF metadata lacks %s:\n%s", want, sigMeta)
		}
	}
	if again, err := Recover(t.Context(), w.deps(t), opt); again != nil || err != nil {
		t.Fatalf("a second Recover = %+v, %v; want nothing to do", again, err)
	}

	// A recovery killed after its push, before clearing the record: the
	// record then holds the COMPLETE it wrote beside the capture.
	local, err := os.ReadFile(got.ResultPath)
	if err != nil {
		t.Fatal(err)
	}
	sum2 := sha256.Sum256(local)
	cut := o.rec.Clone()
	cut.CompleteSHA256, cut.CompleteNotes = hex.EncodeToString(sum2[:]), got.Notes
	setRecord(t, w, cut)
	tip := w.ResultTip(t)
	again, err := Recover(t.Context(), w.deps(t), opt)
	if err != nil {
		t.Fatal(err)
	}
	if !again.NoOp || !again.Reused || again.Commit != tip || w.ResultTip(t) != tip {
		t.Errorf("repeated recovery = %+v (tip %s, was %s); want the publisher's no-op", again, w.ResultTip(t), tip)
	}
	if r := record(t, w); r != nil {
		t.Errorf("record left after the repeated recovery: %+v", r)
	}
}

// TestRecoverRefusedKeepsRecord: when the publisher refuses the COMPLETE
// (here the RX checkout's HEAD is no longer the one READY named), the
// record is kept, rx capture starts nothing new and says what to do, and
// Forget (rx mark-completed) drops it.
func TestRecoverRefusedKeepsRecord(t *testing.T) {
	t.Parallel()
	w := newWorld(t, "", publishtest.Options{}, nil)
	o := newOrphan(t, w, true)
	tip := w.ResultTip(t)
	gittest.Git(t, w.Runner, w.Checkout, "commit", "--allow-empty", "-m", "moved on")
	transfers := len(w.auditStarts(t, exec.HackRFTransfer))

	_, err := Recover(t.Context(), w.deps(t), opts())
	var ce *publish.CheckError
	if err == nil || !strings.Contains(err.Error(), "the publisher refuses it, so a person must decide") || !errors.As(err, &ce) || ce.Step != publish.StepSourceHead ||
		!strings.Contains(err.Error(), "rfhandoff rx mark-completed "+publishtest.TaskID) {
		t.Fatalf("Recover = %v; want a refused recovery naming rx mark-completed", err)
	}
	kept := record(t, w)
	if !o.rec.Same(kept) || kept.CompleteSHA256 == "" {
		t.Fatalf("record after a refusal = %+v", kept)
	}
	if w.ResultTip(t) != tip {
		t.Fatal("a refused recovery changed the result branch")
	}

	_, err = w.run(t, t.Context(), opts())
	if err == nil || !strings.Contains(err.Error(), "never got its COMPLETE published, and publishing it now failed") {
		t.Fatalf("Run with an unrecoverable record = %v, want the recovery's failure", err)
	}
	if n := len(w.auditStarts(t, exec.HackRFTransfer)); n != transfers {
		t.Fatalf("Run started hackrf_transfer (%d starts, was %d) with an unrecoverable record", n, transfers)
	}

	dropped, err := Forget(w.StateDir, publishtest.TaskID)
	if err != nil || !o.rec.Same(dropped) || record(t, w) != nil {
		t.Fatalf("Forget = %+v, %v; record now %+v", dropped, err, record(t, w))
	}
}

// TestRecoverPublishesSavedComplete: a COMPLETE whose publish failed (the
// result branch was gone for a moment) stays recorded; the recovery
// publishes exactly the bytes and notes the capture wrote, not a rebuilt
// one. ForgetPublished clears a record whose COMPLETE rx publish-result
// published instead.
func TestRecoverPublishesSavedComplete(t *testing.T) {
	t.Parallel()
	w := newWorld(t, "", publishtest.Options{}, func(p *config.Policy) { p.Limits.PlannedDurationS = 8 })
	base := w.ResultTip(t)
	branch := "refs/heads/" + w.Policy.Repo.ResultBranch
	done, savedAt := make(chan error, 1), make(chan string, 1)
	go func() {
		rep, err := w.run(t, t.Context(), opts())
		if rep != nil {
			savedAt <- rep.ResultPath
		}
		close(savedAt)
		done <- err
	}()
	ready := w.waitForTip(t, base, runDeadline)
	gittest.Git(t, w.Runner, w.Remote.Dir, "update-ref", "-d", branch)
	err := <-done
	if err == nil || !strings.HasPrefix(err.Error(), "publishing CAPTURE_COMPLETE failed: ") ||
		!strings.Contains(err.Error(), "recorded in the RX state: the next rx capture or rx watch publishes it") {
		t.Fatalf("Run = %v; want a recorded COMPLETE that could not be published", err)
	}
	rec := record(t, w)
	saved, rerr := os.ReadFile(<-savedAt)
	sum := sha256.Sum256(saved)
	if rerr != nil || rec == nil || rec.CompleteSHA256 != hex.EncodeToString(sum[:]) || len(rec.CompleteNotes) == 0 {
		t.Fatalf("record after a failed COMPLETE = %+v (%v)", rec, rerr)
	}

	gittest.Git(t, w.Runner, w.Remote.Dir, "update-ref", branch, ready)
	got, err := Recover(t.Context(), w.deps(t), opts())
	if err != nil {
		t.Fatal(err)
	}
	if !got.Reused || got.NoOp || !slices.Equal(got.Notes, rec.CompleteNotes) || *got.Result.CaptureExitCode != 0 {
		t.Fatalf("Recover = %+v", got)
	}
	onBranch := gittest.Git(t, w.Runner, w.Remote.Dir, "show", branch+":"+w.Policy.Repo.ResultDir+"/RX_RESULT.json")
	if onBranch != string(saved) {
		t.Errorf("published COMPLETE differs from the saved one:\n%s\n%s", onBranch, saved)
	}
	if md := w.resultMarkdown(t); !strings.Contains(md, "Capture ended normally") {
		t.Errorf("RX_RESULT.md lacks the capture's own notes:\n%s", md)
	}
	if record(t, w) != nil {
		t.Error("record left after the recovery")
	}

	// rx publish-result of the saved COMPLETE clears the record too.
	setRecord(t, w, rec)
	if cleared, err := ForgetPublished(w.StateDir, []byte("{}")); cleared || err != nil || record(t, w) == nil {
		t.Fatalf("ForgetPublished of other bytes = %v, %v", cleared, err)
	}
	if cleared, err := ForgetPublished(w.StateDir, saved); !cleared || err != nil || record(t, w) != nil {
		t.Fatalf("ForgetPublished of the saved COMPLETE = %v, %v", cleared, err)
	}
}

// TestRecoverNodeComplete: a killed capture of a node of a task with
// RX_NODES gets a node COMPLETE from the recovery: schema_version 2, the
// recorded node, and no metadata digest (no SigMF file is written for a
// recovered capture).
func TestRecoverNodeComplete(t *testing.T) {
	t.Parallel()
	w := newWorld(t, "", publishtest.Options{RXNodes: "rx-a, rx-b", NodeName: "rx-b"}, nil)
	o := newOrphanOf(t, w, true, "rx-b")
	got, err := Recover(t.Context(), w.deps(t), opts())
	if err != nil {
		t.Fatalf("Recover: %v", err)
	}
	if got == nil || got.Result.State != result.StateComplete || got.Result.SchemaVersion != result.NodeSchemaVersion {
		t.Fatalf("Recover = %+v", got)
	}
	tip := w.ResultTip(t)
	data := gittest.Git(t, w.Runner, w.Remote.Dir, "show", tip+":"+w.Policy.Repo.ResultDir+"/RX_RESULT.json")
	r, nf, err := result.DecodeNode([]byte(data), result.Options{Node: "rx-b"})
	if err != nil {
		t.Fatal(err)
	}
	if nf.SigMFMetaSHA512 != nil || *r.CaptureExitCode != -1 || r.CapturePID != int64(o.rec.CapturePID) {
		t.Errorf("recovered COMPLETE %+v %+v", r, nf)
	}
}

// TestRunReportsItsRecovery: Run recovers a killed capture under its own
// lock and tells Deps.Recovered, once, before anything new starts; the
// result branch gets that one COMPLETE.
func TestRunReportsItsRecovery(t *testing.T) {
	t.Parallel()
	w := newWorld(t, "", publishtest.Options{}, nil)
	o := newOrphan(t, w, true)
	d := w.deps(t)
	var told []*Recovered
	d.Recovered = func(r *Recovered) { told = append(told, r) }
	ctx, cancel := context.WithTimeout(t.Context(), runDeadline)
	defer cancel()
	_, err := Run(ctx, d, opts())
	if len(told) != 1 || told[0].Record.TaskID != o.rec.TaskID || told[0].Commit == "" || told[0].NoOp {
		t.Fatalf("Deps.Recovered told %d times (%+v); want once, with the published COMPLETE", len(told), told)
	}
	// The task's capture file is the recovered one: Run starts nothing new.
	if err == nil || !strings.Contains(err.Error(), "a capture of this task already exists") {
		t.Errorf("Run after the recovery = %v", err)
	}
	rs := w.resultCommits(t, o.base)
	if len(rs) != 2 || rs[1].State != result.StateComplete || told[0].Commit != w.ResultTip(t) {
		t.Fatalf("result branch after Run: %d commits, want READY then the recovered COMPLETE", len(rs))
	}
	if record(t, w) != nil {
		t.Error("record left after the recovery")
	}
}
