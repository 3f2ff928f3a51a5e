package hacksim

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestOnAirWindow: the on-air transmission's time, shifted by the
// receiver's delay, becomes the sample window of a stream whose sample k
// was taken at streamStart + k/rate.
func TestOnAirWindow(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name     string
		startOff time.Duration // the transmission's start after the stream's
		durS     float64
		delay    time.Duration
		rate     uint32
		from, to int64
		ok       bool
	}{
		{"inside the stream", 2 * time.Second, 5, 0, 2_000_000, 4_000_000, 14_000_000, true},
		{"a later node", 2 * time.Second, 5, 250 * time.Millisecond, 2_000_000, 4_500_000, 14_500_000, true},
		{"another rate", 2 * time.Second, 5, 500 * time.Millisecond, 10_000_000, 25_000_000, 75_000_000, true},
		{"the first whole sample after the start", 2*time.Second + 100*time.Nanosecond, 1, 0, 2_000_000, 4_000_001, 6_000_001, true},
		{"started before the stream", -time.Second, 5, 0, 2_000_000, 0, 8_000_000, true},
		{"the delay brings it into the stream", -time.Second, 0.5, 750 * time.Millisecond, 2_000_000, 0, 500_000, true},
		{"over before the stream began", -10 * time.Second, 5, 0, 2_000_000, 0, 0, false},
		{"ends exactly at the stream's start", -5 * time.Second, 5, 0, 2_000_000, 0, 0, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			a := OnAir{Start: t0.Add(c.startOff), DurationS: c.durS, FrequencyHz: 433_920_000}
			from, to, ok := onAirWindow(a, c.delay, t0, c.rate)
			if from != c.from || to != c.to || ok != c.ok {
				t.Errorf("window [%d, %d) ok %v, want [%d, %d) ok %v", from, to, ok, c.from, c.to, c.ok)
			}
		})
	}
}

func TestHeardOffset(t *testing.T) {
	for _, c := range []struct {
		txHz, rxHz int64
		rate       uint32
		off        float64
		in         bool
	}{
		{433_920_000, 433_920_000, 2_000_000, 200_000, true},
		{433_420_000, 433_920_000, 2_000_000, -300_000, true},
		{434_920_000, 433_920_000, 2_000_000, 1_200_000, false},
		{434_920_000, 433_920_000, 10_000_000, 1_200_000, true},
		{915_000_000, 433_920_000, 20_000_000, 481_280_000, false},
	} {
		off, in := heardOffsetHz(OnAir{FrequencyHz: c.txHz}, c.rxHz, c.rate)
		if off != c.off || in != c.in {
			t.Errorf("TX %d Hz heard at %d Hz, %d Sps: offset %v in band %v, want %v %v", c.txHz, c.rxHz, c.rate, off, in, c.off, c.in)
		}
	}
}

func TestParseOnAirEnv(t *testing.T) {
	l, err := parseOnAirEnv("250:-6:C:\\sandbox\\on-air.json")
	if err != nil || l.delay != 250*time.Millisecond || l.levelDB != -6 || l.path != `C:\sandbox\on-air.json` {
		t.Fatalf("got %+v, %v", l, err)
	}
	if l, err := parseOnAirEnv(""); l != nil || err != nil {
		t.Errorf("empty: %+v, %v; want nothing", l, err)
	}
	for in, want := range map[string][]string{
		"250":              {"three fields"},
		"x:-6:/p":          {`delay_ms "x"`},
		"-1:3:":            {`delay_ms "-1"`, `level_db "3"`, "the path is empty"},
		"100:-61:/p":       {`level_db "-61"`},
		"100:NaN:/p":       {`level_db "NaN"`},
		"60001:-6:/p.json": {`delay_ms "60001"`},
	} {
		_, err := parseOnAirEnv(in)
		if err == nil {
			t.Errorf("%q accepted", in)
			continue
		}
		for _, w := range append(want, OnAirEnv) {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%q: %v; want it to say %q", in, err, w)
			}
		}
	}
}

// TestListenAddsTheHeardBurst: once the on-air file is there, the blocks
// carry the tone exactly over the receiver's window, at its level, and
// two receivers' levels differ by the configured decibels.
func TestListenAddsTheHeardBurst(t *testing.T) {
	const rate = 2_000_000
	dir := t.TempDir()
	path := filepath.Join(dir, "on-air.json")
	t0 := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	// On the air from 100 ms to 150 ms into the stream.
	air := OnAir{Start: t0.Add(100 * time.Millisecond), DurationS: 0.05, FrequencyHz: 433_920_000}
	power := func(levelDB float64, delay time.Duration, write bool) (inside, before, after float64, from, to int64) {
		s := &session{x: &xfer{receive: true, freqHz: 433_920_000, sampleRate: rate},
			m: modes{onair: &onAirListener{path: path, delay: delay, levelDB: levelDB}}, start: t0,
			src: newSource(1, rate, false, 0, 0)}
		if write {
			if err := WriteOnAir(path, air); err != nil {
				t.Fatal(err)
			}
		}
		s.listen()
		if len(s.src.tones) == 0 {
			return 0, 0, 0, 0, 0
		}
		from, to = s.src.tones[0].from, s.src.tones[0].to
		// Samples of the blocks that hold the window.
		var iq []int8
		for first := int64(0); first < to+blockSize/2; first += blockSize / 2 {
			b, _ := s.src.block(first)
			for _, v := range b {
				iq = append(iq, int8(v))
			}
		}
		inside = meanPower(iq[2*from : 2*to])
		before = meanPower(iq[2*(from-20000) : 2*from])
		after = meanPower(iq[2*to : 2*(to+20000)])
		return
	}
	os.Remove(path)
	if in, _, _, _, _ := power(0, 0, false); in != 0 {
		t.Fatalf("a tone without the on-air file")
	}
	inA, beforeA, afterA, fromA, toA := power(0, 0, true)
	if fromA != 200_000 || toA != 300_000 {
		t.Errorf("rx-a window [%d, %d), want [200000, 300000)", fromA, toA)
	}
	noise := 2 * noiseSigma * noiseSigma
	if db := 10 * math.Log10(inA/noise); math.Abs(db-burstDB) > 1 {
		t.Errorf("inside the window %.1f dB over the noise, want %.0f", db, burstDB)
	}
	for _, p := range []float64{beforeA, afterA} {
		if db := 10 * math.Log10(p/noise); math.Abs(db) > 0.5 {
			t.Errorf("outside the window %.1f dB over the noise, want 0", db)
		}
	}
	inB, _, _, fromB, toB := power(-6, 250*time.Millisecond, true)
	if fromB != 700_000 || toB != 800_000 {
		t.Errorf("rx-b window [%d, %d), want [700000, 800000)", fromB, toB)
	}
	// The tone's power over the noise: 25 dB at rx-a, 19 dB at rx-b.
	if d := 10*math.Log10(inA-noise) - 10*math.Log10(inB-noise); math.Abs(d-6) > 0.5 {
		t.Errorf("rx-a hears the tone %.2f dB louder than rx-b, want 6", d)
	}

	// A transmission outside the band is not heard.
	air.FrequencyHz = 440_000_000
	if in, _, _, _, _ := power(0, 0, true); in != 0 {
		t.Errorf("a transmission 6 MHz away was heard")
	}
}

// TestListenRefusesABadOnAirFile: the simulator says what is wrong with
// the file, once, and adds nothing.
func TestListenRefusesABadOnAirFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "on-air.json")
	if err := os.WriteFile(path, []byte(`{"start":"2026-12-01T12:00:00Z","duration_s":0,"frequency_hz":-1,"power":3}`), 0o644); err != nil {
		t.Fatal(err)
	}
	var errb strings.Builder
	s := &session{x: &xfer{receive: true, freqHz: 433_920_000, sampleRate: 2_000_000}, errw: &errb,
		m: modes{onair: &onAirListener{path: path}}, start: time.Now(), src: newSource(1, 2_000_000, false, 0, 0)}
	s.listen()
	s.listen()
	if got := errb.String(); strings.Count(got, "hacksim: "+OnAirEnv) != 1 || !strings.Contains(got, `unknown field "power"`) {
		t.Errorf("stderr %q", got)
	}
	if err := os.WriteFile(path, []byte(`{"start":"2026-12-01T12:00:00Z","duration_s":0,"frequency_hz":-1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := readOnAir(path)
	for _, w := range []string{path, "duration_s 0", "frequency_hz -1"} {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("readOnAir: %v; want it to say %q", err, w)
		}
	}
	if len(s.src.tones) != 0 {
		t.Errorf("a bad file added a tone")
	}
}

// TestMainRejectsABadOnAirVariable: exit 2 before anything runs.
func TestMainRejectsABadOnAirVariable(t *testing.T) {
	var out, errb strings.Builder
	env := func(k string) string {
		if k == OnAirEnv {
			return "soon:-6:/p"
		}
		return ""
	}
	if code := Main("hackrf_transfer", []string{"-r", filepath.Join(t.TempDir(), "x")}, env, &out, &errb); code != 2 || !strings.Contains(errb.String(), OnAirEnv) {
		t.Errorf("exit %d, stderr %q", code, errb.String())
	}
}
