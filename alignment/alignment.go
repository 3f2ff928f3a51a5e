// Package alignment is the proof by the signal (issue 34): it measures how
// much later one burst lies in one receiver's recording than in another's,
// by cross-correlating the two around the burst, and compares that lag with
// what the truth or the recordings' metadata predict. Pure functions.
//
// If sample 0 of a was taken at true time Ta, sample 0 of b at Tb, and the
// burst reached b dB seconds after a, the lag is L = (Ta - Tb) + dB.
package alignment

import (
	"errors"
	"fmt"
	"math"
	"math/cmplx"
	"sort"
	"strings"
	"time"
)

// CI8 decodes interleaved signed 8-bit I/Q into complex samples.
func CI8(b []byte) ([]complex64, error) {
	if len(b)%2 != 0 {
		return nil, fmt.Errorf("ci8 data of %d bytes is not whole I/Q pairs (an odd length: a truncated recording?)", len(b))
	}
	out := make([]complex64, len(b)/2)
	for i := range out {
		out[i] = complex(float32(int8(b[2*i])), float32(int8(b[2*i+1])))
	}
	return out, nil
}

// Lag is a measured lag of recording b behind recording a.
type Lag struct {
	// Samples is the burst's index in b minus its index in a, interpolated.
	Samples, Seconds float64
	Peak             float64 // normalised correlation at the peak, 0 to 1
	// BurstStart and BurstEnd are the samples of a that were correlated.
	BurstStart, BurstEnd int
}

const (
	// MaxSegment bounds the stretch of a that is correlated: 65536
	// samples of a wideband burst give a sharp peak; more cost time.
	MaxSegment = 1 << 16
	// MinPeak is the normalised correlation below which the two
	// recordings are not taken to hold the same burst.
	MinPeak        = 0.3
	blockLen       = 64 // the power detector's block, in samples
	burstOverFloor = 10 // dB over the blocks' 10th-percentile power
)

// Measure finds the burst in a and measures how much later it lies in b,
// searching lags within ±maxLagS seconds. A peak at the edge of the
// search, a weak peak or no burst is an error, not a guess.
func Measure(a, b []complex64, rate, maxLagS float64) (Lag, error) {
	return measure(c64(a), c64(b), rate, maxLagS)
}

// MeasureCI8 is Measure on two ci8 recordings without decoding them whole
// (a long capture decoded is four times its size).
func MeasureCI8(a, b []byte, rate, maxLagS float64) (Lag, error) {
	var probs []string
	for _, r := range []struct {
		name string
		data []byte
	}{{"a", a}, {"b", b}} {
		if len(r.data)%2 != 0 {
			probs = append(probs, fmt.Sprintf("recording %s: ci8 data of %d bytes is not whole I/Q pairs (an odd length: a truncated recording?)", r.name, len(r.data)))
		}
	}
	if len(probs) > 0 {
		return Lag{}, errors.New("alignment: " + strings.Join(probs, "; "))
	}
	return measure(ci8(a), ci8(b), rate, maxLagS)
}

type recording interface {
	Len() int
	At(i int) complex128
}

type c64 []complex64

func (r c64) Len() int            { return len(r) }
func (r c64) At(i int) complex128 { return complex128(r[i]) }

type ci8 []byte

func (r ci8) Len() int { return len(r) / 2 }
func (r ci8) At(i int) complex128 {
	return complex(float64(int8(r[2*i])), float64(int8(r[2*i+1])))
}

func measure(a, b recording, rate, maxLagS float64) (Lag, error) {
	var probs []string
	if !(rate > 0) || math.IsInf(rate, 0) {
		probs = append(probs, fmt.Sprintf("sample rate %v is not a positive number of samples per second", rate))
	}
	if !(maxLagS > 0) || math.IsInf(maxLagS, 0) {
		probs = append(probs, fmt.Sprintf("maximum lag %v s is not a positive number of seconds", maxLagS))
	}
	if a.Len() < 2*blockLen {
		probs = append(probs, fmt.Sprintf("recording a has %d samples, fewer than %d", a.Len(), 2*blockLen))
	}
	if b.Len() < 2*blockLen {
		probs = append(probs, fmt.Sprintf("recording b has %d samples, fewer than %d", b.Len(), 2*blockLen))
	}
	if len(probs) > 0 {
		return Lag{}, errors.New("alignment: " + strings.Join(probs, "; "))
	}
	start, end, ok := findBurst(a)
	if !ok {
		return Lag{}, fmt.Errorf("alignment: no burst in recording a: no stretch of it is %d dB above its noise floor", burstOverFloor)
	}
	if end-start > MaxSegment {
		end = start + MaxSegment
	}
	m := int(math.Ceil(maxLagS*rate)) + 1
	n := end - start
	x := make([]complex128, n)
	for i := range x {
		x[i] = a.At(start + i)
	}
	// y is b around the same samples, ±m; outside b it is silence.
	y := make([]complex128, n+2*m)
	for i := range y {
		if j := start - m + i; j >= 0 && j < b.Len() {
			y[i] = b.At(j)
		}
	}
	c := correlate(x, y)
	mag := make([]float64, 2*m+1)
	p := 0
	for l := range mag {
		mag[l] = cmplx.Abs(c[l])
		if mag[l] > mag[p] {
			p = l
		}
	}
	if p == 0 || p == 2*m {
		return Lag{}, fmt.Errorf("alignment: the correlation peaks at the edge of the ±%g s search (%d samples): the lag is larger; search wider", maxLagS, m)
	}
	var ex, ey float64
	for k := range x {
		ex += sq(x[k])
		ey += sq(y[p+k])
	}
	peak := 0.0
	if ex > 0 && ey > 0 {
		peak = mag[p] / math.Sqrt(ex*ey)
	}
	if peak < MinPeak {
		return Lag{}, fmt.Errorf("alignment: no correlation peak within the ±%g s search: correlation %.2f < %.1f with a's burst (samples %d to %d); the recordings do not share it, or the lag is larger: search wider", maxLagS, peak, MinPeak, start, end)
	}
	d := parabolic(mag[p-1], mag[p], mag[p+1])
	samples := float64(p-m) + d
	return Lag{Samples: samples, Seconds: samples / rate, Peak: peak, BurstStart: start, BurstEnd: end}, nil
}

func sq(v complex128) float64 { return real(v)*real(v) + imag(v)*imag(v) }

// parabolic is the offset, within ±0.5, of the vertex of the parabola
// through three equally spaced values.
func parabolic(l, c, r float64) float64 {
	den := l - 2*c + r
	if den == 0 {
		return 0
	}
	return math.Max(-0.5, math.Min(0.5, 0.5*(l-r)/den))
}

// findBurst is the stretch of a from the first block burstOverFloor dB
// above the noise floor (less one block of lead) to the last.
func findBurst(a recording) (start, end int, ok bool) {
	nb := a.Len() / blockLen
	pw := make([]float64, nb)
	for i := range pw {
		for k := i * blockLen; k < (i+1)*blockLen; k++ {
			pw[i] += sq(a.At(k))
		}
	}
	sorted := append([]float64(nil), pw...)
	sort.Float64s(sorted)
	floor := sorted[nb/10]
	thr := floor * math.Pow(10, burstOverFloor/10.0)
	if floor == 0 {
		thr = sorted[nb-1] / 2 // a silent floor: half the loudest block
	}
	first, last := -1, -1
	for i, p := range pw {
		if p > thr && p > 0 {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 0 {
		return 0, 0, false
	}
	return max(0, (first-1)*blockLen), (last + 1) * blockLen, true
}

// correlate is c[l] = Σ_k y[k+l]·conj(x[k]) by FFT.
func correlate(x, y []complex128) []complex128 {
	size := 1
	for size < len(x)+len(y) {
		size <<= 1
	}
	fx := make([]complex128, size)
	copy(fx, x)
	fy := make([]complex128, size)
	copy(fy, y)
	fft(fx, false)
	fft(fy, false)
	for i := range fy {
		fy[i] *= cmplx.Conj(fx[i])
	}
	fft(fy, true)
	return fy[:len(y)-len(x)+1]
}

func fft(a []complex128, inverse bool) {
	n := len(a)
	for i, j := 1, 0; i < n; i++ {
		bit := n >> 1
		for ; j&bit != 0; bit >>= 1 {
			j ^= bit
		}
		j ^= bit
		if i < j {
			a[i], a[j] = a[j], a[i]
		}
	}
	sign := -1.0
	if inverse {
		sign = 1
	}
	for size := 2; size <= n; size <<= 1 {
		w := cmplx.Exp(complex(0, sign*2*math.Pi/float64(size)))
		for start := 0; start < n; start += size {
			wk := complex(1, 0)
			for k := 0; k < size/2; k++ {
				u, v := a[start+k], a[start+k+size/2]*wk
				a[start+k], a[start+k+size/2] = u+v, u-v
				wk *= w
			}
		}
	}
	if inverse {
		for i := range a {
			a[i] /= complex(float64(n), 0)
		}
	}
}

// Predicted is the lag of b behind a, in seconds, that first-sample times
// predict, plus delayDiffS, how much later the burst reached b than a.
func Predicted(firstA, firstB time.Time, delayDiffS float64) float64 {
	return firstA.Sub(firstB).Seconds() + delayDiffS
}

// Check is one comparison of a measured lag with an expected one.
type Check struct {
	MeasuredS, ExpectedS float64
	ErrorS, BoundS       float64
	OK                   bool // |ErrorS| <= BoundS
}

// Compare holds a measured lag against an expected one within ±boundS
// seconds: against the truth the bound is one sample period, against the
// metadata the sum of the two reported bounds.
func Compare(measuredS, expectedS, boundS float64) Check {
	e := measuredS - expectedS
	return Check{MeasuredS: measuredS, ExpectedS: expectedS, ErrorS: e, BoundS: boundS, OK: math.Abs(e) <= boundS}
}

func (c Check) String() string {
	verdict := "within"
	if !c.OK {
		verdict = "OUTSIDE"
	}
	return fmt.Sprintf("measured %s, expected %s: error %s, %s ±%s",
		fmtS(c.MeasuredS, true), fmtS(c.ExpectedS, true), fmtS(c.ErrorS, true), verdict, fmtS(c.BoundS, false))
}

func fmtS(s float64, sign bool) string {
	a := math.Abs(s)
	unit, f := "s", 1.0
	switch {
	case a < 1e-6:
		unit, f = "ns", 1e9
	case a < 1e-3:
		unit, f = "µs", 1e6
	case a < 1:
		unit, f = "ms", 1e3
	}
	if sign {
		return fmt.Sprintf("%+.3f %s", s*f, unit)
	}
	return fmt.Sprintf("%.3f %s", s*f, unit)
}
