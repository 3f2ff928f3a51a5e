package quicklook

import (
	"errors"
	"math"
	"math/bits"

	"gonum.org/v1/gonum/dsp/fourier"
)

var errFinished = errors.New("quicklook: write after Finish")

// Analyzer is an io.Writer for raw ci8 bytes that builds the spectrogram as
// the bytes go by, so the capture executor can tee the hashed reader into
// it. It is not safe for concurrent use.
type Analyzer struct {
	p      Params
	geo    geometry
	err    error // invalid Params: every Write fails with it
	win    []float64
	parsev float64 // Parseval: mean |x|²/128² per unit of summed bin power
	radix4 bool    // FFTSize is a power of 4: the radix-4 FFT is ~15 % faster
	x      []complex128
	buf    []byte // a picked frame being assembled across writes
	fill   int    // bytes of the current frame seen so far
	frame  int64  // index of the current frame
	picked int64  // frames transformed so far
	next   int64  // index of the next frame to transform
	rows   []rowAcc
	row    int       // row of the current frame
	rowEnd int64     // first sample after the current row
	result *Analysis // set by Finish
}

type rowAcc struct {
	power  []float64 // summed bin power of the transformed frames, fftshifted
	frames int       // transformed frames
}

// NewAnalyzer returns an Analyzer for p; with invalid parameters every
// Write fails, naming them all.
func NewAnalyzer(p Params) *Analyzer {
	p = p.withDefaults()
	a := &Analyzer{p: p}
	if a.err = p.validate(); a.err != nil {
		return a
	}
	a.geo = p.geometry()
	n := p.FFTSize
	a.win = hannWindow(n)
	var sw2 float64
	for _, w := range a.win {
		sw2 += w * w
	}
	// Σ_k |X_k|² = N · Σ_i w_i² |x_i|², so for a signal steady over the
	// frame the mean |x|² in full-scale units is Σ_k |X_k|² / (N·Σw²·128²).
	a.parsev = 1 / (float64(n) * sw2 * 128 * 128)
	a.radix4 = bits.TrailingZeros(uint(n))%2 == 0
	a.x = make([]complex128, n)
	a.buf = make([]byte, 2*n)
	a.rowEnd = int64(math.Floor(a.geo.rowSamples))
	return a
}

// hannWindow returns a periodic Hann window scaled so that a full-scale
// complex tone (128 counts) centred on a bin has |X|² = 1, i.e. 0 dBFS.
func hannWindow(n int) []float64 {
	w := make([]float64, n)
	var sum float64
	for i := range w {
		w[i] = 0.5 - 0.5*math.Cos(2*math.Pi*float64(i)/float64(n))
		sum += w[i]
	}
	for i := range w {
		w[i] /= sum * 128
	}
	return w
}

func (a *Analyzer) Write(p []byte) (int, error) {
	if a.err != nil {
		return 0, a.err
	}
	if a.result != nil {
		return 0, errFinished
	}
	total := len(p)
	fb := len(a.buf)
	for len(p) > 0 {
		if a.frame < a.next {
			// Up to the next picked frame nothing is looked at.
			skip := int(min(int64(len(p)), (a.next-a.frame)*int64(fb)-int64(a.fill)))
			seen := int64(a.fill) + int64(skip)
			a.frame += seen / int64(fb)
			a.fill = int(seen % int64(fb))
			p = p[skip:]
			continue
		}
		if a.fill == 0 && len(p) >= fb {
			a.transform(p[:fb]) // whole frame straight from the caller's buffer
			p = p[fb:]
			continue
		}
		n := copy(a.buf[a.fill:], p)
		a.fill += n
		p = p[n:]
		if a.fill == fb {
			a.transform(a.buf)
		}
	}
	return total, nil
}

// rowFor returns the row holding sample s, opening rows as needed.
func (a *Analyzer) rowFor(s int64) *rowAcc {
	for s >= a.rowEnd {
		a.row++
		a.rowEnd = int64(math.Floor(float64(a.row+1) * a.geo.rowSamples))
	}
	for len(a.rows) <= a.row {
		a.rows = append(a.rows, rowAcc{})
	}
	return &a.rows[a.row]
}

// transform adds the frame's bin power to its row and picks the next frame.
func (a *Analyzer) transform(b []byte) {
	n := a.p.FFTSize
	r := a.rowFor(a.frame * int64(n))
	if r.power == nil {
		r.power = make([]float64, n)
	}
	x, w := a.x, a.win
	b = b[:2*n]
	for i := range x {
		x[i] = complex(float64(int8(b[2*i]))*w[i], float64(int8(b[2*i+1]))*w[i])
	}
	if a.radix4 {
		fourier.CoefficientsRadix4(x)
	} else {
		fourier.CoefficientsRadix2(x)
	}
	for k, c := range x { // fftshift: k^(n/2) swaps the halves, non-negative frequencies go up
		r.power[k^(n/2)] += real(c)*real(c) + imag(c)*imag(c)
	}
	r.frames++
	a.frame++
	a.fill = 0
	a.picked++
	a.next = int64(math.Ceil(float64(a.picked) * a.geo.spacing))
}

// Finish ends the analysis and returns it (nil with invalid Params). A
// trailing partial frame counts towards the duration only.
func (a *Analyzer) Finish() *Analysis {
	if a.err != nil {
		return nil
	}
	if a.result != nil {
		return a.result
	}
	n := int64(a.p.FFTSize)
	samples := a.frame*n + int64(a.fill/2)
	// Open the row of the last (partial) frame so that the rows cover the
	// capture; mergeTail folds it in when thin.
	if samples > 0 {
		a.rowFor((samples - 1) / n * n)
	}
	a.result = a.build(samples)
	return a.result
}

func (a *Analyzer) build(samples int64) *Analysis {
	n := a.p.FFTSize
	rate := float64(a.p.SampleRateHz)
	res := &Analysis{
		SampleRateHz:    a.p.SampleRateHz,
		FrequencyHz:     a.p.FrequencyHz,
		FFTSize:         n,
		FrameStride:     a.geo.spacing,
		Samples:         samples,
		DiscardedBytes:  a.fill % 2,
		PlannedDuration: a.p.PlannedDuration,
		RowSeconds:      a.geo.rowSamples / rate,
		RowSamples:      a.geo.rowSamples,
		Duration:        seconds(float64(samples) / rate),
	}
	rows := mergeTail(a.rows)
	mean := make([]float64, n)
	var frames int
	prev, prevBand := []float64(nil), minDBFS
	for i := range rows {
		r := &rows[i]
		db := make([]float64, n)
		band := prevBand
		if r.frames == 0 {
			// Cannot happen (row geometry); repeat the row above, not a hole.
			copy(db, prev)
		} else {
			var sum float64
			for k, v := range r.power {
				db[k] = dBFS(v / float64(r.frames))
				mean[k] += v
				sum += v
			}
			frames += r.frames
			band = dBFS(sum / float64(r.frames) * a.parsev)
		}
		res.Rows = append(res.Rows, db)
		res.RowFrames = append(res.RowFrames, r.frames)
		res.BandDBFS = append(res.BandDBFS, band)
		prev, prevBand = db, band
	}
	res.Spectrum = meanDBFS(mean, frames)
	return res
}

// meanDBFS turns power sums over n frames into mean levels, in place.
func meanDBFS(sums []float64, n int) []float64 {
	for k, v := range sums {
		sums[k] = dBFS(v / float64(n))
	}
	return sums
}

func dBFS(p float64) float64 {
	if !(p > 0) {
		return minDBFS
	}
	return max(10*math.Log10(p), minDBFS)
}

// mergeTail folds a last row thinner than minFramesPerRow into the row
// before it, so that no row is noisy enough to pass for a burst.
func mergeTail(rows []rowAcc) []rowAcc {
	if n := len(rows); n >= 2 && rows[n-1].frames < minFramesPerRow {
		last, prev := &rows[n-1], &rows[n-2]
		if prev.power == nil {
			prev.power = make([]float64, len(last.power))
		}
		for k, v := range last.power {
			prev.power[k] += v
		}
		prev.frames += last.frames
		rows = rows[:n-1]
	}
	if n := len(rows); n == 1 && rows[0].frames == 0 {
		rows = rows[:0] // a capture shorter than one frame has no spectrogram
	}
	return rows
}
