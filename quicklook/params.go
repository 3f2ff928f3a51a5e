package quicklook

import (
	"fmt"
	"math/bits"
	"time"

	"github.com/hashicorp/go-multierror"
)

// Defaults and limits of the analysis.
const (
	DefaultFFTSize = 1024
	DefaultRows    = 512

	// MinFramesPerRow is the fewest FFT frames averaged into one row. With
	// few, the per-bin power of plain noise scatters so much that the
	// strongest of 1024 bins in some row reaches a 10 dB threshold by
	// chance; with 32 the largest chance rise in a few hundred rows stays
	// near 4 dB. Rows are widened (and so fewer) when a short planned
	// duration would leave them thinner, and a short last row is merged
	// into the one before.
	MinFramesPerRow = 32

	// MaxFramesPerSecond caps the FFT frames analysed per second of
	// signal. Above it only every k-th frame is transformed (the skipped
	// frames still count towards the band power). At 2–10 Msps with 1024
	// bins every frame is analysed; at 20 Msps every second one, which
	// still averages over 2000 frames into each 0.23 s row of a 120 s
	// capture. BenchmarkAnalyzer20Msps measured (2-core EPYC, under load)
	// about 0.33 of a core at 20 Msps with every frame, and about 0.2 with
	// every second one: the margin leaves room for the hashing beside it.
	MaxFramesPerSecond = 10000

	// DefaultRowDuration is the row length when no planned duration is
	// known.
	DefaultRowDuration = 250 * time.Millisecond

	// MinDBFS is the lowest level ever reported (silence, all-zero input).
	MinDBFS = -200.0

	minFFTSize = 16
	maxFFTSize = 1 << 16
)

// Params describes the capture being analysed.
type Params struct {
	SampleRateHz    int64
	FrequencyHz     int64         // centre frequency, for labels
	PlannedDuration time.Duration // the capture's planned length; 0 if unknown
	FFTSize         int           // bins per frame, a power of 2 (default 1024)
	Rows            int           // spectrogram rows for the planned duration (default 512)
}

// ParamsError lists every problem with a Params value.
type ParamsError struct {
	Field, Problem string
	Value          any
}

func (e *ParamsError) Error() string {
	return fmt.Sprintf("quicklook: %s = %v: %s", e.Field, e.Value, e.Problem)
}

// withDefaults fills in the zero values.
func (p Params) withDefaults() Params {
	if p.FFTSize == 0 {
		p.FFTSize = DefaultFFTSize
	}
	if p.Rows == 0 {
		p.Rows = DefaultRows
	}
	return p
}

// Validate reports every invalid field at once (after defaults).
func (p Params) Validate() error {
	p = p.withDefaults()
	var errs *multierror.Error
	if p.SampleRateHz <= 0 {
		errs = multierror.Append(errs, &ParamsError{"SampleRateHz", "must be positive", p.SampleRateHz})
	}
	if p.FrequencyHz < 0 {
		errs = multierror.Append(errs, &ParamsError{"FrequencyHz", "must not be negative", p.FrequencyHz})
	}
	if p.PlannedDuration < 0 {
		errs = multierror.Append(errs, &ParamsError{"PlannedDuration", "must not be negative", p.PlannedDuration})
	}
	if p.FFTSize < minFFTSize || p.FFTSize > maxFFTSize || bits.OnesCount(uint(p.FFTSize)) != 1 {
		errs = multierror.Append(errs, &ParamsError{"FFTSize", fmt.Sprintf("must be a power of 2 from %d to %d", minFFTSize, maxFFTSize), p.FFTSize})
	}
	if p.Rows < 1 {
		errs = multierror.Append(errs, &ParamsError{"Rows", "must be positive", p.Rows})
	}
	return errs.ErrorOrNil()
}

// geometry is how frames map onto rows.
type geometry struct {
	rowSamples float64 // samples per row (the last row may be shorter)
	stride     int     // every stride-th frame is transformed
}

func (p Params) geometry() geometry {
	n := float64(p.FFTSize)
	rate := float64(p.SampleRateHz)
	var row float64
	if p.PlannedDuration > 0 {
		row = rate * p.PlannedDuration.Seconds() / float64(p.Rows)
	} else {
		row = rate * DefaultRowDuration.Seconds()
	}
	row = max(row, n*MinFramesPerRow)
	stride := 1
	if fps := rate / n; fps > MaxFramesPerSecond {
		stride = int((fps + MaxFramesPerSecond - 1) / MaxFramesPerSecond)
	}
	// Keep at least MinFramesPerRow transformed frames in every row.
	stride = max(1, min(stride, int(row/(n*MinFramesPerRow))))
	return geometry{rowSamples: row, stride: stride}
}
