package quicklook

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

const (
	testRate = 500_000
	testDur  = 8 * time.Second
	testFFT  = 1024
)

func testParams() Params {
	return Params{SampleRateHz: testRate, FrequencyHz: 433_920_000, PlannedDuration: testDur, FFTSize: testFFT, Rows: 512}
}

func TestDetect(t *testing.T) { runDetectTable(t, testParams()) }

// TestDetectCappedRows runs the same table with rows of 0.25 s: 122
// frames each, of which maxFramesPerRow are transformed, evenly spread, as
// at high sample rates.
func TestDetectCappedRows(t *testing.T) {
	p := testParams()
	p.Rows = 32
	if g := p.geometry(); g.spacing < 1.5 {
		t.Fatalf("frame spacing %.2f: the rows are not capped", g.spacing)
	}
	runDetectTable(t, p)
}

// runDetectTable is the detector's table of generated 8 s captures,
// analysed with p.
func runDetectTable(t *testing.T, p Params) {
	const sigma = 10
	tone := binHz(testRate, testFFT, 100) // on a bin, 48.8 kHz above centre
	third, twoThirds := testDur/3, 2*testDur/3
	tests := []struct {
		name      string
		sig       signal
		threshold float64
		minDur    time.Duration
		want      bool
	}{
		{name: "noise only", sig: signal{Sigma: sigma}, threshold: 10, minDur: 500 * time.Millisecond},
		{name: "weak noise only", sig: signal{Sigma: 1.5}, threshold: 10, minDur: 500 * time.Millisecond},
		{
			name: "+25 dB narrow tone in the middle third",
			sig: signal{Sigma: sigma, ToneHz: tone, ToneAmp: toneAmpForBinSNR(sigma, testFFT, 25),
				ToneFrom: third, ToneTo: twoThirds},
			threshold: 10, minDur: 500 * time.Millisecond, want: true,
		},
		{
			name: "+25 dB tone below centre, off a bin",
			sig: signal{Sigma: sigma, ToneHz: -binHz(testRate, testFFT, 300) + 150, ToneAmp: toneAmpForBinSNR(sigma, testFFT, 25),
				ToneFrom: third, ToneTo: twoThirds},
			threshold: 10, minDur: 500 * time.Millisecond, want: true,
		},
		{
			name:      "+15 dB wideband burst",
			sig:       signal{Sigma: sigma, Boost: sigma * math.Sqrt(math.Pow(10, 1.5)-1), ToneFrom: third, ToneTo: twoThirds},
			threshold: 10, minDur: 500 * time.Millisecond, want: true,
		},
		{
			name: "+5 dB tone under a 10 dB threshold",
			sig: signal{Sigma: sigma, ToneHz: tone, ToneAmp: toneAmpForBinSNR(sigma, testFFT, 5),
				ToneFrom: third, ToneTo: twoThirds},
			threshold: 10, minDur: 500 * time.Millisecond,
		},
		{
			name: "+25 dB tone shorter than detect_min_s",
			sig: signal{Sigma: sigma, ToneHz: tone, ToneAmp: toneAmpForBinSNR(sigma, testFFT, 25),
				ToneFrom: 4 * time.Second, ToneTo: 4*time.Second + 200*time.Millisecond},
			threshold: 10, minDur: 500 * time.Millisecond,
		},
		{
			name: "+25 dB tone just longer than detect_min_s",
			sig: signal{Sigma: sigma, ToneHz: tone, ToneAmp: toneAmpForBinSNR(sigma, testFFT, 25),
				ToneFrom: 4 * time.Second, ToneTo: 4*time.Second + 700*time.Millisecond},
			threshold: 10, minDur: 500 * time.Millisecond, want: true,
		},
		{
			name:      "clipped burst",
			sig:       signal{Sigma: sigma, ToneHz: tone, ToneAmp: 400, ToneFrom: third, ToneTo: twoThirds},
			threshold: 10, minDur: 500 * time.Millisecond, want: true,
		},
		{
			// The floor is the quietest 20 %: a transmission filling
			// nearly the whole capture raises it and reads as UNKNOWN,
			// which never claims that nothing was sent.
			name: "tone over 90 % of the capture",
			sig: signal{Sigma: sigma, ToneHz: tone, ToneAmp: toneAmpForBinSNR(sigma, testFFT, 25),
				ToneFrom: 0, ToneTo: testDur * 9 / 10},
			threshold: 10, minDur: 500 * time.Millisecond,
		},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.sig.Rate, tc.sig.Duration, tc.sig.Seed = testRate, testDur, uint64(i+1)
			a := analyse(t, p, tc.sig.Bytes())
			d := Detect(a, tc.threshold, tc.minDur)
			checkFinite(t, a, d)
			t.Logf("%+v", d)
			if d.Burst != tc.want {
				t.Fatalf("Burst = %v, want %v (peak excess %.1f dB)", d.Burst, tc.want, d.PeakExcessDB)
			}
			wantObs := observedUnknown
			if tc.want {
				wantObs = observedTX
			}
			if got := d.RFTXObserved(); got != wantObs {
				t.Errorf("RFTXObserved = %q, want %q", got, wantObs)
			}
			if !tc.want {
				return
			}
			tol := testDur / 20 // ±5 % of the capture
			if diff := (d.Start - tc.sig.ToneFrom).Abs(); diff > tol {
				t.Errorf("Start = %v, want %v ± %v", d.Start, tc.sig.ToneFrom, tol)
			}
			if diff := (d.End - tc.sig.ToneTo).Abs(); diff > tol {
				t.Errorf("End = %v, want %v ± %v", d.End, tc.sig.ToneTo, tol)
			}
			if tc.sig.ToneAmp > 0 && tc.sig.ToneAmp < 100 {
				if diff := math.Abs(d.PeakOffsetHz - tc.sig.ToneHz); diff > float64(testRate)/testFFT {
					t.Errorf("PeakOffsetHz = %.0f, want %.0f within a bin", d.PeakOffsetHz, tc.sig.ToneHz)
				}
			}
			checkBurstSamples(t, a, d)
			w := a.BinWidthHz()
			switch {
			case tc.sig.Boost > 0: // wideband: every bin rose
				if d.LowOffsetHz != -testRate/2 || d.HighOffsetHz != testRate/2 {
					t.Errorf("band %.0f .. %.0f Hz, want the whole band ±%d", d.LowOffsetHz, d.HighOffsetHz, testRate/2)
				}
			case tc.sig.ToneAmp < 100: // a clean tone: a few bins around it
				if tc.sig.ToneHz < d.LowOffsetHz || tc.sig.ToneHz > d.HighOffsetHz || d.HighOffsetHz-d.LowOffsetHz > 8*w || d.HighOffsetHz-d.LowOffsetHz < w {
					t.Errorf("band %.0f .. %.0f Hz, want a few bins around the tone at %.0f Hz (bin %.0f Hz)", d.LowOffsetHz, d.HighOffsetHz, tc.sig.ToneHz, w)
				}
			default: // clipped: harmonics spread it, but it holds the tone
				if tc.sig.ToneHz < d.LowOffsetHz || tc.sig.ToneHz > d.HighOffsetHz {
					t.Errorf("band %.0f .. %.0f Hz misses the tone at %.0f Hz", d.LowOffsetHz, d.HighOffsetHz, tc.sig.ToneHz)
				}
			}
		})
	}
}

// checkBurstSamples holds the burst's sample range to its rows: the same
// instants as Start and End, within a sample.
func checkBurstSamples(t *testing.T, a *Analysis, d Detection) {
	t.Helper()
	rate := float64(a.SampleRateHz)
	if d.StartSample < 0 || d.EndSample <= d.StartSample || d.EndSample > a.Samples {
		t.Fatalf("samples %d .. %d of %d", d.StartSample, d.EndSample, a.Samples)
	}
	if diff := math.Abs(float64(d.StartSample)/rate - d.Start.Seconds()); diff > 1/rate {
		t.Errorf("StartSample %d is %.9f s, Start %v", d.StartSample, float64(d.StartSample)/rate, d.Start)
	}
	if diff := math.Abs(float64(d.EndSample)/rate - d.End.Seconds()); diff > 1/rate {
		t.Errorf("EndSample %d is %.9f s, End %v", d.EndSample, float64(d.EndSample)/rate, d.End)
	}
}

// TestDetectBurstToTheEnd: a burst that lasts to the end of the capture
// covers its last sample, through a last row that took in a short tail
// and a row length that is not a whole number of samples.
func TestDetectBurstToTheEnd(t *testing.T) {
	p := testParams()
	p.Rows = 97 // 4e6 / 97 = 41237.1… samples a row
	s := signal{Rate: testRate, Duration: testDur + 3*time.Millisecond, Sigma: 10, Seed: 3,
		ToneHz: binHz(testRate, testFFT, -200), ToneAmp: toneAmpForBinSNR(10, testFFT, 25),
		ToneFrom: 2 * testDur / 3, ToneTo: time.Hour}
	a := analyse(t, p, s.Bytes())
	if a.RowSamples == math.Trunc(a.RowSamples) {
		t.Fatalf("RowSamples %v: the test needs a fractional row length", a.RowSamples)
	}
	d := Detect(a, 10, 500*time.Millisecond)
	if !d.Burst {
		t.Fatal("no burst")
	}
	checkBurstSamples(t, a, d)
	if d.EndSample != a.Samples || d.End != a.Duration {
		t.Errorf("burst ends at sample %d (%v), capture at %d (%v)", d.EndSample, d.End, a.Samples, a.Duration)
	}
	// The rows tile the samples without gap or overlap.
	for r := 1; r < len(a.Rows); r++ {
		if a.rowStartSample(r) != a.rowEndSample(r-1) {
			t.Fatalf("row %d starts at %d, row %d ends at %d", r, a.rowStartSample(r), r-1, a.rowEndSample(r-1))
		}
	}
	if a.rowStartSample(0) != 0 || a.rowEndSample(len(a.Rows)-1) != a.Samples {
		t.Errorf("rows cover %d .. %d of %d samples", a.rowStartSample(0), a.rowEndSample(len(a.Rows)-1), a.Samples)
	}
}

func TestDetectNarrowToneBarelyMovesBandPower(t *testing.T) {
	// Why the detector works per bin: a +25 dB (per bin) tone raises the
	// total band power by under 2 dB.
	s := signal{Rate: testRate, Duration: testDur, Sigma: 10, Seed: 7,
		ToneHz: binHz(testRate, testFFT, 100), ToneAmp: toneAmpForBinSNR(10, testFFT, 25),
		ToneFrom: testDur / 3, ToneTo: 2 * testDur / 3}
	a := analyse(t, testParams(), s.Bytes())
	d := Detect(a, 10, 500*time.Millisecond)
	mid := a.BandDBFS[len(a.BandDBFS)/2]
	if rise := mid - d.BandFloorDBFS; rise > 3 {
		t.Fatalf("band power rise %.1f dB; the test premise is a small rise", rise)
	}
	if !d.Burst {
		t.Fatal("narrow tone not detected")
	}
	if d.PeakExcessDB < 20 || d.PeakExcessDB > 30 {
		t.Errorf("PeakExcessDB = %.1f, want about 25", d.PeakExcessDB)
	}
}

func TestDetectSilenceAndFullScale(t *testing.T) {
	full := make([]byte, 2*testRate*2) // 2 s
	for i := range full {
		if i/2%2 == 0 {
			full[i] = 127
		} else {
			full[i] = 0x80 // -128
		}
	}
	tests := []struct {
		name string
		data []byte
	}{
		{"all zero", make([]byte, 2*testRate*2)},
		{"full scale ±127/-128", full},
		{"empty", nil},
		{"shorter than a frame", []byte{1, 2, 3}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := testParams()
			p.PlannedDuration = 2 * time.Second
			a := analyse(t, p, tc.data)
			d := Detect(a, 10, 500*time.Millisecond)
			checkFinite(t, a, d)
			if d.Burst || d.RFTXObserved() != observedUnknown {
				t.Fatalf("detected a burst in %s: %+v", tc.name, d)
			}
			for _, line := range d.Notes() {
				if strings.Contains(line, "NaN") || strings.Contains(line, "Inf") {
					t.Errorf("note %q", line)
				}
			}
		})
	}
	t.Run("all zero floor is MinDBFS", func(t *testing.T) {
		a := analyse(t, testParams(), make([]byte, 2*testRate))
		d := Detect(a, 10, 0)
		if d.NoiseFloorDBFS != minDBFS || d.BandFloorDBFS != minDBFS {
			t.Fatalf("floors %v / %v, want %v", d.NoiseFloorDBFS, d.BandFloorDBFS, minDBFS)
		}
	})
	t.Run("both components at full scale are +3 dBFS band power", func(t *testing.T) {
		a := analyse(t, testParams(), full)
		for r, v := range a.BandDBFS {
			if math.Abs(v-3) > 0.1 {
				t.Fatalf("BandDBFS[%d] = %.2f, want ≈ +3", r, v)
			}
		}
	})
}

func TestDetectToneLevel(t *testing.T) {
	// A clean tone of amplitude 64 counts on a bin is −6.0 dBFS in its bin
	// and in band power.
	s := signal{Rate: testRate, Duration: 2 * time.Second, ToneHz: binHz(testRate, testFFT, -200),
		ToneAmp: 64, ToneTo: 2 * time.Second}
	a := analyse(t, testParams(), s.Bytes())
	k := testFFT/2 - 200
	if got := a.Spectrum[k]; math.Abs(got-(-6.02)) > 0.2 {
		t.Errorf("Spectrum[%d] = %.2f dBFS, want −6.02", k, got)
	}
	if got := a.BandDBFS[0]; math.Abs(got-(-6.02)) > 0.2 {
		t.Errorf("BandDBFS[0] = %.2f dBFS, want −6.02", got)
	}
	if off := a.binOffsetHz(k); off != s.ToneHz {
		t.Errorf("BinOffsetHz(%d) = %v, want %v", k, off, s.ToneHz)
	}
}

func TestNotes(t *testing.T) {
	d := Detection{Burst: true, Start: 40 * time.Second, End: 80 * time.Second, Bursts: 1,
		PeakDBFS: -31.25, PeakOffsetHz: 250e3, PeakExcessDB: 25.04, NoiseFloorDBFS: -56.3, BandFloorDBFS: -24,
		ThresholdDB: 10, MinDuration: 500 * time.Millisecond, FrequencyHz: 433_920_000}
	got := strings.Join(d.Notes(), "\n")
	for _, want := range []string{"Burst detected", "EXPECTED_EXTERNAL_TX", "start: 40.00 s", "end: 80.00 s",
		"-31.2 dBFS", "434.170000 MHz", "+250.0 kHz", "+25.0 dB", "-56.3 dBFS"} {
		if !strings.Contains(got, want) {
			t.Errorf("notes lack %q:\n%s", want, got)
		}
	}
	d.Burst = false
	got = strings.Join(d.Notes(), "\n")
	if !strings.Contains(got, "No burst detected") || !strings.Contains(got, "UNKNOWN") {
		t.Errorf("notes without a burst:\n%s", got)
	}
}

func TestQuickselect(t *testing.T) {
	cases := [][]float64{{3}, {2, 1}, {5, 5, 5, 5}, {9, 1, 8, 2, 7, 3, 6, 4, 5}, {1, 2, 3, 4, 5, 6}, {6, 5, 4, 3, 2, 1}}
	rng := rand.New(rand.NewPCG(7, 7))
	for n := 2; n < 60; n++ { // random, with many repeated values
		x := make([]float64, n)
		for i := range x {
			x[i] = float64(rng.IntN(n/2 + 1))
		}
		cases = append(cases, x)
	}
	for _, x := range cases {
		for k := range x {
			c := append([]float64(nil), x...)
			s := append([]float64(nil), x...)
			sortFloats(s)
			if got := quickselect(c, k); got != s[k] {
				t.Errorf("quickselect(%v, %d) = %v, want %v", x, k, got, s[k])
			}
		}
	}
}

func sortFloats(x []float64) {
	for i := 1; i < len(x); i++ {
		for j := i; j > 0 && x[j] < x[j-1]; j-- {
			x[j], x[j-1] = x[j-1], x[j]
		}
	}
}

// TestDetectNoiseMargin: noise only, in the default 512 rows with the
// frames per row capped (122 frames a row, maxFramesPerRow transformed):
// the largest chance rise of any bin over its floor stays far under the
// default 10 dB threshold. It measures about 2.8 dB with 64 frames a row
// (3.8 dB with 32, 5.3 dB with 16; see maxFramesPerRow), so a cap thinned
// to 16 frames or fewer fails here.
func TestDetectNoiseMargin(t *testing.T) {
	const rate = 1_000_000
	p := Params{SampleRateHz: rate, FrequencyHz: 433_920_000, PlannedDuration: 64 * time.Second}
	a := NewAnalyzer(p)
	// Uniform ±32-count noise, cheap to make in bulk: each bin of a
	// 1024-point FFT sums so many samples that it is Gaussian all the same.
	rng := rand.New(rand.NewPCG(5, 8))
	buf := make([]byte, 1<<20)
	for left := 2 * rate * 64; left > 0; left -= len(buf) {
		for i := 0; i < len(buf); i += 8 {
			// Eight 6-bit two's complement values, sign-extended to int8.
			x := rng.Uint64()
			sign := x & 0x2020202020202020
			binary.LittleEndian.PutUint64(buf[i:], x&0x3f3f3f3f3f3f3f3f|sign<<1|sign<<2)
		}
		if _, err := a.Write(buf[:min(left, len(buf))]); err != nil {
			t.Fatal(err)
		}
	}
	res := a.Finish()
	if len(res.Rows) != defaultRows {
		t.Fatalf("%d rows, want %d", len(res.Rows), defaultRows)
	}
	for r, f := range res.RowFrames {
		if f < maxFramesPerRow-1 || f > maxFramesPerRow+1 {
			t.Fatalf("row %d averages %d frames, want %d ± 1", r, f, maxFramesPerRow)
		}
	}
	d := Detect(res, defaultThresholdDB, 500*time.Millisecond)
	checkFinite(t, res, d)
	t.Logf("largest chance rise over the floor: %.2f dB (threshold %.0f dB)", d.PeakExcessDB, defaultThresholdDB)
	if d.Burst || d.PeakExcessDB > defaultThresholdDB/2 {
		t.Fatalf("noise rises %.2f dB over its floor (burst %v); want under %.0f dB", d.PeakExcessDB, d.Burst, defaultThresholdDB/2)
	}
}
