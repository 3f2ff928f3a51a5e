package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/hashicorp/go-multierror"

	"rfhandoff/quicklook"
)

// CapturePlotCmd plots a ci8 capture (PROTOCOL#command-line).
type CapturePlotCmd struct {
	File       string `arg:"" type:"path" help:"A ci8 capture (interleaved int8 I/Q)."`
	SampleRate int64  `name:"sample-rate" placeholder:"HZ" help:"Sample rate (default: global.core:sample_rate of the SigMF metadata beside FILE)."`
	Frequency  int64  `placeholder:"HZ" help:"Centre frequency (default: captures[0].core:frequency of the SigMF metadata beside FILE)."`
	Output     string `short:"o" name:"output" type:"path" placeholder:"PNG" help:"Where to write the PNG (default: FILE.png)."`
}

func (c *CapturePlotCmd) Run(app *App) error {
	info, err := os.Stat(c.File)
	if err != nil {
		return fmt.Errorf("capture plot: %w", err)
	}
	if !info.Mode().IsRegular() {
		return fmt.Errorf("capture plot: %s is not a regular file", c.File)
	}
	out := cmp.Or(c.Output, c.File+".png")
	switch o, err := os.Stat(out); {
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("capture plot: %w", err)
	case err == nil && os.SameFile(o, info):
		return fmt.Errorf("capture plot: output %s is the capture itself", out)
	}
	meta, err := c.params()
	if err != nil {
		return err
	}
	p := quicklook.Params{
		SampleRateHz: meta.SampleRateHz, FrequencyHz: meta.FrequencyHz,
		PlannedDuration: time.Duration(float64(info.Size()/2) / float64(meta.SampleRateHz) * float64(time.Second)),
	}
	an := quicklook.NewAnalyzer(p)
	f, err := os.Open(c.File)
	if err != nil {
		return fmt.Errorf("capture plot: %w", err)
	}
	defer f.Close()
	if _, err := io.CopyBuffer(an, ctxReader{app.Ctx, f}, make([]byte, 1<<20)); err != nil {
		return fmt.Errorf("capture plot: reading %s: %w", c.File, err)
	}
	a := an.Finish()
	capt := app.Policy.Capture
	minDur := time.Duration(capt.DetectMinS * float64(time.Second))
	d := quicklook.Detect(a, capt.DetectThresholdDB, minDur)

	qm := quicklook.Meta{
		Start: meta.Start, FrequencyHz: meta.FrequencyHz, SampleRateHz: meta.SampleRateHz,
		Source:    filepath.Base(c.File),
		Details:   fmt.Sprintf("%.1f MB ci8", float64(info.Size())/1e6),
		Simulated: meta.Simulated,
	}
	if err := quicklook.WritePNGFile(out, a, d, qm); err != nil {
		return fmt.Errorf("capture plot: %w", err)
	}
	fmt.Fprintf(app.Stdout, "%s: %s; wrote %s\n", c.File, summary(a, d), out)
	return nil
}

func summary(a *quicklook.Analysis, d quicklook.Detection) string {
	if d.Burst {
		return fmt.Sprintf("burst %.2f–%.2f s, peak %.1f dBFS at %.6f MHz (%+.1f dB over the floor) -> %s",
			d.Start.Seconds(), d.End.Seconds(), d.PeakDBFS,
			(float64(a.FrequencyHz)+d.PeakOffsetHz)/1e6, d.PeakExcessDB, d.RFTXObserved())
	}
	return fmt.Sprintf("no burst %.1f dB over the floor for %.2f s in %.2f s (strongest rise %+.1f dB) -> %s",
		d.ThresholdDB, d.MinDuration.Seconds(), a.Duration.Seconds(), max(d.PeakExcessDB, 0), d.RFTXObserved())
}

// params settles the sample rate and frequency: the flags, else SigMF's.
func (c *CapturePlotCmd) params() (quicklook.SigMFMeta, error) {
	var errs *multierror.Error
	if c.SampleRate < 0 {
		errs = multierror.Append(errs, fmt.Errorf("--sample-rate %d: must be positive", c.SampleRate))
	}
	if c.Frequency < 0 {
		errs = multierror.Append(errs, fmt.Errorf("--frequency %d: must not be negative", c.Frequency))
	}
	// Broken metadata is an error even when the flags give every value:
	// it may say the file is not ci8 at all.
	metaPath, meta, metaErr := readSigMFBeside(c.File)
	if metaErr != nil {
		errs = multierror.Append(errs, metaErr)
	}
	if c.SampleRate > 0 {
		meta.SampleRateHz = c.SampleRate
	}
	if c.Frequency > 0 {
		meta.FrequencyHz = c.Frequency
	}
	where := cmp.Or(metaPath, quicklook.SigMFMetaPaths(c.File)[0]+" (there is none)")
	if meta.SampleRateHz == 0 && c.SampleRate == 0 && metaErr == nil {
		errs = multierror.Append(errs, fmt.Errorf("sample rate unknown: pass --sample-rate HZ or set global.core:sample_rate in %s", where))
	}
	if meta.FrequencyHz == 0 && c.Frequency == 0 && metaErr == nil {
		errs = multierror.Append(errs, fmt.Errorf("frequency unknown: pass --frequency HZ or set captures[0].core:frequency in %s", where))
	}
	if err := errs.ErrorOrNil(); err != nil {
		return meta, fmt.Errorf("capture plot %s: %w", c.File, err)
	}
	return meta, nil
}

// readSigMFBeside reads the first SigMF metadata file there is for file.
func readSigMFBeside(file string) (path string, m quicklook.SigMFMeta, err error) {
	for _, p := range quicklook.SigMFMetaPaths(file) {
		data, err := readLimited(p, quicklook.MaxSigMFMetaBytes, "%s: over %d bytes")
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue
		case err != nil:
			return p, m, err
		}
		m, err = quicklook.ParseSigMFMeta(data)
		if err != nil {
			return p, m, fmt.Errorf("%s: %w", p, err)
		}
		return p, m, nil
	}
	return "", m, nil
}

// ctxReader stops a long read at cancellation (SIGINT).
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}
