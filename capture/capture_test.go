package capture

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"rfhandoff/config"
	"rfhandoff/exec"
	"rfhandoff/hackrfcli"
	"rfhandoff/hacksim"
	"rfhandoff/internal/publishtest"
	"rfhandoff/internal/sigmftest"
	"rfhandoff/quicklook"
	"rfhandoff/result"
)

// TestCaptureBurst is the whole executor in real time (3 s at 2 Msps) with
// the simulator's tone burst: READY then COMPLETE on the result branch,
// the hash and size of the file, the SigMF metadata and the PNG.
func TestCaptureBurst(t *testing.T) {
	t.Parallel()
	w := newWorld(t, "burst", publishtest.Options{}, nil)
	base := w.ResultTip(t)
	rep, err := w.run(t, t.Context(), opts())
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	rs := w.resultCommits(t, base)
	if len(rs) != 2 {
		t.Fatalf("result branch got %d commits, want READY then COMPLETE", len(rs))
	}
	rd, cp := rs[0], rs[1]
	sum256, sum512, size := fileSums(t, rep.DataPath)
	wantSize := 2 * w.Policy.Capture.SampleRateHz * 3

	// READY: live flags, verified clock, nothing final yet.
	if rd.State != result.StateReady || !rd.RXReadyForTX || !rd.ProcessAlive || !rd.FileGrowing || !rd.CommonClockVerified {
		t.Errorf("READY = %+v", rd)
	}
	if rd.CaptureEndedAt != nil || rd.CaptureSHA256 != nil || rd.ClkinAfter != nil || rd.RFTXObserved != nil {
		t.Errorf("READY has final fields: %+v", rd)
	}
	if rd.TaskID != publishtest.TaskID || rd.SourceHead != w.Head || rd.PlannedDurationS != 3 ||
		rd.FrequencyHz != 433920000 || rd.SampleRateHz != 2000000 || rd.CapturePID <= 0 {
		t.Errorf("READY facts = %+v", rd)
	}
	if rd.PublishedAt.Before(rd.CaptureStartedAt) {
		t.Errorf("READY published_at %s before capture_started_at %s", rd.PublishedAt, rd.CaptureStartedAt)
	}

	// COMPLETE: the file as it is.
	if cp.State != result.StateComplete || cp.RXReadyForTX || cp.ProcessAlive || cp.FileGrowing {
		t.Errorf("COMPLETE flags = %+v", cp)
	}
	if size != wantSize || *cp.CaptureSizeBytes != size {
		t.Errorf("size: file %d, COMPLETE %d, want %d", size, *cp.CaptureSizeBytes, wantSize)
	}
	if *cp.CaptureSHA256 != sum256 {
		t.Errorf("capture_sha256 %s, file's %s", *cp.CaptureSHA256, sum256)
	}
	if *cp.CaptureExitCode != 0 || *cp.CaptureDurationS != 3 || cp.CapturePID != rd.CapturePID ||
		!cp.CaptureStartedAt.Equal(rd.CaptureStartedAt) {
		t.Errorf("COMPLETE outcome = %+v", cp)
	}
	if *cp.ClkinAfter != result.ClkinDetected || !cp.CommonClockVerified {
		t.Errorf("clock after: %s, verified %v", *cp.ClkinAfter, cp.CommonClockVerified)
	}
	if cp.Overruns == nil || *cp.Overruns != 0 || cp.DroppedFrames != nil {
		t.Errorf("overruns %v, dropped_frames %v; want 0 (from -B) and null (no -S)", cp.Overruns, cp.DroppedFrames)
	}
	// The simulator captured, as the fixture's policy allows: both say so,
	// and so does the audit log's decision line.
	if !rd.Simulated || !cp.Simulated {
		t.Errorf("simulated: READY %v, COMPLETE %v; want both true", rd.Simulated, cp.Simulated)
	}
	if lr := LocalResult(w.Policy, publishtest.TaskID); lr == nil || !lr.Simulated || lr.State != result.StateComplete {
		t.Errorf("LocalResult (rx status's word) = %+v, want the simulated COMPLETE", lr)
	}
	if ds := w.decisions(t, exec.DecisionCaptureSimulator); len(ds) != 1 || ds[0].Verdict != exec.VerdictPassed || !ds[0].Simulated ||
		ds[0].TaskID != publishtest.TaskID || !strings.Contains(ds[0].Reason, "allow_simulator = true") {
		t.Errorf("capture_simulator decisions %+v, want one passed", ds)
	}
	if *cp.RFTXObserved != result.RFTXExpectedExternal {
		t.Errorf("rf_tx_observed = %s, want %s", *cp.RFTXObserved, result.RFTXExpectedExternal)
	}
	if cp.CaptureEndedAt.Before(cp.CaptureStartedAt) {
		t.Errorf("capture_ended_at %s before capture_started_at %s", cp.CaptureEndedAt, cp.CaptureStartedAt)
	}
	md := w.resultMarkdown(t)
	for _, want := range []string{"Capture ended normally", "Burst detected", "Burst start:"} {
		if !strings.Contains(md, want) {
			t.Errorf("RX_RESULT.md lacks %q:\n%s", want, md)
		}
	}
	if rep.ReadyCommit == "" || rep.CompleteCommit != w.ResultTip(t) {
		t.Errorf("report commits READY %q COMPLETE %q, tip %s", rep.ReadyCommit, rep.CompleteCommit, w.ResultTip(t))
	}
	local, err := os.ReadFile(rep.ResultPath)
	if err != nil {
		t.Fatal(err)
	}
	if lr, err := result.Decode(local, result.Options{}); err != nil || lr.State != result.StateComplete || *lr.CaptureSHA256 != sum256 {
		t.Errorf("local %s: %v %+v", rep.ResultPath, err, lr)
	}

	// The file sits where the policy says, named for SigMF.
	wantPath := filepath.Join(w.Policy.CaptureDir(), publishtest.TaskID, publishtest.TaskID+".sigmf-data")
	if rep.DataPath != wantPath {
		t.Errorf("data at %s, want %s", rep.DataPath, wantPath)
	}
	checkSigMF(t, rep, w, sum512, true)

	f, err := os.Open(rep.PNGPath)
	if err != nil {
		t.Fatalf("quick-look PNG: %v", err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("quick-look PNG does not decode: %v", err)
	}
	if b := img.Bounds(); b.Dx() != quicklook.Width || b.Dy() != quicklook.Height {
		t.Errorf("PNG is %v, want %dx%d", b, quicklook.Width, quicklook.Height)
	}

	// The one hackrf_transfer: a bounded receive on the chosen board, never -t.
	starts := w.auditStarts(t, exec.HackRFTransfer)
	if len(starts) != 1 {
		t.Fatalf("%d hackrf_transfer runs audited, want 1", len(starts))
	}
	argv := starts[0].Argv[1:]
	want := []string{"-r", rep.DataPath, "-f", "433920000", "-s", "2000000", "-l", "16", "-g", "20", "-a", "0", "-n", "6000000", "-B", "-d", hacksim.Serial}
	if !slices.Equal(argv, want) {
		t.Errorf("hackrf_transfer argv = %q, want %q", argv, want)
	}
	if clocks := w.auditStarts(t, exec.HackRFClock); len(clocks) != 2 {
		t.Errorf("hackrf_clock ran %d times, want 2 (before and after)", len(clocks))
	}
}

// checkSigMF reads the .sigmf-meta and checks its fields against the capture.
func checkSigMF(t *testing.T, rep *Report, w *world, sum512 string, burst bool) {
	t.Helper()
	if rep.MetaPath != strings.TrimSuffix(rep.DataPath, DataSuffix)+MetaSuffix {
		t.Fatalf("meta at %q, data at %q", rep.MetaPath, rep.DataPath)
	}
	data, err := os.ReadFile(rep.MetaPath)
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Global      map[string]any   `json:"global"`
		Captures    []map[string]any `json:"captures"`
		Annotations []map[string]any `json:"annotations"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		t.Fatalf("SigMF metadata is not JSON: %v\n%s", err, data)
	}
	// SigMF 1.2.x, with what ran in the declared rfhandoff namespace.
	if err := sigmftest.ValidateMeta(data); err != nil {
		t.Errorf("SigMF metadata does not validate: %v\n%s", err, data)
	}
	g := m.Global
	if g["rfhandoff:lna_gain_db"] != json.Number("16") || g["rfhandoff:vga_gain_db"] != json.Number("20") || g["rfhandoff:amp"] != false ||
		g["rfhandoff:antenna_power"] != false || g["rfhandoff:serial"] != hacksim.Serial || g["rfhandoff:firmware"] != "2022.09.1" {
		t.Errorf("what ran is missing from the SigMF metadata: %v", g)
	}
	if g["core:datatype"] != "ci8" || g["core:version"] != "1.2.0" || g["core:sha512"] != sum512 {
		t.Errorf("global = %v (sha512 of the file %s)", g, sum512)
	}
	if g["core:sample_rate"] != json.Number("2000000") || g["core:author"] != "test operator" {
		t.Errorf("global = %v", g)
	}
	if hw, _ := g["core:hw"].(string); !strings.Contains(hw, "HackRF One") || !strings.Contains(hw, hacksim.Serial) || !strings.Contains(hw, "firmware 2022.09.1") ||
		!strings.HasPrefix(hw, "SIMULATED: rfhandoff's HackRF simulator") {
		t.Errorf("core:hw = %q, want the simulator named first", hw)
	}
	if d, _ := g["core:description"].(string); !strings.Contains(d, publishtest.TaskID) || !strings.HasPrefix(d, "SIMULATED capture") {
		t.Errorf("core:description = %q", d)
	}
	// Every capture of this package is the simulator's (allow_simulator).
	if g["rfhandoff:simulated"] != true {
		t.Errorf("rfhandoff:simulated = %v, want true", g["rfhandoff:simulated"])
	}
	if len(m.Captures) != 1 {
		t.Fatalf("captures = %v", m.Captures)
	}
	c := m.Captures[0]
	if c["core:sample_start"] != json.Number("0") || c["core:frequency"] != json.Number("433920000") {
		t.Errorf("capture = %v", c)
	}
	dt, _ := c["core:datetime"].(string)
	if !regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$`).MatchString(dt) {
		t.Errorf("core:datetime = %q", dt)
	} else if ts, _ := time.Parse(time.RFC3339, dt); !ts.Equal(rep.FirstSample.UTC().Truncate(time.Millisecond)) ||
		!ts.After(rep.ProcessStarted) || ts.After(rep.ProcessStarted.Add(5*time.Second)) {
		// The simulator paces its samples: the first is taken after the
		// process started (exec, then the first USB block), not at it.
		t.Errorf("core:datetime %s: want the first sample's time %s, after the process start %s", dt, rep.FirstSample, rep.ProcessStarted)
	}
	if burst != (len(m.Annotations) == 1) {
		t.Fatalf("annotations = %v (burst %v)", m.Annotations, burst)
	}
	if burst {
		// hacksim's burst: a tone 200 kHz above centre in the middle third.
		a := m.Annotations[0]
		start, _ := a["core:sample_start"].(json.Number).Int64()
		count, _ := a["core:sample_count"].(json.Number).Int64()
		lo, _ := a["core:freq_lower_edge"].(json.Number).Float64()
		hi, _ := a["core:freq_upper_edge"].(json.Number).Float64()
		total := rep.Detection.EndSample // checked against the file below
		if fi, err := os.Stat(rep.DataPath); err == nil {
			total = fi.Size() / 2
		}
		if start < total/3-total/20 || start > total/3+total/20 || start+count < 2*total/3-total/20 || start+count > 2*total/3+total/20 {
			t.Errorf("annotation samples %d + %d, want the middle third of %d", start, count, total)
		}
		if tone := 433_920_000.0 + 200e3; lo > tone || hi < tone || hi-lo > 20e3 || hi <= lo {
			t.Errorf("annotation band %.0f .. %.0f Hz, want a few bins around the tone at %.0f Hz", lo, hi, tone)
		}
	}
}

// TestCaptureNoBurst: plain noise reads as UNKNOWN, never "nothing sent".
func TestCaptureNoBurst(t *testing.T) {
	t.Parallel()
	w := newWorld(t, "", publishtest.Options{}, nil)
	base := w.ResultTip(t)
	rep, err := w.run(t, t.Context(), opts())
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	rs := w.resultCommits(t, base)
	if len(rs) != 2 {
		t.Fatalf("%d result commits, want 2", len(rs))
	}
	if got := *rs[1].RFTXObserved; got != result.RFTXUnknown {
		t.Errorf("rf_tx_observed = %s, want UNKNOWN", got)
	}
	if md := w.resultMarkdown(t); !strings.Contains(md, "No burst detected") {
		t.Errorf("RX_RESULT.md lacks the detector's note:\n%s", md)
	}
	_, sum512, _ := fileSums(t, rep.DataPath)
	checkSigMF(t, rep, w, sum512, false)
}

// TestCaptureToolFailures: the capture dies (exit1) or the tool stalls
// (stall) after READY; COMPLETE says so honestly.
func TestCaptureToolFailures(t *testing.T) {
	for _, sim := range []string{"exit1", "stall"} {
		t.Run(sim, func(t *testing.T) {
			t.Parallel()
			// The failure comes after a third of the samples: 3 s, after READY.
			w := newWorld(t, sim, publishtest.Options{}, func(p *config.Policy) { p.Limits.PlannedDurationS = 9 })
			base := w.ResultTip(t)
			rep, err := w.run(t, t.Context(), opts())
			if err == nil || !strings.HasPrefix(err.Error(), "Capture failed: ") || !strings.HasSuffix(err.Error(), "; an honest COMPLETE was published") {
				t.Fatalf("Run error = %v, want a failed capture whose COMPLETE was published", err)
			}
			if !strings.Contains(err.Error(), "exited with status 1") || !strings.Contains(err.Error(), "Couldn't transfer any bytes") {
				t.Errorf("error does not say how the tool ended: %v", err)
			}
			rs := w.resultCommits(t, base)
			if len(rs) != 2 || rs[0].State != result.StateReady || rs[1].State != result.StateComplete {
				t.Fatalf("result commits = %d, want READY then COMPLETE", len(rs))
			}
			cp := rs[1]
			sum, _, size := fileSums(t, rep.DataPath)
			if *cp.CaptureExitCode != 1 || *cp.CaptureSizeBytes != size || *cp.CaptureSHA256 != sum {
				t.Errorf("COMPLETE exit %d size %d sha %s; file %d %s", *cp.CaptureExitCode, *cp.CaptureSizeBytes, *cp.CaptureSHA256, size, sum)
			}
			if want := 2 * w.Policy.Capture.SampleRateHz * 9; size >= want || size == 0 {
				t.Errorf("file size %d, want a partial capture (0 < size < %d)", size, want)
			}
			if *cp.RFTXObserved != result.RFTXUnknown {
				t.Errorf("rf_tx_observed = %s", *cp.RFTXObserved)
			}
			if md := w.resultMarkdown(t); !strings.Contains(md, "Capture failed: hackrf_transfer exited with status 1") {
				t.Errorf("RX_RESULT.md does not say the capture failed:\n%s", md)
			}
			if sim == "exit1" && (cp.Overruns != nil) {
				t.Errorf("exit1: overruns = %d, want null (the tool could not read its counters)", *cp.Overruns)
			}
		})
	}
}

// TestCaptureStallDetector: a file that stops growing while the tool
// lives is caught by rfhandoff itself, which stops the tool and says so.
func TestCaptureStallDetector(t *testing.T) {
	t.Parallel()
	// The file stops growing after a third of the samples (8.3 s, well
	// after READY); the tool itself gives up at its 10 s tick, the first
	// one-second interval without data.
	w := newWorld(t, "stall", publishtest.Options{}, func(p *config.Policy) { p.Limits.PlannedDurationS = 25 })
	base := w.ResultTip(t)
	o := opts()
	o.StallAfter = 400 * time.Millisecond
	rep, err := w.run(t, t.Context(), o)
	if err == nil || !strings.HasPrefix(err.Error(), "Capture stalled: ") || !strings.HasSuffix(err.Error(), "; an honest COMPLETE was published") {
		t.Fatalf("Run error = %v, want a stalled capture whose COMPLETE was published", err)
	}
	rs := w.resultCommits(t, base)
	if len(rs) != 2 {
		t.Fatalf("%d result commits, want 2", len(rs))
	}
	sum, _, size := fileSums(t, rep.DataPath)
	if *rs[1].CaptureSHA256 != sum || *rs[1].CaptureSizeBytes != size {
		t.Errorf("COMPLETE does not describe the file")
	}
	if md := w.resultMarkdown(t); !strings.Contains(md, "Capture stalled: the capture file stopped growing") {
		t.Errorf("RX_RESULT.md:\n%s", md)
	}
}

// TestCaptureInterrupted: a signal to rfhandoff (the context's cause)
// after READY stops the tool cleanly and COMPLETE follows.
func TestCaptureInterrupted(t *testing.T) {
	t.Parallel()
	w := newWorld(t, "", publishtest.Options{}, func(p *config.Policy) { p.Limits.PlannedDurationS = 60 })
	base := w.ResultTip(t)
	ctx, cancel := context.WithCancelCause(t.Context())
	defer cancel(nil)
	type ran struct {
		rep *Report
		err error
	}
	done := make(chan ran, 1)
	go func() {
		rep, err := w.run(t, ctx, opts())
		done <- ran{rep, err}
	}()
	w.waitForTip(t, base, runDeadline)
	sigErr := errors.New("interrupt signal received")
	cancel(sigErr)
	var r ran
	select {
	case r = <-done:
	case <-time.After(runDeadline):
		t.Fatal("the capture did not end after the interrupt")
	}
	if !errors.Is(r.err, sigErr) || !errors.Is(r.err, ErrInterrupted) || !strings.HasSuffix(r.err.Error(), "; hackrf_transfer was stopped and an honest COMPLETE published") {
		t.Fatalf("Run error = %v, want an interrupted capture whose COMPLETE was published, with the cause", r.err)
	}
	rs := w.resultCommits(t, base)
	if len(rs) != 2 || rs[1].State != result.StateComplete {
		t.Fatalf("%d result commits, want READY then COMPLETE", len(rs))
	}
	cp := rs[1]
	sum, _, size := fileSums(t, r.rep.DataPath)
	if *cp.CaptureExitCode != 0 || *cp.CaptureSHA256 != sum || *cp.CaptureSizeBytes != size {
		t.Errorf("COMPLETE exit %d sha %s size %d; file %s %d", *cp.CaptureExitCode, *cp.CaptureSHA256, *cp.CaptureSizeBytes, sum, size)
	}
	if size == 0 || size >= 2*w.Policy.Capture.SampleRateHz*60 {
		t.Errorf("size %d: want a capture cut short", size)
	}
	if md := w.resultMarkdown(t); !strings.Contains(md, "Capture interrupted: rfhandoff was interrupted") {
		t.Errorf("RX_RESULT.md:\n%s", md)
	}
	// The tool ended through its SIGINT handler (exit 0, statistics printed).
	if cp.Overruns == nil {
		t.Errorf("overruns is null: the tool did not end through its SIGINT handler")
	}
}

// TestCaptureNothingPublished: what fails before READY publishes nothing,
// leaves no capture file and (before the capture starts) runs no
// hackrf_transfer.
func TestCaptureNothingPublished(t *testing.T) {
	tests := []struct {
		name, sim string
		check     func(t *testing.T, err error)
		transfer  bool // hackrf_transfer ran
	}{
		{"noclock", "noclock", func(t *testing.T, err error) {
			if err == nil || !strings.HasPrefix(err.Error(), "CLKIN status: no clock signal detected") {
				t.Errorf("err = %v, want CLKIN not detected", err)
			}
		}, false},
		{"firmware too old for CLKIN", "oldfw", func(t *testing.T, err error) {
			var fe *hackrfcli.FirmwareError
			if !errors.As(err, &fe) || !strings.Contains(err.Error(), "firmware "+hacksim.OldFirmwareVersion+" (USB API "+hacksim.OldAPIVersion+",") {
				t.Fatalf("err = %T %v, want a clock refusal wrapping *hackrfcli.FirmwareError with the firmware from hackrf_info", err, err)
			}
			for _, want := range []string{
				"firmware 2021.03.1 (USB API 1.04, as hackrf_info reports it) is too old to report CLKIN",
				"needs firmware 2022.09.1 or later (USB API 1.06)",
				"feature not supported by installed firmware (-1005)",
				"is a RED task", "Nothing was started or published",
			} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("message lacks %q:\n%v", want, err)
				}
			}
		}, false},
		{"nodevice", "nodevice", func(t *testing.T, err error) {
			if !errors.Is(err, hackrfcli.ErrNoDevice) || !strings.HasPrefix(err.Error(), "no HackRF found") ||
				!strings.HasSuffix(err.Error(), "; nothing was started or published") {
				t.Errorf("err = %v, want no HackRF found (matching ErrNoDevice), nothing started", err)
			}
		}, false},
		{"finished before confirmed", "fast", func(t *testing.T, err error) {
			// 1 s of samples written as fast as the disk takes them: the
			// tool is gone before two readings could show it alive and
			// writing, so READY never claims a running capture.
			if err == nil || !strings.HasPrefix(err.Error(), "capture did not start: ") || !strings.Contains(err.Error(), "finished all its samples before the capture could be confirmed") {
				t.Errorf("err = %v, want a capture that did not start", err)
			}
		}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t, tt.sim, publishtest.Options{}, func(p *config.Policy) { p.Limits.PlannedDurationS = 1 })
			refs := w.Refs(t)
			o := opts()
			if tt.sim == "fast" {
				// Readings this far apart cannot both fall while the tool
				// writes its 4 MB, however slow the machine.
				o.ConfirmGap = 30 * time.Second
			}
			_, err := w.run(t, t.Context(), o)
			tt.check(t, err)
			if got := w.Refs(t); got != refs {
				t.Errorf("remote refs changed:\n%s\n->\n%s", refs, got)
			}
			if ran := len(w.auditStarts(t, exec.HackRFTransfer)) > 0; ran != tt.transfer {
				t.Errorf("hackrf_transfer ran: %v, want %v", ran, tt.transfer)
			}
			data := filepath.Join(w.Policy.CaptureDir(), publishtest.TaskID, publishtest.TaskID+DataSuffix)
			if _, err := os.Stat(data); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("capture file %s left behind (stat: %v)", data, err)
			}
		})
	}
}

// TestCaptureInterruptedBeforeReady: a signal while the capture is still
// being confirmed stops the tool and publishes nothing at all.
func TestCaptureInterruptedBeforeReady(t *testing.T) {
	t.Parallel()
	w := newWorld(t, "", publishtest.Options{}, func(p *config.Policy) { p.Limits.PlannedDurationS = 60 })
	refs := w.Refs(t)
	o := opts()
	o.ConfirmGap = time.Hour // never confirmed: the signal comes first
	o.StartupTimeout = 2 * time.Hour
	ctx, cancel := context.WithCancelCause(t.Context())
	defer cancel(nil)
	done := make(chan error, 1)
	go func() {
		_, err := w.run(t, ctx, o)
		done <- err
	}()
	data := filepath.Join(w.Policy.CaptureDir(), publishtest.TaskID, publishtest.TaskID+DataSuffix)
	deadline := time.Now().Add(runDeadline)
	for {
		if st, err := os.Stat(data); err == nil && st.Size() > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the capture file never grew")
		}
		time.Sleep(20 * time.Millisecond)
	}
	cancel(errors.New("terminated signal received"))
	var err error
	select {
	case err = <-done:
	case <-time.After(runDeadline):
		t.Fatal("the capture did not end after the signal")
	}
	if !errors.Is(err, ErrInterrupted) || !strings.Contains(err.Error(), "before READY; nothing was published") {
		t.Fatalf("err = %v, want an interrupted capture, nothing published", err)
	}
	if got := w.Refs(t); got != refs {
		t.Errorf("remote refs changed:\n%s\n->\n%s", refs, got)
	}
	if _, err := os.Stat(data); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the void capture file is still there (stat: %v)", err)
	}
	ends := 0
	entries, err := exec.ReadAuditTail(w.Stack.AuditLog().Path(), 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Event == exec.EventEnd && e.Tool == exec.HackRFTransfer {
			ends++
			if e.ExitCode == nil || *e.ExitCode != 0 {
				t.Errorf("hackrf_transfer ended %v, want exit 0 through its SIGINT handler", e.ExitCode)
			}
		}
	}
	if ends != 1 {
		t.Errorf("%d hackrf_transfer end lines in the audit log, want 1", ends)
	}
}
