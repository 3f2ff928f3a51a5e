package alignment

import (
	"math"
	"math/cmplx"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// burst is a test recording: noise (σ per I/Q) with a linear chirp of
// bandwidth bw·rate sweeping over 1 ms periods, synthesised analytically
// at t - delay (delay in samples, any fraction), from sample at for n
// samples of burst.
func burst(seed uint64, total, at, n int, delay, bw, sigma, amp float64) []complex64 {
	rng := rand.New(rand.NewPCG(seed, 1))
	const rate = 2e6
	out := make([]complex64, total)
	for k := range out {
		v := complex(rng.NormFloat64()*sigma, rng.NormFloat64()*sigma)
		tau := (float64(k) - float64(at) - delay) / rate
		if tau >= 0 && tau < float64(n)/rate {
			p := 1e-3
			m := math.Floor(tau / p)
			u := tau - m*p
			b := bw * rate
			ph := 2*math.Pi*(-b/2*u+b/(2*p)*u*u) + 1.7*m*m
			v += complex(amp, 0) * cmplx.Exp(complex(0, ph))
		}
		out[k] = complex64(v)
	}
	return out
}

// TestMeasureFindsTheFractionalLag: whole and fractional lags either way,
// through noise, come out within a tenth of a sample.
func TestMeasureFindsTheFractionalLag(t *testing.T) {
	const rate = 2e6
	for _, c := range []struct {
		name  string
		delay float64 // samples b lies behind a
	}{
		{"none", 0},
		{"a quarter", 0.25},
		{"a third behind", -0.33},
		{"whole and a fraction", 7.6},
		{"earlier", -123.45},
		{"a millisecond", 2000.5},
	} {
		t.Run(c.name, func(t *testing.T) {
			a := burst(1, 40000, 10000, 20000, 0, 0.5, 3, 40)
			b := burst(2, 40000, 10000, 20000, c.delay, 0.5, 3, 40)
			lag, err := Measure(a, b, rate, 1.5e-3)
			if err != nil {
				t.Fatal(err)
			}
			if e := lag.Samples - c.delay; math.Abs(e) > 0.1 {
				t.Errorf("lag %.3f samples, want %.3f (error %.3f)", lag.Samples, c.delay, e)
			}
			if math.Abs(lag.Seconds-lag.Samples/rate) > 1e-15 {
				t.Errorf("seconds %g vs samples %g", lag.Seconds, lag.Samples)
			}
			if lag.Peak < 0.8 || lag.Peak > 1.0001 {
				// Half a sample off the grid, the sampled peak is lower.
				t.Errorf("peak %.3f, want 0.8 to 1 for the same burst at 22 dB", lag.Peak)
			}
			if lag.BurstStart > 10000 || lag.BurstStart < 9800 || lag.BurstEnd < 29900 || lag.BurstEnd > 30100 {
				t.Errorf("burst found at [%d, %d), want about [10000, 30000)", lag.BurstStart, lag.BurstEnd)
			}
		})
	}
}

// TestMeasureRefuses: every problem of the input at once; no burst, a
// lag beyond the search, and two different bursts are errors, not
// guesses.
func TestMeasureRefuses(t *testing.T) {
	a := burst(1, 40000, 10000, 20000, 0, 0.5, 3, 40)
	_, err := Measure(a[:10], nil, 0, -1)
	for _, w := range []string{"sample rate 0", "maximum lag -1 s", "recording a has 10 samples", "recording b has 0 samples"} {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("bad input: %v; want it to say %q", err, w)
		}
	}
	noise := burst(3, 40000, 0, 0, 0, 0.5, 3, 0)
	if _, err := Measure(noise, a, 2e6, 1e-3); err == nil || !strings.Contains(err.Error(), "no burst in recording a") {
		t.Errorf("noise as a: %v", err)
	}
	far := burst(2, 40000, 10000, 20000, 900, 0.5, 3, 40)
	if _, err := Measure(a, far, 2e6, 100e-6); err == nil || !strings.Contains(err.Error(), "no correlation peak within the ±0.0001 s search") {
		t.Errorf("lag of 900 samples searched within ±200: %v", err)
	}
	// Just beyond the search, the peak's flank is the largest value, at
	// the edge: no interpolation past it.
	near := burst(2, 40000, 10000, 20000, 202, 0.5, 3, 40)
	if _, err := Measure(a, near, 2e6, 100e-6); err == nil || !strings.Contains(err.Error(), "peaks at the edge of the ±0.0001 s search") {
		t.Errorf("lag of 202 samples searched within ±201: %v", err)
	}
	// A tone is not the chirp: no correlation peak worth the name.
	tone := make([]complex64, 40000)
	for k := 10000; k < 30000; k++ {
		tone[k] = complex64(cmplx.Exp(complex(0, 0.3*float64(k))) * 40)
	}
	if _, err := Measure(a, tone, 2e6, 1e-3); err == nil || !strings.Contains(err.Error(), "do not share it") {
		t.Errorf("chirp against a tone: %v", err)
	}
}

func TestCI8(t *testing.T) {
	got, err := CI8([]byte{1, 0xff, 0x80, 0x7f})
	if err != nil || len(got) != 2 || got[0] != complex(1, -1) || got[1] != complex(-128, 127) {
		t.Errorf("CI8: %v, %v", got, err)
	}
	if _, err := CI8([]byte{1, 2, 3}); err == nil || !strings.Contains(err.Error(), "3 bytes") {
		t.Errorf("odd length: %v", err)
	}
}

// TestPredictedAndCompare: the lag the first-sample times predict, at
// nanosecond resolution, and the verdict within a bound.
func TestPredictedAndCompare(t *testing.T) {
	t0 := time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name         string
		firstA       time.Time
		firstB       time.Time
		delayDiff    float64
		want         float64
		measured     float64
		bound        float64
		ok           bool
		errorContain string
	}{
		{"same edge, b farther", t0, t0, 1.5e-6, 1.5e-6, 1.6e-6, 0.5e-6, true, "+100.000 ns"},
		{"b started 120 ms late", t0, t0.Add(120 * time.Millisecond), 0, -0.12, -0.1203, 1e-3, true, "-300.000 µs"},
		{"b started a nanosecond early", t0.Add(time.Nanosecond), t0, 0, 1e-9, 0, 0.5e-9, false, "-1.000 ns"},
		{"b on the next edge", t0, t0.Add(time.Second), 2e-6, -0.999998, 2e-6, 0.5e-6, false, "+1.000 s"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := Predicted(c.firstA, c.firstB, c.delayDiff)
			if math.Abs(p-c.want) > 1e-12 {
				t.Fatalf("predicted %.12f, want %.12f", p, c.want)
			}
			ch := Compare(c.measured, p, c.bound)
			if ch.OK != c.ok || math.Abs(ch.ErrorS-(c.measured-p)) > 1e-15 {
				t.Errorf("%+v, want ok %v", ch, c.ok)
			}
			s := ch.String()
			if !strings.Contains(s, c.errorContain) || strings.Contains(s, "OUTSIDE") == c.ok {
				t.Errorf("%q: want it to say %q and OUTSIDE only when not ok", s, c.errorContain)
			}
		})
	}
}

func TestFFTRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	a := make([]complex128, 1024)
	for i := range a {
		a[i] = complex(rng.NormFloat64(), rng.NormFloat64())
	}
	b := append([]complex128(nil), a...)
	fft(b, false)
	// Bin 3 of the forward transform is the direct sum.
	var d complex128
	for k, v := range a {
		d += v * cmplx.Exp(complex(0, -2*math.Pi*3*float64(k)/1024))
	}
	if cmplx.Abs(b[3]-d) > 1e-9 {
		t.Errorf("bin 3 %v, direct %v", b[3], d)
	}
	fft(b, true)
	for i := range a {
		if cmplx.Abs(a[i]-b[i]) > 1e-9 {
			t.Fatalf("sample %d: %v after the round trip, was %v", i, b[i], a[i])
		}
	}
}

// toCI8 quantises samples as a HackRF writes them.
func toCI8(r []complex64) []byte {
	out := make([]byte, 2*len(r))
	q := func(v float32) byte { return byte(int8(math.Max(-128, math.Min(127, math.Round(float64(v)))))) }
	for i, v := range r {
		out[2*i], out[2*i+1] = q(real(v)), q(imag(v))
	}
	return out
}

// TestMeasureCI8MatchesMeasure: the undecoded path gives the decoded
// path's answer exactly, and names an odd length per recording.
func TestMeasureCI8MatchesMeasure(t *testing.T) {
	a := toCI8(burst(1, 40000, 10000, 20000, 0, 0.5, 3, 40))
	b := toCI8(burst(2, 40000, 10000, 20000, 3.3, 0.5, 3, 40))
	got, err := MeasureCI8(a, b, 2e6, 1e-4)
	if err != nil {
		t.Fatal(err)
	}
	da, _ := CI8(a)
	db, _ := CI8(b)
	want, err := Measure(da, db, 2e6, 1e-4)
	if err != nil || got != want {
		t.Errorf("MeasureCI8 %+v, Measure %+v (%v)", got, want, err)
	}
	if math.Abs(got.Samples-3.3) > 0.1 {
		t.Errorf("lag %.3f samples, want 3.3", got.Samples)
	}
	_, err = MeasureCI8(a[:5], b[:7], 2e6, 1e-4)
	for _, w := range []string{"recording a: ci8 data of 5 bytes", "recording b: ci8 data of 7 bytes"} {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("odd lengths: %v; want it to say %q", err, w)
		}
	}
}

// BenchmarkMeasure times a measurement of 20000 burst samples and reports
// its error as a ratio to the sample period, over delays across a sample.
func BenchmarkMeasure(b *testing.B) {
	var sum float64
	for i := 0; i < b.N; i++ {
		d := float64(i%10) / 10
		x := burst(uint64(2*i+1), 40000, 10000, 20000, 0, 0.5, 3, 40)
		y := burst(uint64(2*i+2), 40000, 10000, 20000, d, 0.5, 3, 40)
		lag, err := Measure(x, y, 2e6, 1e-4)
		if err != nil {
			b.Fatal(err)
		}
		sum += math.Abs(lag.Samples - d)
	}
	b.ReportMetric(sum/float64(b.N), "mean-lag-err/sample")
}
