package quicklook

import (
	"math"
	"time"
)

// Analysis is the finished quick-look of a capture.
type Analysis struct {
	SampleRateHz, FrequencyHz int64
	FFTSize                   int
	// FrameStride: on average one FFT frame in FrameStride was
	// transformed, evenly spread over each row (see maxFramesPerRow and
	// maxFramesPerSecond); 1 means all of them.
	FrameStride float64

	Samples         int64         // complex samples written
	DiscardedBytes  int           // a trailing odd byte, half a sample
	Duration        time.Duration // Samples / SampleRateHz
	PlannedDuration time.Duration
	RowSeconds      float64 // length of each row (the last may be shorter)
	// RowSamples is the exact length of a row in samples: row r holds the
	// samples from ⌊r·RowSamples⌋ up to ⌊(r+1)·RowSamples⌋, the last row
	// up to Samples.
	RowSamples float64

	// Rows[r][k] is the mean power of bin k in row r in dBFS; bins are
	// fftshifted, from −fs/2 (k = 0) up to fs/2 − fs/FFTSize, with the
	// centre frequency at k = FFTSize/2.
	Rows      [][]float64
	RowFrames []int     // transformed frames averaged into each row
	Spectrum  []float64 // mean power per bin over the whole capture, dBFS
	// BandDBFS is the total power per row (mean |x|²), dBFS, from the
	// transformed frames' bins by Parseval's theorem (Hann-weighted).
	BandDBFS []float64
}

// rowStart and rowEnd bound row r as offsets from the capture's start,
// rowStartSample and rowEndSample as sample indices (the end one past its
// last sample); the last row ends with the capture, taking in a short tail.
func (a *Analysis) rowStart(r int) time.Duration {
	return min(seconds(float64(r)*a.RowSeconds), a.Duration)
}

func (a *Analysis) rowEnd(r int) time.Duration {
	if r >= len(a.Rows)-1 {
		return a.Duration
	}
	return a.rowStart(r + 1)
}

func (a *Analysis) rowStartSample(r int) int64 {
	return min(int64(math.Floor(float64(r)*a.RowSamples)), a.Samples)
}

func (a *Analysis) rowEndSample(r int) int64 {
	if r >= len(a.Rows)-1 {
		return a.Samples
	}
	return a.rowStartSample(r + 1)
}

// BinWidthHz is the width of one FFT bin.
func (a *Analysis) BinWidthHz() float64 { return float64(a.SampleRateHz) / float64(a.FFTSize) }

// binOffsetHz is bin k's offset from the centre frequency.
func (a *Analysis) binOffsetHz(k int) float64 {
	return float64(k-a.FFTSize/2) * float64(a.SampleRateHz) / float64(a.FFTSize)
}

func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }
