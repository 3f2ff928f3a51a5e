package hacksim

import (
	"math"
	"math/cmplx"
	"math/rand/v2"
)

const (
	// blockSize is one libhackrf USB transfer: the tool counts, writes and
	// reports in these units.
	blockSize = 262144
	// poolSize is the pre-generated noise the blocks are cut from at
	// random offsets, so even 20 Msps (or "fast") costs a copy, not a
	// Gaussian draw per byte.
	poolSize = 1 << 20
	// noiseSigma is the noise's standard deviation per I or Q, in LSB.
	noiseSigma = 3.0
	// burstDB is the tone's power over the total noise power.
	burstDB = 25.0
	// burstOffsetHz is where the burst tone sits relative to the centre.
	burstOffsetHz = 200_000
)

// seed2 is the PCG generator's second seed word; the first is the run's
// seed (HACKRF_SIM_SEED, or one of its own per run and output file).
const seed2 = 0x0919_2022_0901_dead

// source makes the received ci8 blocks: Gaussian noise, plus tone bursts
// over windows of sample indices (the burst mode's, the on-air one's).
type source struct {
	rng    *rand.Rand
	pool   []byte
	energy []uint64 // energy[i] = sum of v² over pool[:i]

	tones  []tone
	chirps []chirp
	buf    []byte
}

// tone is one burst: a complex tone over the sample window [from, to).
type tone struct {
	from, to int64
	omega    float64 // radians per sample
	amp      float64
}

// newTone is a burst at offsetHz from the centre, levelDB relative to
// burstDB (its power over the noise's 2σ², I and Q).
func newTone(sampleRate uint32, offsetHz, levelDB float64, from, to int64) tone {
	return tone{from: from, to: to,
		omega: 2 * math.Pi * offsetHz / float64(sampleRate),
		amp:   math.Sqrt(2 * noiseSigma * noiseSigma * math.Pow(10, (burstDB+levelDB)/10))}
}

func newSource(seed uint64, sampleRate uint32, burst bool, from, to int64) *source {
	rng := rand.New(rand.NewPCG(seed, seed2))
	s := &source{rng: rng, pool: make([]byte, poolSize), energy: make([]uint64, poolSize+1), buf: make([]byte, blockSize)}
	for i := range s.pool {
		v := math.Round(rng.NormFloat64() * noiseSigma)
		v = math.Max(-128, math.Min(127, v))
		s.pool[i] = byte(int8(v))
		s.energy[i+1] = s.energy[i] + uint64(v*v)
	}
	if burst {
		s.tones = append(s.tones, newTone(sampleRate, burstOffsetHz, 0, from, to))
	}
	return s
}

// block returns the block that starts at sample index first, and its
// energy (sum of squares of all its bytes, as the tool computes power).
// The slice is only valid until the next call.
func (s *source) block(first int64) ([]byte, uint64) {
	off := 2 * s.rng.IntN((poolSize-blockSize)/2+1)
	noise := s.pool[off : off+blockSize]
	last := first + blockSize/2
	copied := false
	// add adds v(k) to each sample k in [lo, hi), on a copy of the noise.
	add := func(lo, hi int64, v func(k int64) complex128) {
		if lo >= hi {
			return
		}
		if !copied {
			copy(s.buf, noise)
			copied = true
		}
		for k := lo; k < hi; k++ {
			z := v(k)
			i := 2 * (k - first)
			s.buf[i] = clip8(float64(int8(s.buf[i])) + real(z))
			s.buf[i+1] = clip8(float64(int8(s.buf[i+1])) + imag(z))
		}
	}
	for _, t := range s.tones {
		lo := max(first, t.from)
		// The phase comes from the absolute sample index, so the tone is
		// continuous across blocks; within a block a phasor is rotated.
		ph := cmplx.Exp(complex(0, t.omega*float64(lo-t.from)))
		step := cmplx.Exp(complex(0, t.omega))
		add(lo, min(last, t.to), func(int64) complex128 {
			z := complex(t.amp*real(ph), t.amp*imag(ph))
			ph *= step
			return z
		})
	}
	// One sample of slack each side: at() decides by the sample's own
	// time, which float rounding may put a hair across the window.
	for _, c := range s.chirps {
		add(max(first, c.from-1), min(last, c.to+1), c.at)
	}
	if !copied {
		return noise, s.energy[off+blockSize] - s.energy[off]
	}
	return s.buf, energy(s.buf)
}

// energy is the sum of squares of the ci8 bytes b, as the tool computes power.
func energy(b []byte) uint64 {
	var e uint64
	for _, v := range b {
		e += uint64(int64(int8(v)) * int64(int8(v)))
	}
	return e
}

func clip8(v float64) byte {
	v = math.Round(v)
	v = math.Max(-128, math.Min(127, v))
	return byte(int8(v))
}
