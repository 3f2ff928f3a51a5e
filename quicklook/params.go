package quicklook

import (
	"cmp"
	"fmt"
	"math/bits"
	"time"

	"github.com/hashicorp/go-multierror"
)

// Defaults and limits of the analysis.
const (
	defaultFFTSize = 1024
	defaultRows    = 512

	// minFramesPerRow is the fewest FFT frames averaged into one row. With
	// few, the per-bin power of plain noise scatters so much that the
	// strongest of 1024 bins in some row reaches a 10 dB threshold by
	// chance; with 32 the largest chance rise in a few hundred rows stays
	// near 4 dB. Rows are widened (and so fewer) when a short planned
	// duration would leave them thinner, and a short last row is merged
	// into the one before.
	minFramesPerRow = 32

	// maxFramesPerRow caps the FFT frames transformed for one row; they
	// are spread evenly over the row (frame ⌈j·spacing⌉ for a fractional
	// spacing of rowFrames/maxFramesPerRow), and the bytes of the others
	// are skipped unread. So the analysis costs about Rows ×
	// maxFramesPerRow FFTs per planned capture, flat in the sample rate
	// and in how fast the bytes arrive: BenchmarkAnalyzerFastGB measured
	// 0.5 CPU-s for a whole 1 GB capture (25 s at 20 Msps, 32768 FFTs of
	// 1024 bins, 2-core EPYC under load) and 1.7 GB/s fed unbounded,
	// where transforming every second frame had cost 4.5 CPU-s (180 MB/s),
	// enough for a fast writer to leave it seconds behind. At 20 Msps in
	// real time that is under 1 % of a core.
	//
	// Why 64: a row's bin level is the mean of its frames, so the chance
	// rise of plain noise over its 20th-percentile floor shrinks with more
	// frames. The largest rise in 512 rows × 1024 bins of noise measured
	// 5.2–5.5 dB with 16 frames a row, 3.7–3.9 dB with 32, 2.8–2.9 dB with
	// 64 and 2.0 dB with 128 (three seeds each; TestDetectNoiseMargin
	// checks 64). 64 leaves the default 10 dB threshold a 7 dB margin
	// (thresholds below about 4 dB would see noise; policy allows any
	// positive value, the default is 10) at half the FFTs of 128. Rows of
	// the TestDetect table with 64 of 122 frames give the same verdicts
	// and burst times (TestDetectCappedRows).
	//
	// The band power comes from the same frames by Parseval's theorem
	// (Hann-weighted mean |x|²), which costs nothing beyond the FFTs; the
	// squared-sample sum over every byte it replaces cost 1.1 CPU-s/GB (an
	// unrolled table loop 0.45). Picking frames instead of averaging all
	// of a row changes its expected level not at all, only its scatter
	// (above); only a burst shorter than the gap between two picked
	// frames (a row / 64: under 1 ms for a 25 s capture, 18 ms for a
	// 10-minute one) could fall between them, and a burst must last
	// detect_min_s to count.
	maxFramesPerRow = 64

	// maxFramesPerSecond caps the FFT frames analysed per second of
	// signal, an upper bound beside maxFramesPerRow that matters for
	// short rows (short planned durations): above it frames are skipped
	// (every k-th is transformed). At 2–10 Msps with 1024 bins and short
	// rows every frame is analysed; at 20 Msps every second one.
	maxFramesPerSecond = 10000

	// defaultRowDuration is the row length when no planned duration is
	// known.
	defaultRowDuration = 250 * time.Millisecond

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

// withDefaults fills in the zero values.
func (p Params) withDefaults() Params {
	p.FFTSize, p.Rows = cmp.Or(p.FFTSize, defaultFFTSize), cmp.Or(p.Rows, defaultRows)
	return p
}

// validate reports every invalid field at once (after defaults).
func (p Params) validate() error {
	p = p.withDefaults()
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
	// stride is the per-second cap (maxFramesPerSecond): transformed frames
	// are at least stride frames apart.
	stride int
	// spacing is the mean distance in frames between transformed frames,
	// at least stride: frame ⌈j·spacing⌉ is the j-th transformed, which
	// spreads maxFramesPerRow frames evenly over each row.
	spacing float64
}

func (p Params) geometry() geometry {
	n := float64(p.FFTSize)
	rate := float64(p.SampleRateHz)
	row := rate * defaultRowDuration.Seconds()
	if p.PlannedDuration > 0 {
		row = rate * p.PlannedDuration.Seconds() / float64(p.Rows)
	}
	row = max(row, n*minFramesPerRow)
	// At most maxFramesPerSecond (the rounded-up quotient is 0 or 1 below
	// it), keeping at least minFramesPerRow transformed frames in every row.
	stride := int((rate/n + maxFramesPerSecond - 1) / maxFramesPerSecond)
	stride = max(1, min(stride, int(row/(n*minFramesPerRow))))
	spacing := max(float64(stride), row/n/maxFramesPerRow)
	return geometry{rowSamples: row, stride: stride, spacing: spacing}
}
