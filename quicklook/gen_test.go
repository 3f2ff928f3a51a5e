package quicklook

import (
	"math"
	"strconv"
	"testing"

	"rfhandoff/internal/quicklooktest"
)

// signal is a generated test capture.
type signal = quicklooktest.Signal

var (
	toneAmpForBinSNR = quicklooktest.ToneAmpForBinSNR
	binHz            = quicklooktest.BinHz
)

// analyse runs the Analyzer over data in one write.
func analyse(t testing.TB, p Params, data []byte) *Analysis {
	t.Helper()
	a := NewAnalyzer(p)
	if n, err := a.Write(data); err != nil || n != len(data) {
		t.Fatalf("Write = %d, %v; want %d, nil", n, err, len(data))
	}
	res := a.Finish()
	if res == nil {
		t.Fatal("Finish returned nil")
	}
	return res
}

// checkFinite fails on any NaN or infinite level.
func checkFinite(t *testing.T, a *Analysis, d Detection) {
	t.Helper()
	bad := func(what string, v float64) {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Fatalf("%s = %v", what, v)
		}
	}
	for r, row := range a.Rows {
		for k, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("Rows[%d][%d] = %v", r, k, v)
			}
		}
	}
	for k, v := range a.Spectrum {
		bad("Spectrum["+strconv.Itoa(k)+"]", v)
	}
	for r, v := range a.BandDBFS {
		bad("BandDBFS["+strconv.Itoa(r)+"]", v)
	}
	bad("PeakDBFS", d.PeakDBFS)
	bad("PeakExcessDB", d.PeakExcessDB)
	bad("NoiseFloorDBFS", d.NoiseFloorDBFS)
	bad("BandFloorDBFS", d.BandFloorDBFS)
}
