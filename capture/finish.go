package capture

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"rfhandoff/hackrfcli"
	"rfhandoff/localfile"
	"rfhandoff/publish"
	"rfhandoff/quicklook"
	"rfhandoff/result"
	"rfhandoff/state"
)

// finish runs once the tool has ended (or is being stopped): SigMF
// metadata, then COMPLETE (a node's carries the metadata's digest,
// PROTOCOL#several-nodes), then the PNG. The error says how an abnormal capture ended.
func (s *session) finish(ctx context.Context, end endState) (*Report, error) {
	rep := s.rep
	<-s.exited
	p := s.d.Policy

	read, ferr := s.fol.wait()
	rep.Drained = time.Now()
	rep.SHA256Done, rep.AnalysisDone = s.fol.sinkDone(0), s.fol.sinkDone(1)
	size := s.size()
	rep.FirstSample = s.first.at()
	sum256 := hex.EncodeToString(s.sha256.Sum(nil))
	analysis := s.an.Finish()
	var notes []string
	if ferr != nil || read != size {
		// The hash must still describe the file, so read it once more; the
		// spectrogram cannot be trusted.
		s.d.Logger.Warn("the streaming reader and the file disagree; hashing the file again", "read", read, "size", size, "err", ferr)
		notes = append(notes, fmt.Sprintf("The streaming reader saw %d bytes but the file holds %d (%v); the hash was computed again from the file and the energy detector's verdict is withheld.", read, size, ferr))
		var err error
		if sum256, size, err = hashFile(rep.DataPath, sha256.New()); err != nil {
			s.fol512.abandon()
			return rep, fmt.Errorf("hashing the capture: %w", err)
		}
		analysis = nil
	}
	det := detect(analysis, p.Capture.DetectThresholdDB, p.Capture.DetectMinS)
	observed := result.RFTXUnknown
	if det != nil && det.Burst {
		observed = result.RFTXExpectedExternal
	}
	rep.Detection = det

	if s.res.Stats.Simulated && !s.facts.simulated {
		// Seen only after READY: COMPLETE says what READY could not.
		s.d.Logger.Warn("hackrf_transfer was rfhandoff's HackRF simulator; COMPLETE says simulated", "task_id", rep.TaskID)
		s.facts.simulated, s.simulated = true, true
	}
	clk, clkNote := s.clockAfter(ctx)
	kind, reason := s.classify(end, size)
	rep.Outcome = reason
	e := ending{
		endedAt: rep.ProcessEnded.UTC().Truncate(time.Millisecond), exitCode: s.res.ExitCode,
		sizeBytes: size, sha256: sum256, overruns: s.res.Stats.Overruns, droppedFrames: s.res.Stats.DroppedFrames,
		clkinAfter: clk, observed: observed,
	}
	notes = append([]string{reason}, notes...)
	if clkNote != "" {
		notes = append(notes, clkNote)
	}
	if det != nil {
		notes = append(notes, strings.Join(det.Notes(), "\n"))
	} else {
		notes = append(notes, "No quick-look analysis: rf_tx_observed = UNKNOWN.")
	}

	s.facts.align = s.alignment(deref(e.overruns, 0))
	s.writeMeta(s.sum512(size), reason, det)
	pubErr := s.publishComplete(ctx, e, notes)
	rep.PNGPath = writeQuicklook(filepath.Join(rep.Dir, rep.Recording+PNGSuffix), analysis, det, quicklook.Meta{
		TaskID: rep.TaskID, Start: rep.FirstSample, End: rep.ProcessEnded,
		FrequencyHz: s.params.FrequencyHz, SampleRateHz: s.params.SampleRateHz,
		Source:    filepath.Base(rep.DataPath),
		Details:   fmt.Sprintf("LNA %d dB, VGA %d dB, amp %s", s.params.LNAGainDB, s.params.VGAGainDB, onOff(s.params.Amp)),
		Simulated: s.simulated,
	}, s.d.Logger)

	switch {
	case pubErr != nil:
		return rep, completeFailed(pubErr, rep.ResultPath, rep.TaskID, s.record != nil && s.record.CompleteSHA256 != "")
	case end.interrupted:
		return rep, interrupted(end.cause, true)
	case kind != "":
		return rep, errors.New(strings.TrimSuffix(reason, ".") + "; an honest COMPLETE was published")
	}
	return rep, nil
}

// publishComplete publishes COMPLETE, trying again (with a fresh
// published_at) after failures other than a refused check.
func (s *session) publishComplete(ctx context.Context, e ending, notes []string) error {
	rep := s.rep
	var err error
	for attempt := 1; attempt <= s.o.CompleteAttempts; attempt++ {
		if attempt > 1 {
			time.Sleep(time.Duration(attempt-1) * time.Second)
		}
		rep.Complete = complete(s.facts, e, now())
		var out publish.Outcome
		out, err = s.publish(ctx, rep.Complete, notes, nil)
		if err == nil {
			rep.CompleteCommit = out.Commit
			rep.CompletePublished = time.Now()
			s.d.Logger.Info("COMPLETE published", "task_id", rep.TaskID, "commit", out.Commit)
			s.forgetRecord()
			return nil
		}
		if _, ok := errors.AsType[*publish.CheckError](err); ok {
			break
		}
		s.d.Logger.Warn("publishing COMPLETE failed", "attempt", attempt, "of", s.o.CompleteAttempts, "err", err)
	}
	// Kept for rx status beside the saved COMPLETE: finished, unpublished, and why.
	s.updateRecord("why COMPLETE was not published", func(r *state.CaptureInProgress) {
		r.CompleteError, r.CompleteRefused = err.Error(), refusedAsIs(err)
	})
	return err
}

// classify says how the capture ended: kind "" is a normal end; reason is
// one line for RX_RESULT.md, the SigMF description and the operator.
func (s *session) classify(end endState, size int64) (kind, reason string) {
	want := s.params.Bytes()
	st := s.res.Stats
	held := fmt.Sprintf("the file holds %d bytes (%.2f s of signal) of the planned %d bytes", size, float64(size/2)/float64(s.params.SampleRateHz), want)
	full := size == want
	exit := fmt.Sprintf("status %d", s.res.ExitCode)
	if s.res.Signal != "" {
		exit = "signal " + s.res.Signal
	}
	switch {
	case end.interrupted:
		return "interrupted", "Capture interrupted: " + end.reason + "; " + held + "."
	case end.stalled:
		return "stall", "Capture stalled: " + end.reason + "; " + held + "."
	case end.reason != "":
		return "exit", "Capture stopped: " + end.reason + "; " + held + "."
	case s.res.ExitCode != 0 && !(full && st.Stalled):
		return "exit", fmt.Sprintf("Capture failed: hackrf_transfer exited with %s after %s%s; %s.",
			exit, fmtDur(s.res.Duration), toolDetail(st), held)
	case s.waitErr != nil && s.res.ExitCode == 0:
		return "exit", fmt.Sprintf("Capture failed: %v; %s.", s.waitErr, held)
	case !full:
		return "short", fmt.Sprintf("Capture short: hackrf_transfer exited 0 but %s%s.", held, toolDetail(st))
	}
	r := fmt.Sprintf("Capture ended normally: hackrf_transfer wrote all %d samples (%d bytes, %.2f s of signal at %d Hz) and exited with status %d.",
		s.params.NumSamples, size, float64(size/2)/float64(s.params.SampleRateHz), s.params.SampleRateHz, s.res.ExitCode)
	if s.res.ExitCode != 0 {
		r += " (Its stall message came after the last sample: the file is complete.)"
	}
	return "", r
}

// toolDetail is what the tool said about its end, for the reason line.
func toolDetail(st hackrfcli.TransferStats) string {
	var parts []string
	if st.Stalled {
		parts = append(parts, "Couldn't transfer any bytes for one second")
	}
	if st.Streaming != "" {
		parts = append(parts, "hackrf_is_streaming() result: "+st.Streaming)
	}
	for _, f := range st.Failures {
		parts = append(parts, f.Call+"() failed: "+f.Text)
	}
	parts = append(parts, st.Errors...)
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, "; ") + ")"
}

// clockAfter runs hackrf_clock -i again. Anything but a clear "detected"
// reads as NOT_DETECTED; a failure is explained in a note.
func (s *session) clockAfter(ctx context.Context) (result.Clkin, string) {
	st, err := s.hc.Clock(context.WithoutCancel(ctx))
	switch {
	case err != nil:
		return result.ClkinNotDetected, fmt.Sprintf("clkin_after: hackrf_clock -i after the capture failed (%v); reported as NOT_DETECTED.", err)
	case st == hackrfcli.ClockDetected:
		return result.ClkinDetected, ""
	}
	return result.ClkinNotDetected, "clkin_after: hackrf_clock -i reported no clock signal on CLKIN after the capture; common_clock_verified is false."
}

// detect runs the energy detector; nil without an analysis.
func detect(a *quicklook.Analysis, thresholdDB, minS float64) *quicklook.Detection {
	if a == nil {
		return nil
	}
	return new(quicklook.Detect(a, thresholdDB, time.Duration(minS*float64(time.Second))))
}

// sum512 waits for the background reader and returns the file's SHA-512,
// read again only if that reader did not see exactly size bytes; "" if none.
func (s *session) sum512(size int64) string {
	read, err := s.fol512.wait()
	s.rep.SHA512Done = time.Now()
	if err == nil && read == size {
		return hex.EncodeToString(s.sha512.Sum(nil))
	}
	s.d.Logger.Warn("the background reader and the file disagree; hashing the file again for the SigMF metadata", "read", read, "size", size, "err", err)
	sum, _, err := hashFile(s.rep.DataPath, sha512.New())
	if err != nil {
		s.d.Logger.Warn("could not hash the capture for the SigMF metadata", "err", err)
		return ""
	}
	return sum
}

// writeMeta writes the SigMF metadata; a failure is logged (COMPLETE then
// carries no digest of it).
func (s *session) writeMeta(sum512, outcome string, det *quicklook.Detection) {
	rep := s.rep
	t := s.cur.Task
	in := metaInput{
		taskID: t.ID, title: t.Title, sampleRate: s.params.SampleRateHz, frequency: s.params.FrequencyHz,
		firstSample: rep.FirstSample, sha512: sum512, hw: hwDescription(s.board),
		toolVersion: s.info.ToolVersion, author: s.d.Author, outcome: outcome, detection: det,
		plan: &s.plan, serial: s.board.Serial, firmware: s.board.FirmwareVersion,
		simulated: s.simulated, collection: collection(t.ID, s.node),
	}
	if a := s.facts.align; a != nil {
		in.firstSample = a.FirstSampleAt
		in.timing = &metaTiming{alignment: *a, timeSource: s.sched.timeSource()}
	}
	rep.MetaPath, rep.MetaSHA512 = saveMeta(filepath.Join(rep.Dir, rep.Recording+MetaSuffix), in, s.d.Logger)
}

// writeQuicklook renders a's PNG to path and returns path; "" without a
// or on a (logged) failure.
func writeQuicklook(path string, a *quicklook.Analysis, det *quicklook.Detection, m quicklook.Meta, log *slog.Logger) string {
	if a == nil {
		return ""
	}
	var buf bytes.Buffer
	err := quicklook.RenderPNG(&buf, a, deref(det, quicklook.Detection{}), m)
	if err == nil {
		err = localfile.WriteFileAtomic(path, buf.Bytes(), 0o644)
	}
	if err != nil {
		log.Warn("could not write the quick-look PNG", "err", err)
		return ""
	}
	return path
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// hashFile is the fallback second pass, only for a streaming read gone
// wrong: the file's hex digest by h, and its size.
func hashFile(path string, h hash.Hash) (string, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	n, err := io.Copy(h, f)
	if err != nil {
		return "", 0, err
	}
	return hex.EncodeToString(h.Sum(nil)), n, nil
}
