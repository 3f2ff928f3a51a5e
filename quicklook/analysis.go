package quicklook

import (
	"math"
	"time"
)

// Analysis is the finished quick-look of a capture.
type Analysis struct {
	SampleRateHz, FrequencyHz int64
	FFTSize                   int
	FrameStride               float64 // one frame in FrameStride was transformed; 1: all

	Samples         int64         // complex samples written
	DiscardedBytes  int           // a trailing odd byte, half a sample
	Duration        time.Duration // Samples / SampleRateHz
	PlannedDuration time.Duration
	RowSeconds      float64 // length of each row (the last may be shorter)
	RowSamples      float64 // row r holds samples ⌊r·RowSamples⌋ to ⌊(r+1)·RowSamples⌋

	// Rows[r][k] is the mean power of bin k in row r in dBFS, fftshifted.
	Rows      [][]float64
	RowFrames []int     // transformed frames averaged into each row
	Spectrum  []float64 // mean power per bin over the whole capture, dBFS
	BandDBFS  []float64 // total power per row (mean |x|²), dBFS, by Parseval
}

// rowStart and rowEnd bound row r as offsets, rowStartSample and
// rowEndSample as sample indices; the last row ends with the capture.
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

func (a *Analysis) BinWidthHz() float64 { return float64(a.SampleRateHz) / float64(a.FFTSize) }

func (a *Analysis) binOffsetHz(k int) float64 {
	return float64(k-a.FFTSize/2) * float64(a.SampleRateHz) / float64(a.FFTSize)
}

func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }
