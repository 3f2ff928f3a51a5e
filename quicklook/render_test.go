package quicklook

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/image/font"
)

func renderCase(t *testing.T, a *Analysis, d Detection, m Meta) image.Image {
	t.Helper()
	var buf bytes.Buffer
	if err := RenderPNG(&buf, a, d, m); err != nil {
		t.Fatalf("RenderPNG: %v", err)
	}
	img, err := png.Decode(&buf)
	if err != nil {
		t.Fatalf("decoding the PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() != Width || b.Dy() != Height {
		t.Fatalf("PNG is %dx%d, want %dx%d", b.Dx(), b.Dy(), Width, Height)
	}
	return img
}

// countColour counts the pixels of colour c in rect.
func countColour(img image.Image, rect image.Rectangle, c [3]uint8) int {
	n := 0
	for y := rect.Min.Y; y < rect.Max.Y; y++ {
		for x := rect.Min.X; x < rect.Max.X; x++ {
			r, g, b, _ := img.At(x, y).RGBA()
			if uint8(r>>8) == c[0] && uint8(g>>8) == c[1] && uint8(b>>8) == c[2] {
				n++
			}
		}
	}
	return n
}

func TestRenderPNG(t *testing.T) {
	start := time.Date(2025, 3, 14, 9, 26, 53, 0, time.UTC)
	meta := Meta{TaskID: "OTA_TEST_001", Start: start, Source: "capture.ci8", Details: "LNA 16 dB, VGA 20 dB"}
	red := [3]uint8{burstCl.R, burstCl.G, burstCl.B}

	burst := signal{Rate: testRate, Duration: testDur, Sigma: 10, Seed: 11,
		ToneHz: binHz(testRate, testFFT, 150), ToneAmp: toneAmpForBinSNR(10, testFFT, 25),
		ToneFrom: testDur / 3, ToneTo: 2 * testDur / 3}
	a := analyse(t, testParams(), burst.Bytes())
	d := Detect(a, 10, 500*time.Millisecond)
	if !d.Burst {
		t.Fatal("no burst to draw")
	}
	img := renderCase(t, a, d, meta)
	// The burst lines cross the spectrogram at its start and end.
	for _, at := range []time.Duration{d.Start, d.End} {
		y := specRect.Min.Y + int(at.Seconds()/a.Duration.Seconds()*float64(specRect.Dy()-1)+0.5)
		band := image.Rect(specRect.Min.X, y-2, specRect.Min.X+specRect.Dx()/2, y+3)
		if n := countColour(img, band, red); n < specRect.Dx()/6 {
			t.Errorf("burst line at %v (y=%d): %d marker pixels", at, y, n)
		}
	}
	// The tone stands out bright from the dark noise.
	x := freqX(a, specRect, d.PeakOffsetHz)
	mid := specRect.Min.Y + specRect.Dy()/2
	if l, want := luma(img.At(x, mid)), luma(viridis[150]); l < want {
		t.Errorf("pixel at the tone (%d,%d) is %v (luma %.0f), want at least as bright as %v", x, mid, img.At(x, mid), l, viridis[150])
	}
	if l, want := luma(img.At(specRect.Min.X+10, mid)), luma(viridis[60]); l > want {
		t.Errorf("noise pixel is %v (luma %.0f), want darker than %v", img.At(specRect.Min.X+10, mid), l, viridis[60])
	}

	t.Run("no burst has no marker", func(t *testing.T) {
		quiet := signal{Rate: testRate, Duration: 2 * time.Second, Sigma: 10, Seed: 12}
		p := testParams()
		p.PlannedDuration = 2 * time.Second
		a := analyse(t, p, quiet.Bytes())
		d := Detect(a, 10, 500*time.Millisecond)
		img := renderCase(t, a, d, meta)
		if n := countColour(img, specRect, red); n != 0 {
			t.Errorf("%d burst-marker pixels without a burst", n)
		}
	})
	t.Run("empty and silent captures", func(t *testing.T) {
		for _, data := range [][]byte{nil, make([]byte, 4*testRate)} {
			a := analyse(t, testParams(), data)
			renderCase(t, a, Detect(a, 10, time.Second), Meta{})
		}
	})
	t.Run("nil analysis", func(t *testing.T) {
		if err := RenderPNG(&bytes.Buffer{}, nil, Detection{}, meta); !errors.Is(err, errNoAnalysis) {
			t.Fatalf("RenderPNG(nil) = %v", err)
		}
	})
}

func TestTicks(t *testing.T) {
	tests := []struct {
		span float64
		n    int
		want float64
	}{
		{120, 10, 20}, {2, 8, 0.25}, {20, 8, 2.5}, {8, 10, 1}, {30, 8, 5}, {0.3, 6, 0.05},
	}
	for _, tc := range tests {
		if got := niceStep(tc.span, tc.n); got < tc.want*0.999 || got > tc.want*1.001 {
			t.Errorf("niceStep(%v, %d) = %v, want %v", tc.span, tc.n, got, tc.want)
		}
	}
	if got := ticks(432.92, 434.92, 0.25); len(got) != 8 || got[0] < 432.99 || got[0] > 433.01 {
		t.Errorf("ticks(432.92, 434.92, 0.25) = %v", got)
	}
	for step, want := range map[float64]int{20: 0, 0.25: 2, 0.5: 1, 2.5: 1, 0.05: 2} {
		if got := decimals(step); got != want {
			t.Errorf("decimals(%v) = %d, want %d", step, got, want)
		}
	}
}

func luma(c color.Color) float64 {
	r, g, b, _ := c.RGBA()
	return (0.299*float64(r) + 0.587*float64(g) + 0.114*float64(b)) / 257
}

func TestWritePNGFile(t *testing.T) {
	dir := t.TempDir()
	a := analyse(t, testParams(), signal{Rate: testRate, Duration: time.Second, Sigma: 5, Seed: 1}.Bytes())
	d := Detect(a, 10, time.Second)
	path := filepath.Join(dir, "q.png")
	if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WritePNGFile(path, a, d, Meta{TaskID: "T_1"}); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if cfg, err := png.DecodeConfig(f); err != nil || cfg.Width != Width || cfg.Height != Height {
		t.Fatalf("%+v, %v", cfg, err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("left %d files behind", len(entries))
	}
	if err := WritePNGFile(filepath.Join(dir, "missing", "q.png"), a, d, Meta{}); err == nil {
		t.Error("no error for a missing directory")
	}
	if err := WritePNGFile(filepath.Join(dir, "nil.png"), nil, d, Meta{}); !errors.Is(err, errNoAnalysis) {
		t.Errorf("nil analysis: %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("a failed write left files: %d entries", len(entries))
	}
}

// TestHeaderLineWording: the share of the signal the spectrogram rests on
// is said in words, never as "1 frame in 1.79".
func TestHeaderLineWording(t *testing.T) {
	for _, tt := range []struct {
		stride float64
		want   string
	}{
		{0, "every sample analysed"},
		{1, "every sample analysed"},
		{1.79, "56 % of the samples analysed"},
		{2, "50 % of the samples analysed"},
		{9.9, "10 % of the samples analysed"},
		{12.5, "8 % of the samples analysed"},
		{357, "0.28 % of the samples analysed"},
	} {
		if got := analysedShare(tt.stride); got != tt.want {
			t.Errorf("analysedShare(%v) = %q, want %q", tt.stride, got, tt.want)
		}
	}

	a := &Analysis{SampleRateHz: 20_000_000, FrequencyHz: 433_920_000, FFTSize: 1024, FrameStride: 1.79,
		Duration: 25 * time.Second, RowSeconds: 25.0 / 512, Rows: make([][]float64, 512)}
	start := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	line := headerLine(a, Meta{Start: start, FrequencyHz: a.FrequencyHz, SampleRateHz: a.SampleRateHz})
	want := "2026-12-01 09:00:00 – 09:00:25 UTC   25.00 s   centre 433.92 MHz   20 MS/s   FFT 1024 bins, 512 rows × 0.049 s, 56 % of the samples analysed"
	if line != want {
		t.Errorf("header\n got %q\nwant %q", line, want)
	}

	// A long header still fits the picture: an hour across midnight at
	// 20 Msps near 6 GHz.
	long := &Analysis{SampleRateHz: 19_999_999, FFTSize: 1024, FrameStride: 3570,
		Duration: 3600 * time.Second, RowSeconds: 7.031, Rows: make([][]float64, 512)}
	late := time.Date(2026, 12, 31, 23, 30, 0, 0, time.UTC)
	line = headerLine(long, Meta{Start: late, End: late.Add(time.Hour), FrequencyHz: 5_999_999_999, SampleRateHz: long.SampleRateHz})
	c, err := newCanvas(Width, Height, white)
	if err != nil {
		t.Fatal(err)
	}
	if w := font.MeasureString(c.text, line).Round(); w > Width-40 {
		t.Errorf("header %q is %d px wide; the picture has %d", line, w, Width-40)
	}
}

// A simulated capture's quick-look says so first in its title.
func TestTitleSaysSimulated(t *testing.T) {
	for _, tt := range []struct {
		m    Meta
		want string
	}{
		{Meta{TaskID: "RX_OTA_0001"}, "RX quick-look: RX_OTA_0001"},
		{Meta{Source: "x.sigmf-data"}, "RX quick-look: x.sigmf-data"},
		{Meta{}, "RX quick-look"},
		{Meta{TaskID: "RX_OTA_0001", Simulated: true}, "SIMULATED RX quick-look (rfhandoff's HackRF simulator, no radio): RX_OTA_0001"},
	} {
		if got := titleText(tt.m); got != tt.want {
			t.Errorf("titleText(%+v) = %q, want %q", tt.m, got, tt.want)
		}
	}
}
