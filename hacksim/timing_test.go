package hacksim

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"math/cmplx"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"rfhandoff/alignment"
	"rfhandoff/hackrfcli"
)

// runEnv runs hackrf_transfer in-process with the environment env (every
// HACKRF_SIM* variable) and signals from sigs (nil: none).
func runEnv(t testing.TB, env map[string]string, sigs chan os.Signal, args ...string) (string, string, int) {
	t.Helper()
	var errb bytes.Buffer
	out, code := transferTo(t, env, &errb, sigs, args...)
	return out, errb.String(), code
}

// transferTo is runEnv with stderr written to stderr; it returns stdout.
func transferTo(t testing.TB, env map[string]string, stderr io.Writer, sigs chan os.Signal, args ...string) (string, int) {
	t.Helper()
	m, err := parseEnv(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	if sigs == nil {
		sigs = make(chan os.Signal)
	}
	var out bytes.Buffer
	code := runTransfer("hackrf_transfer", args, m, &out, stderr, sigs)
	return out.String(), code
}

// signalOn is a stderr that sends sig once the output so far contains
// when: a test then signals on what the tool said, not after a sleep a
// slow host (Wine, a loaded CI) can outrun.
type signalOn struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	when string
	sig  os.Signal
	sigs chan os.Signal
	sent bool
}

func (w *signalOn) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n, err := w.buf.Write(p)
	if !w.sent && strings.Contains(w.buf.String(), w.when) {
		w.sent = true
		w.sigs <- w.sig
	}
	return n, err
}

// runUntil runs hackrf_transfer in-process with env and sends it sig once
// its stderr contains when.
func runUntil(t testing.TB, env map[string]string, sig os.Signal, when string, args ...string) (string, int) {
	t.Helper()
	w := &signalOn{when: when, sig: sig, sigs: make(chan os.Signal, 1)}
	_, code := transferTo(t, env, w, w.sigs, args...)
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String(), code
}

// waitPhase sleeps until the fraction of the current second of true time
// (the host clock minus offset) is in [lo, hi).
func waitPhase(offset time.Duration, lo, hi float64) {
	for {
		tr := time.Now().Add(-offset)
		f := float64(tr.Sub(tr.Truncate(time.Second))) / float64(time.Second)
		if f >= lo && f < hi {
			return
		}
		wait := lo - f
		if wait < 0 {
			wait += 1
		}
		time.Sleep(time.Duration(wait*float64(time.Second)) + time.Millisecond)
	}
}

// firstLoud is the index of the first sample whose I or Q exceeds 30 LSB
// (ten noise sigmas: only the burst does), or -1.
func firstLoud(iq []int8) int {
	for i := 0; i+1 < len(iq); i += 2 {
		if math.Abs(float64(iq[i])) > 30 || math.Abs(float64(iq[i+1])) > 30 {
			return i / 2
		}
	}
	return -1
}

// TestTriggerPPSStartsAtTheEdge: with -H and a PPS on the trigger input,
// no byte arrives before the edge, which falls at a whole second of true
// time: the host clock's whole second plus HACKRF_SIM_PPS_OFFSET_NS.
// Sample 0 is taken exactly at the edge: a burst emitted 10 ms after it
// (true time) starts at sample 20000 at 2 Msps, whatever the offset.
func TestTriggerPPSStartsAtTheEdge(t *testing.T) {
	const rate = 2_000_000
	for _, off := range []time.Duration{0, 300 * time.Millisecond, -250 * time.Millisecond} {
		t.Run(off.String(), func(t *testing.T) {
			dir := t.TempDir()
			air, path := filepath.Join(dir, "on-air.json"), filepath.Join(dir, "cap.ci8")
			waitPhase(off, 0.3, 0.45)
			armed := time.Now()
			edgeTrue := armed.Add(-off).Truncate(time.Second).Add(time.Second)
			edgeHost := edgeTrue.Add(off)
			if err := WriteOnAir(air, OnAir{Start: edgeTrue.Add(10 * time.Millisecond), DurationS: 0.02, FrequencyHz: 433_920_000}); err != nil {
				t.Fatal(err)
			}
			env := map[string]string{"HACKRF_SIM": "fast", PPSOffsetEnv: fmt.Sprint(int64(off)), DelayEnv: "0", OnAirEnv: "0:0:" + air}
			_, errs, code := runEnv(t, env, nil, "-H", "-r", path, "-f", "433920000", "-s", fmt.Sprint(rate), "-n", "100000")
			done := time.Now()
			if code != 0 {
				t.Fatalf("exit %d:\n%s", code, errs)
			}
			// In fast mode the samples arrive at once after the edge.
			if done.Before(edgeHost) || done.After(edgeHost.Add(400*time.Millisecond)) {
				t.Errorf("done %v after arming, the edge is %v after it", done.Sub(armed), edgeHost.Sub(armed))
			}
			if !strings.Contains(errs, "call hackrf_set_hw_sync_mode(1)\n") || strings.Contains(errs, "Waiting for trigger") {
				t.Errorf("stderr:\n%s", errs)
			}
			parseStderr(t, errs)
			if k := firstLoud(readCapture(t, path)); k != 20000 {
				t.Errorf("the burst 10 ms after the edge starts at sample %d, want 20000", k)
			}
		})
	}
}

// TestTriggerPPSPaced: in real time the first block arrives one block
// after the edge (its samples were taken from the edge on), never before.
func TestTriggerPPSPaced(t *testing.T) {
	const off = -250 * time.Millisecond
	path := filepath.Join(t.TempDir(), "cap.ci8")
	waitPhase(off, 0.3, 0.45)
	edgeHost := time.Now().Add(-off).Truncate(time.Second).Add(time.Second).Add(off)
	arrived := make(chan time.Time, 1)
	stop := make(chan struct{})
	go func() {
		for {
			select {
			case <-stop:
				return
			default:
			}
			if fi, err := os.Stat(path); err == nil && fi.Size() > 0 {
				arrived <- time.Now()
				return
			}
			time.Sleep(2 * time.Millisecond)
		}
	}()
	_, errs, code := runEnv(t, map[string]string{PPSOffsetEnv: fmt.Sprint(int64(off))}, nil, "-H", "-r", path, "-s", "2000000", "-n", "200000")
	close(stop)
	if code != 0 || strings.Contains(errs, "Waiting") {
		t.Fatalf("exit %d:\n%s", code, errs)
	}
	parseStderr(t, errs)
	blockDur := time.Duration(blockSize / 4e6 * float64(time.Second))
	select {
	case at := <-arrived:
		if d := at.Sub(edgeHost); d < blockDur || d > blockDur+300*time.Millisecond {
			t.Errorf("the first bytes arrived %v after the edge, want one block (%v) after it", d, blockDur)
		}
	default:
		t.Errorf("no bytes seen arriving")
	}
}

// TestTriggerNoneWaitsForever: nothing on the trigger input: no data,
// "Waiting for trigger..." at every empty tick and no stall exit, until a
// signal ends the run the common way (the real loop wakes, finds the
// interval empty and says so once more).
func TestTriggerNoneWaitsForever(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cap.ci8")
	errs, code := runUntil(t, map[string]string{TriggerEnv: "none"}, syscall.SIGINT, "Waiting for trigger...\n", "-H", "-r", path, "-s", "2000000", "-n", "1000")
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, errs)
	}
	_, tail, _ := strings.Cut(errs, "Stop with Ctrl-C\n")
	tail, _, _ = strings.Cut(tail, "Total time")
	if want := "Waiting for trigger...\nCaught signal 2\nWaiting for trigger...\n\nExiting...\n"; tail != want {
		t.Errorf("after the header %q, want %q", tail, want)
	}
	s := parseStderr(t, errs)
	if s.Reason != hackrfcli.ExitSignal || s.Stalled {
		t.Errorf("stats %+v", s)
	}
	if fi, err := os.Stat(path); err != nil || fi.Size() != 0 {
		t.Errorf("capture file: %v, %v; want it empty", fi, err)
	}
}

// TestTriggerIgnoreDataAtOnce: firmware that ignores -H streams at once,
// long before the next whole second, and never says it waits.
func TestTriggerIgnoreDataAtOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cap.ci8")
	waitPhase(0, 0.05, 0.2)
	armed := time.Now()
	edge := armed.Truncate(time.Second).Add(time.Second)
	_, errs, code := runEnv(t, map[string]string{"HACKRF_SIM": "fast", TriggerEnv: "ignore"}, nil, "-H", "-r", path, "-s", "2000000", "-n", "200000")
	if code != 0 || strings.Contains(errs, "Waiting") || !strings.Contains(errs, "call hackrf_set_hw_sync_mode(1)\n") {
		t.Fatalf("exit %d:\n%s", code, errs)
	}
	if done := time.Now(); !done.Before(edge) {
		t.Errorf("done %v after arming, not before the edge %v after it", done.Sub(armed), edge.Sub(armed))
	}
	if fi, err := os.Stat(path); err != nil || fi.Size() != 400000 {
		t.Errorf("capture %v, %v", fi, err)
	}
}

// TestTriggerDisablesTheStallExit: with -H the empty second after data
// stopped says "Waiting for trigger..." instead of the stall exit, for the
// whole run.
func TestTriggerDisablesTheStallExit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cap.ci8")
	errs, code := runUntil(t, map[string]string{"HACKRF_SIM": "stall,fast", TriggerEnv: "ignore"}, syscall.SIGTERM, "Waiting for trigger...\n", "-H", "-r", path, "-s", "2000000", "-n", "3000000")
	if code != 0 || strings.Contains(errs, "Couldn't transfer") {
		t.Fatalf("exit %d:\n%s", code, errs)
	}
	i, j := strings.Index(errs, "MiB/second"), strings.Index(errs, "Waiting for trigger...\n")
	if i < 0 || j < i {
		t.Errorf("want a progress line, then Waiting for trigger...:\n%s", errs)
	}
	if s := parseStderr(t, errs); s.Reason != hackrfcli.ExitSignal || s.Stalled {
		t.Errorf("stats %+v", s)
	}
}

// TestTriggerDeviceGone: with -H a vanished device still ends the run:
// the real loop runs only while hackrf_is_streaming() is true, so it ends
// at the next tick, exit 0, saying why.
func TestTriggerDeviceGone(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cap.ci8")
	_, errs, code := runEnv(t, map[string]string{"HACKRF_SIM": "exit1,fast", TriggerEnv: "ignore"}, nil, "-H", "-r", path, "-s", "2000000", "-n", "3000000")
	if code != 0 || strings.Contains(errs, "Couldn't transfer") || strings.Contains(errs, "Waiting") {
		t.Fatalf("exit %d:\n%s", code, errs)
	}
	s := parseStderr(t, errs)
	if s.Streaming != "streaming thread encountered an error" || len(s.Failures) < 2 {
		t.Errorf("stats %+v\n%s", s, errs)
	}
}

// TestTimingEnvRefused: every bad variable named at once, exit 2, no file.
func TestTimingEnvRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cap.ci8")
	env := map[string]string{"HACKRF_SIM": "warp", TriggerEnv: "sometimes", PPSOffsetEnv: "1.5", DelayEnv: "-3"}
	var out, errb bytes.Buffer
	code := Main("hackrf_transfer", []string{"-H", "-r", path, "-n", "10"}, func(k string) string { return env[k] }, &out, &errb)
	if code != 2 {
		t.Errorf("exit %d, want 2", code)
	}
	for _, w := range []string{`"warp"`, TriggerEnv + `="sometimes": want pps, none or ignore`, PPSOffsetEnv + `="1.5"`, DelayEnv + `="-3"`} {
		if !strings.Contains(errb.String(), w) {
			t.Errorf("stderr %q; want it to say %q", errb.String(), w)
		}
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("a refused run made the file: %v", err)
	}
}

// TestNextEdge: the first whole second of true time strictly after
// arming, by the host clock.
func TestNextEdge(t *testing.T) {
	w := time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		armed time.Time
		off   time.Duration
		want  time.Time
	}{
		{w.Add(300 * time.Millisecond), 0, w.Add(time.Second)},
		{w, 0, w.Add(time.Second)},
		{w.Add(300 * time.Millisecond), 120 * time.Millisecond, w.Add(1120 * time.Millisecond)},
		{w.Add(100 * time.Millisecond), 120 * time.Millisecond, w.Add(120 * time.Millisecond)},
		{w.Add(900 * time.Millisecond), -250 * time.Millisecond, w.Add(1750 * time.Millisecond)},
		{w.Add(700 * time.Millisecond), -250 * time.Millisecond, w.Add(750 * time.Millisecond)},
		{w.Add(5), 7, w.Add(7)},
	} {
		if got := (timing{ppsOffset: c.off}).nextEdge(c.armed); !got.Equal(c.want) {
			t.Errorf("armed %v offset %v: edge %v, want %v", c.armed.Sub(w), c.off, got.Sub(w), c.want.Sub(w))
		}
	}
}

// record is a node's recording of n samples at rate, sample 0 taken at
// start by its host clock (offset from true time), hearing the on-air file
// air delayNS later as the chirp; no real time passes.
func record(t testing.TB, seed uint64, air string, start time.Time, off, delayNS time.Duration, rate uint32, n int64) []complex64 {
	t.Helper()
	s := &session{x: &xfer{receive: true, freqHz: 433_920_000, sampleRate: rate},
		m:     modes{onair: &onAirListener{path: air}, timing: timing{ppsOffset: off, delayNS: &delayNS}},
		start: start, src: newSource(seed, rate, false, 0, 0)}
	s.listen()
	if len(s.src.chirps) != 1 {
		t.Fatalf("heard %d chirps, want 1", len(s.src.chirps))
	}
	var raw []byte
	for first := int64(0); first < n; first += blockSize / 2 {
		b, _ := s.src.block(first)
		raw = append(raw, b...)
	}
	iq, err := alignment.CI8(raw[:2*n])
	if err != nil {
		t.Fatal(err)
	}
	return iq
}

// TestChirpShowsAFractionalDelay: two nodes whose delays differ by 137 ns
// (0.274 of a sample at 2 Msps) and whose first samples are the same true
// instant: the lag measured from their samples is that fraction. The
// chirp sweeps at least half the sample rate within a millisecond, at the
// tone's level.
func TestChirpShowsAFractionalDelay(t *testing.T) {
	const rate = 2_000_000
	air := filepath.Join(t.TempDir(), "on-air.json")
	t0 := time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)
	if err := WriteOnAir(air, OnAir{Start: t0.Add(5 * time.Millisecond), DurationS: 0.02, FrequencyHz: 433_920_000}); err != nil {
		t.Fatal(err)
	}
	a := record(t, 1, air, t0, 0, 1000, rate, 80000)
	// Node b's host clock is 120 ms ahead: its sample 0 at the same true
	// instant reads 120 ms later.
	b := record(t, 2, air, t0.Add(120*time.Millisecond), 120*time.Millisecond, 1137, rate, 80000)
	lag, err := alignment.Measure(a, b, rate, 10e-6)
	if err != nil {
		t.Fatal(err)
	}
	if d := lag.Samples - 0.274; math.Abs(d) > 0.1 {
		t.Errorf("lag %.3f samples, want 0.274", lag.Samples)
	}
	c := newChirp(t0, t0, 0.01, rate, 0, 0, 0, 20000)
	lo, hi := math.Inf(1), math.Inf(-1)
	for k := int64(1); k < 2000; k++ {
		f := cmplx.Phase(c.at(k)*cmplx.Conj(c.at(k-1))) / (2 * math.Pi) * rate
		lo, hi = math.Min(lo, f), math.Max(hi, f)
	}
	if hi-lo < 0.99*rate/2 {
		t.Errorf("one millisecond sweeps %.0f Hz to %.0f Hz, less than half the rate", lo, hi)
	}
	if p := cmplx.Abs(c.at(100)); math.Abs(p-newTone(rate, 0, 0, 0, 0).amp) > 1e-9 {
		t.Errorf("amplitude %.2f", p)
	}
}

// TestNodesAlignOnThePPSEdge is the proof by the signal against the
// running simulator: three nodes with host clocks 0, +120 ms and -250 ms
// off true time arm with -H inside the same second, each hears the
// chirp its own delay later, and the lags measured between their
// recordings equal the true delay differences within one sample period.
// A node that, on a loaded machine, armed only after the edge recorded
// from the next one and missed the burst: that attempt is run again (at
// most three).
func TestNodesAlignOnThePPSEdge(t *testing.T) {
	const rate = 2_000_000
	nodes := []struct {
		off   time.Duration
		delay int64 // ns
	}{{0, 1000}, {120 * time.Millisecond, 13_345}, {-250 * time.Millisecond, 2_700}}
	var recs [][]complex64
	var edge time.Time
	for attempt := 1; ; attempt++ {
		if attempt > 3 {
			t.Fatal("in three attempts some node always armed after the edge")
		}
		edge, recs = captureNodes(t, rate, nodes)
		missed := -1
		for i, r := range recs {
			if firstLoudIQ(r) < 0 {
				missed = i
			}
		}
		if missed < 0 {
			break
		}
		t.Logf("attempt %d: node %d armed after the edge (it heard no burst); again", attempt, missed)
	}
	period := 1.0 / rate
	for i := 1; i < len(nodes); i++ {
		lag, err := alignment.Measure(recs[0], recs[i], rate, 100e-6)
		if err != nil {
			t.Fatalf("node %d: %v", i, err)
		}
		// Every node's sample 0 was taken at the same edge (true time).
		c := alignment.Compare(lag.Seconds, alignment.Predicted(edge, edge, float64(nodes[i].delay-nodes[0].delay)/1e9), period)
		t.Logf("node %d: %v (%.3f of a sample)", i, c, math.Abs(c.ErrorS)/period)
		if !c.OK {
			t.Errorf("node %d: %v", i, c)
		}
	}
}

// captureNodes runs one -H capture per node at once, armed early in a
// second so that every node's true arming time falls before the same
// edge, with a burst 5 ms after it; it returns the edge (true time) and
// the recordings.
func captureNodes(t *testing.T, rate uint32, nodes []struct {
	off   time.Duration
	delay int64
}) (time.Time, [][]complex64) {
	dir := t.TempDir()
	air := filepath.Join(dir, "on-air.json")
	waitPhase(0, 0.13, 0.2)
	edge := time.Now().Truncate(time.Second).Add(time.Second)
	if err := WriteOnAir(air, OnAir{Start: edge.Add(5 * time.Millisecond), DurationS: 0.02, FrequencyHz: 433_920_000}); err != nil {
		t.Fatal(err)
	}
	recs := make([][]complex64, len(nodes))
	var wg sync.WaitGroup
	for i, n := range nodes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			path := filepath.Join(dir, fmt.Sprintf("node%d.ci8", i))
			env := map[string]string{"HACKRF_SIM": "fast", PPSOffsetEnv: fmt.Sprint(int64(n.off)), DelayEnv: fmt.Sprint(n.delay), OnAirEnv: "0:0:" + air}
			_, errs, code := runEnv(t, env, nil, "-H", "-r", path, "-f", "433920000", "-s", fmt.Sprint(rate), "-n", "100000")
			if code != 0 {
				t.Errorf("node %d: exit %d:\n%s", i, code, errs)
				return
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Error(err)
				return
			}
			if recs[i], err = alignment.CI8(data); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	return edge, recs
}

// firstLoudIQ is firstLoud of decoded samples.
func firstLoudIQ(r []complex64) int {
	iq := make([]int8, 2*len(r))
	for k, v := range r {
		iq[2*k], iq[2*k+1] = int8(real(v)), int8(imag(v))
	}
	return firstLoud(iq)
}

// BenchmarkLagError reports the measured lag's error as a ratio to the
// sample period, over fractional delays across a sample.
func BenchmarkLagError(b *testing.B) {
	const rate = 2_000_000
	air := filepath.Join(b.TempDir(), "on-air.json")
	t0 := time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)
	if err := WriteOnAir(air, OnAir{Start: t0.Add(5 * time.Millisecond), DurationS: 0.02, FrequencyHz: 433_920_000}); err != nil {
		b.Fatal(err)
	}
	var sum, worst float64
	for i := 0; i < b.N; i++ {
		d := time.Duration(1000 + (i*37)%500)
		x := record(b, uint64(2*i+1), air, t0, 0, 1000, rate, 80000)
		y := record(b, uint64(2*i+2), air, t0, 0, d, rate, 80000)
		lag, err := alignment.Measure(x, y, rate, 10e-6)
		if err != nil {
			b.Fatal(err)
		}
		e := math.Abs(lag.Seconds-float64(d-1000)/1e9) * rate
		sum += e
		worst = math.Max(worst, e)
	}
	b.ReportMetric(sum/float64(b.N), "mean-lag-err/sample")
	b.ReportMetric(worst, "max-lag-err/sample")
}

// TestTriggerlessFirmware: HACKRF_SIM=fw2023 is a HackRF One r6 on
// firmware 2023.01.1, as hackrfcli reads it (a board it knows ignores
// -H), and -H streams at once even with nothing on the trigger input.
func TestTriggerlessFirmware(t *testing.T) {
	out, errs, code := run(t, "fw2023", "hackrf_info", nil)
	in, err := hackrfcli.ParseInfo([]byte(out), []byte(errs), code)
	if err != nil {
		t.Fatal(err)
	}
	if b := in.Boards[0]; b.FirmwareVersion != triggerlessFirmwareVersion || b.HardwareRevision != "r6" || !strings.Contains(b.IgnoresTrigger(), "hackrf#1292") {
		t.Errorf("board = %+v: want firmware %s on an r6, known to ignore -H", b, triggerlessFirmwareVersion)
	}
	path := filepath.Join(t.TempDir(), "cap.ci8")
	_, errs, code = runEnv(t, map[string]string{"HACKRF_SIM": "fw2023,fast", TriggerEnv: "none"}, nil, "-H", "-r", path, "-s", "2000000", "-n", "200000")
	if code != 0 || strings.Contains(errs, "Waiting") || !strings.Contains(errs, "call hackrf_set_hw_sync_mode(1)\n") {
		t.Fatalf("exit %d:\n%s", code, errs)
	}
	if fi, err := os.Stat(path); err != nil || fi.Size() != 400000 {
		t.Errorf("capture %v, %v", fi, err)
	}
}

// TestSlowArm: HACKRF_SIM=slowarm arms -H slowArm after the tool starts,
// so the first edge it can start on is the first whole second after that
// (load only makes it later).
func TestSlowArm(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cap.ci8")
	began := time.Now()
	_, errs, code := runEnv(t, map[string]string{"HACKRF_SIM": "slowarm,fast", TriggerEnv: "pps"}, nil, "-H", "-r", path, "-s", "2000000", "-n", "200000")
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, errs)
	}
	if ended, edge := time.Now(), began.Add(slowArm).Truncate(time.Second).Add(time.Second); ended.Before(edge) {
		t.Errorf("ended %v after the start, before the first edge after arming (%v after it)", ended.Sub(began), edge.Sub(began))
	}
}
