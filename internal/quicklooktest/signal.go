package quicklooktest

import (
	"math"
	"math/rand/v2"
	"time"
)

// Signal describes a generated ci8 capture.
type Signal struct {
	Rate     int64 // samples per second
	Duration time.Duration
	Sigma    float64 // noise standard deviation per component, in counts
	Seed     uint64

	ToneHz           float64       // the tone's offset from the centre frequency
	ToneAmp          float64       // its amplitude in counts (0: no tone)
	ToneFrom, ToneTo time.Duration // the window of the tone and of Boost
	Boost            float64       // extra noise sigma in the window (a wideband burst)
}

// ToneAmpForBinSNR is the tone amplitude that stands snrDB over the
// per-bin noise level of an n-bin Hann FFT (equivalent noise bandwidth 1.5
// bins) when the tone sits on a bin.
func ToneAmpForBinSNR(sigma float64, n int, snrDB float64) float64 {
	noiseBin := 2 * sigma * sigma * 1.5 / float64(n)
	return math.Sqrt(noiseBin * math.Pow(10, snrDB/10))
}

// BinHz is the centre of bin k (an offset from the centre frequency) of an
// n-bin FFT at rate.
func BinHz(rate int64, n, k int) float64 { return float64(k) * float64(rate) / float64(n) }

// Bytes renders the capture as interleaved int8 I/Q, clipped to
// [-128, 127]. The same Signal always gives the same bytes.
func (s Signal) Bytes() []byte {
	n := int(float64(s.Rate) * s.Duration.Seconds())
	rng := rand.New(rand.NewPCG(s.Seed, 0x5eed))
	out := make([]byte, 2*n)
	from := int(float64(s.Rate) * s.ToneFrom.Seconds())
	to := int(float64(s.Rate) * s.ToneTo.Seconds())
	w := 2 * math.Pi * s.ToneHz / float64(s.Rate)
	for i := range n {
		re, im := rng.NormFloat64()*s.Sigma, rng.NormFloat64()*s.Sigma
		if i >= from && i < to {
			if s.ToneAmp != 0 {
				sn, cs := math.Sincos(w * float64(i))
				re += s.ToneAmp * cs
				im += s.ToneAmp * sn
			}
			if s.Boost != 0 {
				re += rng.NormFloat64() * s.Boost
				im += rng.NormFloat64() * s.Boost
			}
		}
		out[2*i], out[2*i+1] = clip8(re), clip8(im)
	}
	return out
}

func clip8(v float64) byte {
	return byte(int8(max(-128, min(127, math.Round(v)))))
}
