package hacksim

import (
	"math"
	"math/cmplx"
	"time"
)

// The chirp (doc.go) is a band-limited wideband signal whose
// cross-correlation between two nodes' recordings has one sharp peak, so
// the lag between them can be measured to a fraction of a sample (package
// alignment). Each period starts at its own phase (a hash of its index),
// so the correlation has no second peak a period away.
const (
	chirpPeriod = time.Millisecond
	chirpSweep  = 0.5 // of the sample rate, within every period
)

// chirp is one heard chirp burst over the sample window [from, to).
type chirp struct {
	from, to int64
	// base is sample 0's time since the burst arrived (true time, the
	// emission's start plus the delay), in seconds; negative before.
	base  float64
	durS  float64 // how long the burst lasts
	rate  float64
	offHz float64 // the sweep's centre relative to the tuned frequency
	amp   float64
}

// newChirp is the chirp heard over [from, to) by a node whose sample 0 was
// taken at first, arriving at arrival (both true time).
func newChirp(first, arrival time.Time, durS float64, rate uint32, offHz, levelDB float64, from, to int64) chirp {
	// A Duration is whole nanoseconds: exact, then one rounding to float.
	base := float64(first.Sub(arrival)) / float64(time.Second)
	return chirp{from: from, to: to, base: base, durS: durS, rate: float64(rate), offHz: offHz,
		amp: newTone(rate, 0, levelDB, 0, 0).amp}
}

// chirpInBand is whether the whole sweep around offHz fits the band of a
// receiver sampling at rate.
func chirpInBand(offHz float64, rate uint32) bool {
	return math.Abs(offHz)+chirpSweep*float64(rate)/2 < float64(rate)/2
}

// at is the chirp's complex value at sample k, zero outside the burst.
func (c chirp) at(k int64) complex128 {
	tau := c.base + float64(k)/c.rate
	if tau < 0 || tau >= c.durS {
		return 0
	}
	return complex(c.amp, 0) * cmplx.Exp(complex(0, chirpPhase(tau, c.rate, c.offHz)))
}

// chirpPhase is the transmitted phase tau seconds into the burst: the
// period's own start phase, the centre offset's rotation and the linear
// sweep from -B/2 to +B/2 over the period (B = chirpSweep·rate).
func chirpPhase(tau, rate, offHz float64) float64 {
	p := chirpPeriod.Seconds()
	n := math.Floor(tau / p)
	u := tau - n*p
	b := chirpSweep * rate
	return 2*math.Pi*(offHz*tau-b/2*u+b/(2*p)*u*u) + periodPhase(int64(n))
}

// periodPhase is a fixed pseudo-random phase for period n (splitmix64).
func periodPhase(n int64) float64 {
	z := uint64(n) + 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	z ^= z >> 31
	return 2 * math.Pi * float64(z>>11) / (1 << 53)
}
