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

// Seeds of the PCG generator: a capture is the same every run.
const seed1, seed2 = 0x5eed_4ac6_0f0f_2022, 0x0919_2022_0901_dead

// source makes the received ci8 blocks: Gaussian noise, plus an optional
// tone burst over a window of sample indices.
type source struct {
	rng    *rand.Rand
	pool   []byte
	energy []uint64 // energy[i] = sum of v² over pool[:i]

	burst              bool
	burstFrom, burstTo int64   // sample window [burstFrom, burstTo)
	omega              float64 // tone radians per sample
	amp                float64
	buf                []byte
}

func newSource(sampleRate uint32, burst bool, from, to int64) *source {
	rng := rand.New(rand.NewPCG(seed1, seed2))
	s := &source{rng: rng, pool: make([]byte, poolSize), energy: make([]uint64, poolSize+1)}
	for i := range s.pool {
		v := math.Round(rng.NormFloat64() * noiseSigma)
		v = math.Max(-128, math.Min(127, v))
		s.pool[i] = byte(int8(v))
		s.energy[i+1] = s.energy[i] + uint64(v*v)
	}
	if burst {
		s.burst, s.burstFrom, s.burstTo = true, from, to
		s.omega = 2 * math.Pi * burstOffsetHz / float64(sampleRate)
		// Tone power A² against the noise's 2σ² (I and Q).
		s.amp = math.Sqrt(2 * noiseSigma * noiseSigma * math.Pow(10, burstDB/10))
		s.buf = make([]byte, blockSize)
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
	if !s.burst || last <= s.burstFrom || first >= s.burstTo {
		return noise, s.energy[off+blockSize] - s.energy[off]
	}
	copy(s.buf, noise)
	lo, hi := max(first, s.burstFrom), min(last, s.burstTo)
	// The phase comes from the absolute sample index, so the tone is
	// continuous across blocks; within a block a phasor is rotated.
	ph := cmplx.Exp(complex(0, s.omega*float64(lo-s.burstFrom)))
	step := cmplx.Exp(complex(0, s.omega))
	for k := lo; k < hi; k++ {
		i := 2 * (k - first)
		s.buf[i] = clip8(float64(int8(s.buf[i])) + s.amp*real(ph))
		s.buf[i+1] = clip8(float64(int8(s.buf[i+1])) + s.amp*imag(ph))
		ph *= step
	}
	var e uint64
	for _, b := range s.buf {
		v := int64(int8(b))
		e += uint64(v * v)
	}
	return s.buf, e
}

func clip8(v float64) byte {
	v = math.Round(v)
	v = math.Max(-128, math.Min(127, v))
	return byte(int8(v))
}
