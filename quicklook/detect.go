package quicklook

import (
	"fmt"
	"math"
	"slices"
	"time"
)

// rf_tx_observed values (PROTOCOL#result).
const (
	observedTX      = "EXPECTED_EXTERNAL_TX"
	observedUnknown = "UNKNOWN"
)

const (
	defaultThresholdDB = 10.0 // replaces a threshold that is not a positive number
	// floorPercentile picks each bin's noise floor over the rows; a
	// transmission filling more of the capture than 1 − floorPercentile
	// raises the floor and reads as UNKNOWN, never as "nothing sent".
	floorPercentile = 0.2
)

// Detection is the energy detector's verdict.
type Detection struct {
	Burst      bool
	Start, End time.Duration // the longest burst, as offsets from the capture's start
	// StartSample and EndSample: first sample and one past the last.
	StartSample, EndSample int64
	Bursts                 int // bursts that qualified (the longest is reported)
	// LowOffsetHz and HighOffsetHz bound the band the burst occupied.
	LowOffsetHz, HighOffsetHz float64

	// PeakDBFS is the strongest bin level during the burst (over the whole
	// capture when there is none), PeakExcessDB its rise over its floor.
	PeakDBFS       float64
	PeakOffsetHz   float64
	PeakExcessDB   float64
	NoiseFloorDBFS float64 // the median of the per-bin floors
	BandFloorDBFS  float64

	ThresholdDB float64
	MinDuration time.Duration
	FrequencyHz int64
}

// Detect looks for a burst: a run of rows, lasting at least minDuration, in
// which some bin (or the band power) stands thresholdDB over its noise
// floor. Each bin has its own floor, so a steady DC spike is no burst
// while a narrow tone is one.
func Detect(a *Analysis, thresholdDB float64, minDuration time.Duration) Detection {
	if !(thresholdDB > 0) || math.IsInf(thresholdDB, 0) {
		thresholdDB = defaultThresholdDB
	}
	minDuration = max(minDuration, 0)
	d := Detection{
		ThresholdDB: thresholdDB, MinDuration: minDuration,
		PeakDBFS: minDBFS, NoiseFloorDBFS: minDBFS, BandFloorDBFS: minDBFS,
	}
	if a == nil || len(a.Rows) == 0 {
		return d
	}
	d.FrequencyHz = a.FrequencyHz
	nr, nb := len(a.Rows), a.FFTSize

	floor := make([]float64, nb)
	col := make([]float64, nr)
	for k := range floor {
		for r, row := range a.Rows {
			col[r] = row[k]
		}
		floor[k] = percentile(col, floorPercentile)
	}
	d.BandFloorDBFS = percentile(slices.Clone(a.BandDBFS), floorPercentile)
	d.NoiseFloorDBFS = percentile(slices.Clone(floor), 0.5)

	// Per row: the largest rise over the floor and where it is.
	excess := make([]float64, nr)
	peakBin := make([]int, nr)
	for r, row := range a.Rows {
		best, bin := a.BandDBFS[r]-d.BandFloorDBFS, -1
		for k, v := range row {
			if e := v - floor[k]; e > best {
				best, bin = e, k
			}
		}
		excess[r], peakBin[r] = best, bin
	}

	// Runs of rows over the threshold; keep the longest that lasts.
	bestLen := time.Duration(-1)
	from, to, start := 0, -1, 0
	for r := 0; r <= nr; r++ {
		if r < nr && excess[r] >= thresholdDB {
			continue
		}
		if start < r {
			if l := a.rowEnd(r-1) - a.rowStart(start); l >= minDuration {
				d.Bursts++
				if l > bestLen {
					bestLen, from, to = l, start, r-1
				}
			}
		}
		start = r + 1
	}
	lo, hi := 0, nr-1
	if d.Bursts > 0 {
		d.Burst = true
		d.Start, d.End = a.rowStart(from), a.rowEnd(to)
		d.StartSample, d.EndSample = a.rowStartSample(from), a.rowEndSample(to)
		d.LowOffsetHz, d.HighOffsetHz = burstBand(a, floor, thresholdDB, from, to)
		lo, hi = from, to
	}
	d.PeakExcessDB = math.Inf(-1)
	for r := lo; r <= hi; r++ {
		if excess[r] <= d.PeakExcessDB {
			continue
		}
		d.PeakExcessDB = excess[r]
		if k := peakBin[r]; k >= 0 {
			d.PeakDBFS, d.PeakOffsetHz = a.Rows[r][k], a.binOffsetHz(k)
		} else { // the band power rose more than any single bin
			d.PeakDBFS, d.PeakOffsetHz = a.BandDBFS[r], 0
		}
	}
	return d
}

// burstBand is the band over which bins stood thresholdDB over their
// floor in rows from..to. Without any such bin, or when both outermost bins
// rose (bin 0, at −fs/2, is also +fs/2), it is the whole band.
func burstBand(a *Analysis, floor []float64, thresholdDB float64, from, to int) (lo, hi float64) {
	kLo, kHi := len(floor), -1
	for r := from; r <= to; r++ {
		for k, v := range a.Rows[r] {
			if v-floor[k] >= thresholdDB {
				kLo, kHi = min(kLo, k), max(kHi, k)
			}
		}
	}
	half := float64(a.SampleRateHz) / 2
	if kHi < 0 || (kLo == 0 && kHi == len(floor)-1) {
		return -half, half
	}
	w := a.BinWidthHz()
	return max(a.binOffsetHz(kLo)-w/2, -half), min(a.binOffsetHz(kHi)+w/2, half)
}

// percentile returns the q-quantile of x (nearest rank), reordering x.
func percentile(x []float64, q float64) float64 {
	if len(x) == 0 {
		return minDBFS
	}
	k := int(q * float64(len(x)-1))
	return quickselect(x, k)
}

func quickselect(x []float64, k int) float64 {
	lo, hi := 0, len(x)-1
	for lo < hi {
		// Median of three as the pivot keeps sorted input linear.
		a, b, c := x[lo], x[lo+(hi-lo)/2], x[hi]
		p := max(min(a, b), min(max(a, b), c))
		i, j := lo, hi
		for i <= j {
			for x[i] < p {
				i++
			}
			for x[j] > p {
				j--
			}
			if i <= j {
				x[i], x[j] = x[j], x[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return x[k]
		}
	}
	return x[k]
}

// RFTXObserved is the rf_tx_observed value; it never claims nothing was sent.
func (d Detection) RFTXObserved() string {
	if d.Burst {
		return observedTX
	}
	return observedUnknown
}

// Notes are human lines for RX_RESULT.md.
func (d Detection) Notes() []string {
	crit := fmt.Sprintf("%.1f dB over the noise floor for at least %.2f s", d.ThresholdDB, d.MinDuration.Seconds())
	floor := fmt.Sprintf("Noise floor: %.1f dBFS per bin (median of per-bin floors); band power floor %.1f dBFS.",
		d.NoiseFloorDBFS, d.BandFloorDBFS)
	if !d.Burst {
		return []string{
			fmt.Sprintf("No burst detected (%s); rf_tx_observed = %s.", crit, observedUnknown),
			fmt.Sprintf("Strongest rise over the floor: %s.", fmtDB(d.PeakExcessDB)),
			floor,
		}
	}
	lines := []string{
		fmt.Sprintf("Burst detected (%s); rf_tx_observed = %s.", crit, observedTX),
		fmt.Sprintf("Burst start: %.2f s, end: %.2f s after capture start (duration %.2f s).",
			d.Start.Seconds(), d.End.Seconds(), (d.End - d.Start).Seconds()),
		fmt.Sprintf("Peak level: %.1f dBFS per bin at %.6f MHz (%+.1f kHz from centre) (%s over its floor).",
			d.PeakDBFS, (float64(d.FrequencyHz)+d.PeakOffsetHz)/1e6, d.PeakOffsetHz/1e3, fmtDB(d.PeakExcessDB)),
		fmt.Sprintf("Burst band: %.6f – %.6f MHz (%.1f kHz wide).",
			(float64(d.FrequencyHz)+d.LowOffsetHz)/1e6, (float64(d.FrequencyHz)+d.HighOffsetHz)/1e6, (d.HighOffsetHz-d.LowOffsetHz)/1e3),
		floor,
	}
	if d.Bursts > 1 {
		lines = append(lines, fmt.Sprintf("%d bursts qualified; the longest is reported.", d.Bursts))
	}
	return lines
}

func fmtDB(v float64) string {
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return "n/a"
	}
	return fmt.Sprintf("%+.1f dB", v)
}
