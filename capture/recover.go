package capture

import (
	"context"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"rfhandoff/hackrfcli"
	"rfhandoff/localfile"
	"rfhandoff/publish"
	"rfhandoff/quicklook"
	"rfhandoff/result"
	"rfhandoff/state"
)

// Recovered is a COMPLETE published for a capture whose rfhandoff was
// killed (its record was found with the capture lock free).
type Recovered struct {
	Record     state.CaptureInProgress // the record, now cleared
	Result     *result.Result          // the COMPLETE published
	ResultPath string                  // its copy beside the capture
	Commit     string                  // the result branch commit that holds it
	NoOp       bool                    // the branch already held it byte for byte
	Reused     bool                    // the killed rx capture's own COMPLETE, published as it was
	Notes      []string                // the paragraphs RX_RESULT.md was rendered with
	Tool       string                  // how the capture's hackrf_transfer was found to end
	MetaPath   string                  // SigMF metadata written after the COMPLETE, "" when not
	PNGPath    string                  // quick-look written after the COMPLETE, "" when not
}

// Recover publishes an honest COMPLETE for a recorded capture whose
// rfhandoff was killed before COMPLETE was published. It returns nil, nil
// when no capture is recorded, and when another rx capture holds the
// capture lock (that one owns the record).
func Recover(ctx context.Context, d Deps, o Options) (*Recovered, error) {
	d, o, stateDir, l, err := begin(ctx, d, o)
	if errors.Is(err, ErrRunning) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer l.Release()
	return recoverLocked(ctx, d, o, stateDir)
}

// recoverLocked is Recover under the capture lock, which proves the rx
// capture that wrote the record is gone.
func recoverLocked(ctx context.Context, d Deps, o Options, stateDir string) (*Recovered, error) {
	store := &state.RXStore{Dir: stateDir}
	st, err := store.Load()
	if err != nil {
		return nil, err
	}
	rec := st.CaptureInProgress
	if rec == nil {
		return nil, nil
	}
	log := d.Logger.With("task_id", rec.TaskID, "data", rec.DataPath)
	log.Warn("found a capture whose COMPLETE was never published (its rx capture was killed, or could not publish it); publishing it now",
		"rfhandoff_pid", rec.RfhandoffPID, "capture_pid", rec.CapturePID, "ready_published", rec.ReadyPublished,
		"complete_saved", rec.CompleteSHA256 != "")
	// The record is kept (nothing is dropped silently), so no new capture
	// starts until it is dealt with; rx status is told why.
	fail := func(err error) (*Recovered, error) {
		if next := rec.Clone(); next.CompleteSHA256 != "" && (next.CompleteError != err.Error() || next.CompleteRefused != refusedAsIs(err)) {
			next.CompleteError, next.CompleteRefused = err.Error(), refusedAsIs(err)
			if uerr := replaceRecord(store, next, nil); uerr != nil {
				log.Warn("could not record why COMPLETE was not published", "err", uerr)
			}
		}
		then := "the next rx capture or rx watch tries again"
		if _, ok := errors.AsType[*publish.CheckError](err); ok {
			// The task, its approval or HEAD changed: a retry will not help.
			then = fmt.Sprintf("the publisher refuses it, so a person must decide: look at the capture, then run "+
				"`rfhandoff rx mark-completed %s` to drop the record (no new capture runs until then)", rec.TaskID)
		}
		return nil, fmt.Errorf("the capture of task %s (data %s) by rx capture pid %d, which is gone, never got its COMPLETE published, and publishing it now failed: %w; "+
			"the record is kept (capture_in_progress in %s); %s",
			rec.TaskID, rec.DataPath, rec.RfhandoffPID, err, filepath.Join(stateDir, state.RXStateFile), then)
	}

	end, err := endCaptureTool(context.WithoutCancel(ctx), rec.CapturePID, rec.CaptureStart, rec.DataPath, o.Grace, log.Info)
	if err != nil {
		return fail(err)
	}
	out := &Recovered{Record: *rec, ResultPath: filepath.Join(filepath.Dir(rec.DataPath), ResultName), Tool: end.how}
	// A kill inside a write beside the capture leaves its temp file; the
	// capture lock proves no writer owns it.
	for _, p := range []string{out.ResultPath, strings.TrimSuffix(rec.DataPath, DataSuffix) + MetaSuffix} {
		if removed, err := localfile.CleanTemps(p); err != nil {
			return fail(err)
		} else if len(removed) > 0 {
			log.Warn("removed temp files left by a killed writer", "files", removed)
		}
	}
	data, notes, reused := pendingComplete(rec, out.ResultPath, log)
	var scan *fileScan
	if !reused {
		var r *result.Result
		if r, notes, scan, err = rebuildComplete(ctx, d, o, rec, end); err != nil {
			return fail(err)
		}
		// No metadata was written for a recovered COMPLETE.
		if data, err = encode(r, rec.Node, ""); err != nil {
			return fail(err)
		}
		// Kept before publishing, so a recovery cut short repeats these
		// very bytes, never a second, different COMPLETE.
		if err := localfile.WriteFileAtomic(out.ResultPath, data, 0o644); err != nil {
			return fail(err)
		}
		next := rec.Clone()
		next.CompleteSHA256, next.CompleteNotes = sha256Hex(data), notes
		if err := replaceRecord(store, next, errors.New("capture_in_progress changed during the recovery")); err != nil {
			return fail(err)
		}
		rec = next
	}
	if out.Result, err = result.Decode(data, result.Options{Node: result.AnyNode, SyncMode: result.AnySync}); err != nil {
		return fail(err)
	}
	out.Reused, out.Notes = reused, notes

	pctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), o.PublishTimeout)
	defer cancel()
	pub, err := publish.Publish(pctx, publishDeps(d, stateDir, notes), data)
	if err != nil {
		return fail(err)
	}
	out.Commit, out.NoOp = pub.Commit, pub.NoOp
	if _, err := dropRecord(store, rec.Same); err != nil {
		// Published all the same; the next recovery finds it identical.
		log.Warn("COMPLETE published but capture_in_progress could not be cleared", "err", err)
	} else {
		log.Info("capture_in_progress cleared")
	}
	log.Warn("COMPLETE published for the recorded capture",
		"commit", pub.Commit, "already_on_branch", pub.NoOp, "exit_code", *out.Result.CaptureExitCode,
		"size_bytes", *out.Result.CaptureSizeBytes, "sha256", *out.Result.CaptureSHA256)
	recoveredFiles(d, rec, scan, notes, out, log)
	return out, nil
}

// fileScan is one pass over a capture file after the fact.
type fileScan struct {
	size           int64
	sha256, sha512 string
	analysis       *quicklook.Analysis
}

func scanFile(rec *state.CaptureInProgress) (*fileScan, error) {
	f, err := os.Open(rec.DataPath)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	h256, h512 := sha256.New(), sha512.New()
	an := quicklook.NewAnalyzer(quicklook.Params{
		SampleRateHz: rec.SampleRateHz, FrequencyHz: rec.FrequencyHz,
		PlannedDuration: time.Duration(rec.PlannedDurationS) * time.Second,
	})
	n, err := io.Copy(io.MultiWriter(h256, h512, an), f)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", rec.DataPath, err)
	}
	return &fileScan{size: n, sha256: hex.EncodeToString(h256.Sum(nil)), sha512: hex.EncodeToString(h512.Sum(nil)), analysis: an.Finish()}, nil
}

// recoveredFiles writes a recovered capture's PNG and SigMF metadata
// (scan nil: the file is read now). Failures are only logged.
func recoveredFiles(d Deps, rec *state.CaptureInProgress, scan *fileScan, notes []string, out *Recovered, log *slog.Logger) {
	if scan == nil {
		var err error
		if scan, err = scanFile(rec); err != nil {
			log.Warn("could not read the capture for its quick-look and SigMF metadata", "err", err)
			return
		}
	}
	base := strings.TrimSuffix(rec.DataPath, DataSuffix)
	p := d.Policy.Capture
	det := detect(scan.analysis, p.DetectThresholdDB, p.DetectMinS)
	out.PNGPath = writeQuicklook(base+PNGSuffix, scan.analysis, det, quicklook.Meta{
		TaskID: rec.TaskID, Start: rec.StartedAt, FrequencyHz: rec.FrequencyHz, SampleRateHz: rec.SampleRateHz,
		Source: filepath.Base(rec.DataPath), Details: "recovered after rfhandoff was killed",
		Simulated: rec.Simulated,
	}, log)
	outcome := ""
	if len(notes) > 0 {
		outcome = notes[0]
	}
	in := metaInput{
		taskID: rec.TaskID, sampleRate: rec.SampleRateHz, frequency: rec.FrequencyHz,
		firstSample: rec.StartedAt, sha512: scan.sha512, author: d.Author, outcome: outcome, detection: det,
		plan: rec.Capture, serial: rec.Serial, simulated: rec.Simulated, collection: collection(rec.TaskID, rec.Node),
	}
	if rec.Serial != "" {
		in.hw = "HackRF serial " + rec.Serial
	}
	out.MetaPath, _ = saveMeta(base+MetaSuffix, in, log)
}

// pendingComplete returns the COMPLETE, with its notes, the killed rx
// capture had saved to publish, when the file still holds exactly it.
func pendingComplete(rec *state.CaptureInProgress, path string, log *slog.Logger) ([]byte, []string, bool) {
	if rec.CompleteSHA256 == "" {
		return nil, nil, false
	}
	data, err := os.ReadFile(path)
	if err != nil || sha256Hex(data) != rec.CompleteSHA256 {
		log.Warn("the COMPLETE written before the kill is gone or changed; building a new one", "file", path, "err", err)
		return nil, nil, false
	}
	r, err := result.Decode(data, result.Options{Node: result.AnyNode, SyncMode: result.AnySync})
	if err != nil || r.TaskID != rec.TaskID || r.State != result.StateComplete {
		log.Warn("the COMPLETE written before the kill does not describe this capture; building a new one", "file", path, "err", err)
		return nil, nil, false
	}
	return data, slices.Clone(rec.CompleteNotes), true
}

// rebuildComplete is COMPLETE from the record and the file as it is now
// (doc.go, "A killed rx capture").
func rebuildComplete(ctx context.Context, d Deps, o Options, rec *state.CaptureInProgress, end toolEnd) (*result.Result, []string, *fileScan, error) {
	st, err := os.Stat(rec.DataPath)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil, fmt.Errorf("the capture file %s is gone: there is nothing a COMPLETE could describe", rec.DataPath)
	}
	if err != nil {
		return nil, nil, nil, err
	}
	scan, err := scanFile(rec)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("hashing %s: %w", rec.DataPath, err)
	}
	ended := st.ModTime().UTC().Truncate(time.Millisecond)
	if ended.Before(rec.StartedAt) {
		ended = rec.StartedAt
	}
	hc := &hackrfcli.Client{R: d.Runner, Timeout: o.ToolTimeout, Serial: rec.Serial}
	clk, clkNote := result.ClkinNotDetected, ""
	switch cs, err := hc.Clock(context.WithoutCancel(ctx)); {
	case err != nil:
		clkNote = fmt.Sprintf("clkin_after: hackrf_clock -i during the recovery failed (%v); reported as NOT_DETECTED.", err)
	case cs == hackrfcli.ClockDetected:
		clk = result.ClkinDetected
		clkNote = "clkin_after: hackrf_clock -i during the recovery, after the capture, reported CLKIN detected."
	default:
		clkNote = "clkin_after: hackrf_clock -i during the recovery, after the capture, reported no clock signal on CLKIN."
	}
	r := complete(liveFacts{
		taskID: rec.TaskID, sourceHead: rec.SourceHead, startedAt: rec.StartedAt,
		plannedS: rec.PlannedDurationS, freqHz: rec.FrequencyHz, rateHz: rec.SampleRateHz, pid: rec.CapturePID,
		simulated: rec.Simulated,
	}, ending{
		endedAt: ended, exitCode: -1, sizeBytes: scan.size, sha256: scan.sha256,
		clkinAfter: clk, observed: result.RFTXUnknown,
	}, now())
	// Nobody watched the clock while rfhandoff was gone.
	r.CommonClockVerified = false
	r.Alignment = recoveredAlignment(rec, d.Logger)

	readyNote := "READY had been published."
	switch {
	case rec.ReadyCommit != "":
		readyNote = fmt.Sprintf("READY had been published (commit %s).", rec.ReadyCommit)
	case !rec.ReadyPublished:
		readyNote = "rfhandoff was killed while READY was being published: it may or may not have landed, and this COMPLETE supersedes it either way."
	}
	notes := []string{
		fmt.Sprintf("Capture interrupted: rfhandoff (pid %d) was killed while hackrf_transfer (pid %d) was recording; "+
			"this COMPLETE was published afterwards by rfhandoff pid %d. %s; the file holds %d bytes (%.2f s of signal) of the planned %d bytes.",
			rec.RfhandoffPID, rec.CapturePID, os.Getpid(), end.how, scan.size, float64(scan.size/2)/float64(rec.SampleRateHz), 2*rec.SampleRateHz*rec.PlannedDurationS),
		readyNote,
		"capture_exit_code is -1: the exit status is unknown, because the process that would have collected it (rfhandoff) was gone. " +
			"capture_size_bytes and capture_sha256 were read from the file after the fact (the streaming hash died with rfhandoff); " +
			"capture_ended_at is the file's last modification; overruns and dropped_frames are unknown (null).",
		clkNote + " common_clock_verified is false: nobody watched the clock while rfhandoff was gone.",
		"rf_tx_observed is UNKNOWN: nobody watched the capture to its end; the quick-look and SigMF metadata beside it were made from the file afterwards.",
	}
	return r, notes, scan, nil
}

// ForgetPublished clears capture_in_progress when the COMPLETE it waits to
// publish is data (`rx publish-result` did the recovery's work).
func ForgetPublished(stateDir string, data []byte) (bool, error) {
	want := sha256Hex(data)
	r, err := dropRecord(&state.RXStore{Dir: stateDir}, func(r *state.CaptureInProgress) bool { return r.CompleteSHA256 == want })
	return r != nil, err
}

// Forget drops task id's capture_in_progress for `rx mark-completed`,
// returning it or nil. It refuses while an rx capture holds the capture
// lock: that one's record is live.
func Forget(stateDir, id string) (*state.CaptureInProgress, error) {
	l, err := lock(stateDir)
	if err != nil {
		return nil, err
	}
	defer l.Release()
	return dropRecord(&state.RXStore{Dir: stateDir}, func(r *state.CaptureInProgress) bool { return r.TaskID == id })
}

// recoveredAlignment is READY's alignment as kept beside the capture,
// never aligned (overruns since READY are unknown). nil without START_AT,
// or when READY's copy is gone: the publisher then refuses the COMPLETE
// and the record is kept for a person.
func recoveredAlignment(rec *state.CaptureInProgress, log *slog.Logger) *result.Alignment {
	if rec.Capture == nil || rec.Capture.Sync == nil {
		return nil
	}
	path := filepath.Join(filepath.Dir(rec.DataPath), ResultName)
	r, _, err := result.ReadFile(path, result.Options{Node: result.AnyNode, SyncMode: result.AnySync})
	if err != nil || r.TaskID != rec.TaskID || r.Alignment == nil {
		log.Warn("no alignment to recover: READY's copy beside the capture is gone or not this capture's", "file", path, "err", err)
		return nil
	}
	a := *r.Alignment
	a.Aligned = false
	const why = "recovered after rfhandoff was killed: overruns since READY are unknown"
	a.Reasons = append(a.Reasons[:min(len(a.Reasons), 7):min(len(a.Reasons), 7)], why)
	return &a
}
