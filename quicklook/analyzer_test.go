package quicklook

import (
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestAnalyzerSplitWrites(t *testing.T) {
	s := signal{Rate: testRate, Duration: 3 * time.Second, Sigma: 12, Seed: 3,
		ToneHz: 20e3, ToneAmp: 30, ToneFrom: time.Second, ToneTo: 2 * time.Second}
	data := s.Bytes()
	data = append(data, 0x7f, 0x80, 0x01) // a partial frame and half a sample at the end
	p := testParams()
	p.PlannedDuration = 3 * time.Second
	want := analyse(t, p, data)
	checkSplitWrites(t, p, data, want)
	if want.DiscardedBytes != 1 || want.Samples != int64(len(data)/2) {
		t.Errorf("DiscardedBytes = %d, Samples = %d; want 1, %d", want.DiscardedBytes, want.Samples, len(data)/2)
	}
}

// TestAnalyzerSplitWritesCapped: with rows of 183 frames of which
// maxFramesPerRow are transformed, skipping the others gives the same
// analysis however the writes split them.
func TestAnalyzerSplitWritesCapped(t *testing.T) {
	s := signal{Rate: testRate, Duration: 3 * time.Second, Sigma: 12, Seed: 4,
		ToneHz: 20e3, ToneAmp: 30, ToneFrom: time.Second, ToneTo: 2 * time.Second}
	data := append(s.Bytes(), 0x7f, 0x80, 0x01)
	p := testParams()
	p.PlannedDuration, p.Rows = 3*time.Second, 8
	want := analyse(t, p, data)
	if want.FrameStride < 2 {
		t.Fatalf("FrameStride = %.2f: the rows are not capped", want.FrameStride)
	}
	for r, f := range want.RowFrames {
		if f < maxFramesPerRow-1 || f > maxFramesPerRow+1 {
			t.Errorf("row %d averages %d frames, want %d ± 1", r, f, maxFramesPerRow)
		}
	}
	checkSplitWrites(t, p, data, want)
	if want.DiscardedBytes != 1 || want.Samples != int64(len(data)/2) {
		t.Errorf("DiscardedBytes = %d, Samples = %d; want 1, %d", want.DiscardedBytes, want.Samples, len(data)/2)
	}
}

// checkSplitWrites analyses data in writes split several ways and wants
// the same analysis as want (from one write).
func checkSplitWrites(t *testing.T, p Params, data []byte, want *Analysis) {
	t.Helper()
	// Each split gives the size of write number i (at byte offset off).
	splits := map[string]func(i, off int) int{
		"single bytes, then the rest": func(_, off int) int {
			if off < 3*2*testFFT+5 {
				return 1
			}
			return len(data)
		},
		"odd 3/7/2047":     func(i, _ int) int { return []int{3, 7, 2047}[i%3] },
		"frame and a byte": func(int, int) int { return 2*testFFT + 1 },
		"random": func() func(int, int) int {
			r := rand.New(rand.NewPCG(1, 2))
			return func(int, int) int { return 1 + r.IntN(9000) }
		}(),
	}
	for name, next := range splits {
		t.Run(name, func(t *testing.T) {
			a := NewAnalyzer(p)
			rest := data
			for i := 0; len(rest) > 0; i++ {
				n := min(next(i, len(data)-len(rest)), len(rest))
				if w, err := a.Write(rest[:n]); err != nil || w != n {
					t.Fatalf("Write(%d bytes) = %d, %v", n, w, err)
				}
				rest = rest[n:]
			}
			got := a.Finish()
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("split writes gave a different analysis: rows %d vs %d, samples %d vs %d",
					len(got.Rows), len(want.Rows), got.Samples, want.Samples)
			}
		})
	}
}

func TestAnalyzerDurations(t *testing.T) {
	sig := signal{Rate: testRate, Duration: 4 * time.Second, Sigma: 10, Seed: 9}
	data := sig.Bytes()
	tests := []struct {
		name    string
		planned time.Duration
		rows    int
	}{
		{"as planned", 4 * time.Second, 32},
		{"longer than planned extends rows", 2 * time.Second, 16},
		{"shorter than planned trims rows", 8 * time.Second, 64},
		{"no planned duration", 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := Params{SampleRateHz: testRate, FrequencyHz: 1e8, PlannedDuration: tc.planned, Rows: tc.rows}
			a := analyse(t, p, data)
			if a.Duration != 4*time.Second {
				t.Errorf("Duration = %v, want 4s", a.Duration)
			}
			wantRow := defaultRowDuration.Seconds()
			if tc.planned > 0 {
				wantRow = tc.planned.Seconds() / float64(tc.rows)
			}
			if a.RowSeconds < wantRow*0.999 || a.RowSeconds > wantRow*1.001 {
				t.Errorf("RowSeconds = %v, want %v", a.RowSeconds, wantRow)
			}
			wantRows := int(4 / wantRow)
			if len(a.Rows) != wantRows || len(a.BandDBFS) != wantRows || len(a.RowFrames) != wantRows {
				t.Errorf("%d rows (%d band, %d counts), want %d", len(a.Rows), len(a.BandDBFS), len(a.RowFrames), wantRows)
			}
			if end := a.rowEnd(len(a.Rows) - 1); end != a.Duration {
				t.Errorf("last row ends at %v, want %v", end, a.Duration)
			}
			for r, f := range a.RowFrames {
				if f < minFramesPerRow {
					t.Errorf("row %d averages %d frames, want at least %d", r, f, minFramesPerRow)
				}
			}
			if len(a.Spectrum) != defaultFFTSize || len(a.Rows[0]) != defaultFFTSize {
				t.Errorf("spectrum %d bins, row %d bins", len(a.Spectrum), len(a.Rows[0]))
			}
		})
	}
}

func TestAnalyzerStride(t *testing.T) {
	tests := []struct {
		rate    int64
		planned time.Duration
		want    int
	}{
		{2_000_000, 120 * time.Second, 1},
		{10_000_000, 120 * time.Second, 1},
		{20_000_000, 120 * time.Second, 2},
		{20_000_000, 100 * time.Millisecond, 1}, // short rows keep every frame
	}
	for _, tc := range tests {
		p := Params{SampleRateHz: tc.rate, PlannedDuration: tc.planned}.withDefaults()
		if got := p.geometry().stride; got != tc.want {
			t.Errorf("stride at %d Hz over %v = %d, want %d", tc.rate, tc.planned, got, tc.want)
		}
	}
}

// TestAnalyzerFramesPerRow: whatever the sample rate, about
// maxFramesPerRow frames are transformed per row, evenly spread, and
// never more a second than maxFramesPerSecond allows.
func TestAnalyzerFramesPerRow(t *testing.T) {
	tests := []struct {
		rate    int64
		planned time.Duration
		spacing float64 // frames between transformed frames
	}{
		{2_000_000, 3 * time.Second, 1},                             // 32-frame rows: every frame
		{2_000_000, 120 * time.Second, 2e6 * 120 / 512 / 1024 / 64}, // 458-frame rows
		{20_000_000, 25 * time.Second, 20e6 * 25 / 512 / 1024 / 64}, // the 1 GB capture
		{20_000_000, 120 * time.Second, 20e6 * 120 / 512 / 1024 / 64},
		{20_000_000, 2 * time.Second, 2}, // short rows: the per-second cap rules
	}
	for _, tc := range tests {
		p := Params{SampleRateHz: tc.rate, PlannedDuration: tc.planned}.withDefaults()
		g := p.geometry()
		if math.Abs(g.spacing-tc.spacing) > 1e-9 {
			t.Errorf("spacing at %d Hz over %v = %.4f, want %.4f", tc.rate, tc.planned, g.spacing, tc.spacing)
		}
		perRow := g.rowSamples / float64(p.FFTSize) / g.spacing
		perSecond := float64(tc.rate) / float64(p.FFTSize) / g.spacing
		if perRow > maxFramesPerRow+1e-9 || perRow < minFramesPerRow || perSecond > maxFramesPerSecond {
			t.Errorf("at %d Hz over %v: %.1f frames a row, %.0f a second", tc.rate, tc.planned, perRow, perSecond)
		}
	}
}

func TestAnalyzerInvalidParams(t *testing.T) {
	a := NewAnalyzer(Params{SampleRateHz: 0, FFTSize: 1000, Rows: -1})
	_, err := a.Write([]byte{1, 2})
	if err == nil || !strings.Contains(err.Error(), "quicklook: ") {
		t.Fatalf("Write error %v, want the invalid parameters named", err)
	}
	for _, field := range []string{"SampleRateHz", "FFTSize", "Rows"} {
		if !strings.Contains(err.Error(), field) {
			t.Errorf("error %q does not name %s", err, field)
		}
	}
	if a.Finish() != nil {
		t.Error("Finish with invalid params returned an analysis")
	}
}

func TestAnalyzerWriteAfterFinish(t *testing.T) {
	a := NewAnalyzer(testParams())
	first := a.Finish()
	if _, err := a.Write([]byte{0, 0}); !errors.Is(err, errFinished) {
		t.Fatalf("Write after Finish: %v", err)
	}
	if a.Finish() != first {
		t.Error("second Finish returned a different analysis")
	}
}
