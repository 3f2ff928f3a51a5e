package capture

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"rfhandoff/hackrfcli"
	"rfhandoff/publish"
	"rfhandoff/quicklook"
	"rfhandoff/result"
)

// finish runs once the tool has ended (or is being stopped): it collects
// the outcome, publishes COMPLETE, then writes the SigMF metadata and the
// quick-look PNG. The error says how the capture ended when that was not
// normal.
func (s *session) finish(ctx context.Context, end endState) (*Report, error) {
	rep := s.rep
	<-s.exited
	p := s.d.Policy

	read, ferr := s.fol.wait()
	rep.Drained = time.Now()
	rep.SHA256Done, rep.AnalysisDone = s.fol.sinkDone(0), s.fol.sinkDone(2)
	size := s.size()
	sum256 := hex.EncodeToString(s.sha256.Sum(nil))
	sum512 := hex.EncodeToString(s.sha512.Sum(nil))
	analysis := s.an.Finish()
	var notes []string
	if ferr != nil || read != size {
		// The streaming reader did not see exactly the file's bytes (a
		// read error, or the file changed under it): the hashes must still
		// describe the file, so read it once more; the spectrogram cannot
		// be trusted.
		s.d.Logger.Warn("the streaming reader and the file disagree; hashing the file again", "read", read, "size", size, "err", ferr)
		notes = append(notes, fmt.Sprintf("The streaming reader saw %d bytes but the file holds %d (%v); the hashes were computed again from the file and the energy detector's verdict is withheld.", read, size, ferr))
		var err error
		if sum256, sum512, size, err = hashFile(rep.DataPath); err != nil {
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

	pubErr := s.publishComplete(ctx, e, notes)
	s.writeSidecars(sum512, reason, det, analysis)

	switch {
	case pubErr != nil:
		return rep, &PublishError{State: string(result.StateComplete), Saved: rep.ResultPath, Err: pubErr}
	case end.interrupted:
		return rep, &InterruptedError{Cause: end.cause, Published: true}
	case kind != "":
		return rep, &FailedError{Kind: kind, Reason: reason, Published: true}
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
		out, err = s.publish(ctx, rep.Complete, notes)
		if err == nil {
			rep.CompleteCommit = out.Commit
			rep.CompletePublished = time.Now()
			s.d.Logger.Info("COMPLETE published", "task_id", rep.TaskID, "commit", out.Commit)
			return nil
		}
		var ce *publish.CheckError
		if errors.As(err, &ce) {
			break
		}
		s.d.Logger.Warn("publishing COMPLETE failed", "attempt", attempt, "of", s.o.CompleteAttempts, "err", err)
	}
	return err
}

// classify says how the capture ended: kind "" is a normal end; reason is
// one line for RX_RESULT.md, the SigMF description and the operator.
func (s *session) classify(end endState, size int64) (kind, reason string) {
	want := s.params.Bytes()
	st := s.res.Stats
	held := fmt.Sprintf("the file holds %d bytes (%.2f s of signal) of the planned %d bytes", size, float64(size/2)/float64(s.params.SampleRateHz), want)
	full := size == want
	switch {
	case end.interrupted:
		return "interrupted", "Capture interrupted: " + end.reason + "; " + held + "."
	case end.stalled:
		return "stall", "Capture stalled: " + end.reason + "; " + held + "."
	case end.reason != "":
		return "exit", "Capture stopped: " + end.reason + "; " + held + "."
	case s.res.ExitCode != 0 && !(full && st.Stalled):
		return "exit", fmt.Sprintf("Capture failed: hackrf_transfer exited with %s after %s%s; %s.",
			exitText(s.res), fmtDur(s.res.Duration), toolDetail(st), held)
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

func exitText(r hackrfcli.ReceiveResult) string {
	if r.Signal != "" {
		return "signal " + r.Signal
	}
	return fmt.Sprintf("status %d", r.ExitCode)
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
	d := quicklook.Detect(a, thresholdDB, time.Duration(minS*float64(time.Second)))
	return &d
}

// writeSidecars writes the SigMF metadata and the quick-look PNG beside
// the capture. Failures are logged: the result is already published.
func (s *session) writeSidecars(sum512, outcome string, det *quicklook.Detection, a *quicklook.Analysis) {
	rep := s.rep
	t := s.cur.Task
	meta := buildMeta(metaInput{
		taskID: t.ID, title: t.Title, sampleRate: s.params.SampleRateHz, frequency: s.params.FrequencyHz,
		started: rep.ProcessStarted, sha512: sum512, hw: hwDescription(s.board),
		toolVersion: s.info.ToolVersion, author: s.d.Author, outcome: outcome, detection: det,
	})
	path := filepath.Join(rep.Dir, rep.TaskID+MetaSuffix)
	if err := writeMeta(path, meta); err != nil {
		s.d.Logger.Warn("could not write the SigMF metadata", "err", err)
	} else {
		rep.MetaPath = path
	}
	if a == nil {
		return
	}
	var d quicklook.Detection
	if det != nil {
		d = *det
	}
	var buf bytes.Buffer
	err := quicklook.RenderPNG(&buf, a, d, quicklook.Meta{
		TaskID: rep.TaskID, Start: rep.ProcessStarted, End: rep.ProcessEnded,
		FrequencyHz: s.params.FrequencyHz, SampleRateHz: s.params.SampleRateHz,
		Source:  filepath.Base(rep.DataPath),
		Details: fmt.Sprintf("LNA %d dB, VGA %d dB, amp %s", s.params.LNAGainDB, s.params.VGAGainDB, onOff(s.params.Amp)),
	})
	if err == nil {
		path = filepath.Join(rep.Dir, rep.TaskID+PNGSuffix)
		if err = writeFileAtomic(path, buf.Bytes(), 0o644); err == nil {
			rep.PNGPath = path
		}
	}
	if err != nil {
		s.d.Logger.Warn("could not write the quick-look PNG", "err", err)
	}
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// hashFile is the fallback second pass, for a streaming read that went
// wrong only.
func hashFile(path string) (string, string, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", "", 0, err
	}
	defer f.Close()
	h256, h512 := sha256.New(), sha512.New()
	n, err := io.Copy(io.MultiWriter(h256, h512), f)
	if err != nil {
		return "", "", 0, err
	}
	return hex.EncodeToString(h256.Sum(nil)), hex.EncodeToString(h512.Sum(nil)), n, nil
}
