package quicklook

import (
	"cmp"
	"fmt"
	"math/bits"
	"time"

	"github.com/hashicorp/go-multierror"
)

const (
	defaultFFTSize = 1024
	defaultRows    = 512

	// minFramesPerRow is the fewest FFT frames averaged into one row: with
	// fewer, plain noise in some bin of some row reaches a 10 dB threshold
	// by chance (with 32 the largest chance rise stays near 4 dB).
	minFramesPerRow = 32

	// maxFramesPerRow caps the frames transformed for one row, spread
	// evenly over it, so the cost is flat in the sample rate (0.5 CPU-s for
	// a 1 GB capture). With 64 the largest chance rise of noise is about
	// 2.9 dB, a 7 dB margin under the default threshold
	// (TestDetectNoiseMargin, TestDetectCappedRows).
	maxFramesPerRow = 64

	// maxFramesPerSecond caps the frames per second, for short rows.
	maxFramesPerSecond = 10000

	defaultRowDuration = 250 * time.Millisecond // when no planned duration is known

	// minDBFS is the lowest level ever reported (silence, all-zero input).
	minDBFS = -200.0

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

func (p Params) withDefaults() Params {
	p.FFTSize, p.Rows = cmp.Or(p.FFTSize, defaultFFTSize), cmp.Or(p.Rows, defaultRows)
	return p
}

// validate reports every invalid field at once (after defaults).
func (p Params) validate() error {
	var errs *multierror.Error
	for _, c := range []struct {
		bad            bool
		field, problem string
		value          any
	}{
		{p.SampleRateHz <= 0, "SampleRateHz", "must be positive", p.SampleRateHz},
		{p.FrequencyHz < 0, "FrequencyHz", "must not be negative", p.FrequencyHz},
		{p.PlannedDuration < 0, "PlannedDuration", "must not be negative", p.PlannedDuration},
		{p.FFTSize < minFFTSize || p.FFTSize > maxFFTSize || bits.OnesCount(uint(p.FFTSize)) != 1,
			"FFTSize", fmt.Sprintf("must be a power of 2 from %d to %d", minFFTSize, maxFFTSize), p.FFTSize},
		{p.Rows < 1, "Rows", "must be positive", p.Rows},
	} {
		if c.bad {
			errs = multierror.Append(errs, fmt.Errorf("quicklook: %s = %v: %s", c.field, c.value, c.problem))
		}
	}
	return errs.ErrorOrNil()
}

// geometry is how frames map onto rows.
type geometry struct {
	rowSamples float64 // samples per row (the last row may be shorter)
	stride     int     // transformed frames are at least stride apart (maxFramesPerSecond)
	spacing    float64 // frame ⌈j·spacing⌉ is the j-th transformed
}

func (p Params) geometry() geometry {
	n := float64(p.FFTSize)
	rate := float64(p.SampleRateHz)
	row := rate * defaultRowDuration.Seconds()
	if p.PlannedDuration > 0 {
		row = rate * p.PlannedDuration.Seconds() / float64(p.Rows)
	}
	row = max(row, n*minFramesPerRow)
	// At most maxFramesPerSecond, keeping minFramesPerRow frames in every row.
	stride := int((rate/n + maxFramesPerSecond - 1) / maxFramesPerSecond)
	stride = max(1, min(stride, int(row/(n*minFramesPerRow))))
	spacing := max(float64(stride), row/n/maxFramesPerRow)
	return geometry{rowSamples: row, stride: stride, spacing: spacing}
}
