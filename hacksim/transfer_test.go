package hacksim

import (
	"fmt"
	"math"
	"math/cmplx"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"rfhandoff/hackrfcli"
)

// parseStderr feeds the simulator's stderr through hackrfcli, failing on
// any line the parser does not know: the round trip proves hackrfcli reads
// the bytes the simulator prints.
func parseStderr(t *testing.T, stderr string) hackrfcli.TransferStats {
	t.Helper()
	var s hackrfcli.TransferStats
	for _, l := range lines(stderr) {
		if ev := s.AddLine(l); ev.Kind == hackrfcli.EventUnknown {
			t.Errorf("hackrfcli does not know the line %q", l)
		}
	}
	return s
}

func readCapture(t *testing.T, path string) []int8 {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]int8, len(b))
	for i, v := range b {
		out[i] = int8(v)
	}
	return out
}

// meanPower is the mean of I²+Q² over interleaved samples.
func meanPower(iq []int8) float64 {
	var e float64
	for i := 0; i+1 < len(iq); i += 2 {
		e += float64(iq[i])*float64(iq[i]) + float64(iq[i+1])*float64(iq[i+1])
	}
	return e / float64(len(iq)/2)
}

func TestReceiveFast(t *testing.T) {
	const n = 1_000_003 // not a whole number of blocks
	path := filepath.Join(t.TempDir(), "cap.ci8")
	out, errs, code := run(t, "fast", "hackrf_transfer", nil,
		"-r", path, "-f", "433920000", "-s", "2000000", "-l", "16", "-g", "20", "-a", "0", "-n", fmt.Sprint(n), "-B")
	if code != 0 || out != "" {
		t.Fatalf("exit %d stdout %q stderr:\n%s", code, out, errs)
	}
	head := "call hackrf_set_sample_rate(2000000 Hz/2.000 MHz)\ncall hackrf_set_hw_sync_mode(0)\n" +
		"call hackrf_set_freq(433920000 Hz/433.920 MHz)\ncall hackrf_set_amp_enable(0)\nsamples_to_xfer 1000003/1Mio\nStop with Ctrl-C\n"
	if !strings.HasPrefix(errs, head) {
		t.Errorf("stderr starts\n%s\nwant\n%s", errs[:min(len(errs), len(head))], head)
	}
	if !strings.HasSuffix(errs, "\nExiting...\n") && !strings.Contains(errs, "\n\nExiting...\nTotal time: ") {
		t.Errorf("no exit sequence:\n%s", errs)
	}
	s := parseStderr(t, errs)
	blocks := int64(math.Ceil(2 * n / float64(blockSize)))
	if s.Reason != hackrfcli.ExitFinished || !s.Finished || s.ProgressLines < 1 {
		t.Errorf("stats %+v", s)
	}
	if s.Overruns == nil || *s.Overruns != 0 || s.M0Bytes == nil || *s.M0Bytes != blocks*blockSize || s.DroppedFrames != nil {
		t.Errorf("-B statistics: overruns %v M0 %v dropped %v; want 0, %d, nil", s.Overruns, s.M0Bytes, s.DroppedFrames, blocks*blockSize)
	}
	if math.Abs(s.Megabytes-float64(blocks*blockSize)/1e6) > 0.05*float64(s.ProgressLines) {
		t.Errorf("progress lines sum to %.2f MB, want %.2f", s.Megabytes, float64(blocks*blockSize)/1e6)
	}
	iq := readCapture(t, path)
	if len(iq) != 2*n {
		t.Fatalf("file has %d bytes, want exactly %d", len(iq), 2*n)
	}
	// Noise with σ = 3 per component: mean I²+Q² near 18, never all zeros.
	if p := meanPower(iq); p < 15 || p > 21 {
		t.Errorf("mean power %.2f, want about %.0f", p, 2*noiseSigma*noiseSigma)
	}
	// The tool's dBFS of that noise: 10·log10(9/127²)+3.
	if want := 10*math.Log10(noiseSigma*noiseSigma/(127*127)) + 3; math.Abs(s.LastPower-want) > 1 {
		t.Errorf("reported power %.1f dBFS, want about %.1f", s.LastPower, want)
	}
}

// TestReceiveOldFirmware: -B on firmware 2021.03.1 cannot read the M0
// state; the capture itself is whole, the counters are absent.
func TestReceiveOldFirmware(t *testing.T) {
	const n = 600_000
	path := filepath.Join(t.TempDir(), "cap.ci8")
	_, errs, code := run(t, "oldfw,fast", "hackrf_transfer", nil, "-r", path, "-s", "2000000", "-n", fmt.Sprint(n), "-B")
	if code != 0 {
		t.Fatalf("exit %d stderr:\n%s", code, errs)
	}
	st := parseStderr(t, errs)
	if st.Reason != hackrfcli.ExitFinished || st.Overruns != nil || st.M0Bytes != nil || len(st.Failures) != st.ProgressLines+1 || st.ProgressLines == 0 {
		t.Errorf("stats %+v", st)
	}
	for _, f := range st.Failures {
		if f.Call != "hackrf_get_m0_state" || f.Code != -1005 || f.Text != "feature not supported by installed firmware" {
			t.Errorf("failure %v", f)
		}
	}
	if strings.Contains(errs, "Transfer statistics:") {
		t.Errorf("statistics printed:\n%s", errs)
	}
	if fi, err := os.Stat(path); err != nil || fi.Size() != 2*n {
		t.Errorf("capture %v, %v; want %d bytes", fi, err, 2*n)
	}
}

func TestReceivePacedInRealTime(t *testing.T) {
	// 2 Msps for 1 s: the paced writer must take about a second. Loose
	// bound only: a loaded CI machine may be slower, never much faster.
	path := filepath.Join(t.TempDir(), "cap.ci8")
	start := time.Now()
	_, errs, code := run(t, "", "hackrf_transfer", nil, "-r", path, "-f", "433920000", "-s", "2000000", "-n", "2000000")
	took := time.Since(start)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if took < 500*time.Millisecond {
		t.Errorf("1 s of samples written in %v: not paced", took)
	}
	s := parseStderr(t, errs)
	if s.Reason != hackrfcli.ExitFinished || s.ProgressLines < 1 || s.Elapsed < 500*time.Millisecond {
		t.Errorf("stats %+v", s)
	}
	if fi, err := os.Stat(path); err != nil || fi.Size() != 4_000_000 {
		t.Errorf("file %v, %v; want 4000000 bytes", fi, err)
	}
}

func TestReceiveToStdout(t *testing.T) {
	out, errs, code := run(t, "fast", "hackrf_transfer", nil, "-r", "-", "-n", "1000")
	if code != 0 || len(out) != 2000 {
		t.Fatalf("exit %d, %d bytes on stdout", code, len(out))
	}
	if strings.Contains(errs, "fclose() done") {
		t.Error("fclose() done printed for stdout")
	}
	if !strings.Contains(errs, "call hackrf_set_sample_rate(10000000 Hz/10.000 MHz)\n") ||
		!strings.Contains(errs, "call hackrf_set_freq(900000000 Hz/900.000 MHz)\n") {
		t.Errorf("defaults not used:\n%s", errs)
	}
	parseStderr(t, errs)
}

func TestReceiveBurstInMiddleThird(t *testing.T) {
	const n = 1_500_000
	const rate = 2_000_000
	path := filepath.Join(t.TempDir(), "cap.ci8")
	if _, errs, code := run(t, "fast,burst", "hackrf_transfer", nil, "-r", path, "-s", fmt.Sprint(rate), "-n", fmt.Sprint(n)); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	iq := readCapture(t, path)
	third := len(iq) / 3 / 2 * 2
	p := [3]float64{meanPower(iq[:third]), meanPower(iq[third : 2*third]), meanPower(iq[2*third:])}
	noise := (p[0] + p[2]) / 2
	if db := 10 * math.Log10(p[1]/noise); db < 20 || db > 30 {
		t.Errorf("middle third %.1f dB over the noise (powers %.1f %.1f %.1f), want about %.0f", db, p[0], p[1], p[2], burstDB)
	}
	if math.Abs(10*math.Log10(p[0]/p[2])) > 1 {
		t.Errorf("outer thirds differ: %.1f vs %.1f", p[0], p[2])
	}
	// The tone sits at +200 kHz, not -200 kHz: correlate the middle third.
	mid := iq[third : 2*third]
	corr := func(f float64) float64 {
		var acc complex128
		for k := 0; k+1 < len(mid); k += 2 {
			x := complex(float64(mid[k]), float64(mid[k+1]))
			acc += x * cmplx.Exp(complex(0, -2*math.Pi*f*float64(k/2)/rate))
		}
		return cmplx.Abs(acc) / float64(len(mid)/2)
	}
	if pos, neg := corr(burstOffsetHz), corr(-burstOffsetHz); pos < 10*neg {
		t.Errorf("tone amplitude at +200 kHz %.2f, at -200 kHz %.2f", pos, neg)
	}
}

func TestReceiveStallAndExit1(t *testing.T) {
	tests := []struct {
		sim       string
		streaming string
		failures  int // at least
	}{
		{"stall,fast", "HACKRF_TRUE", 0},
		// stop_rx, close and m0 state at the end, plus m0 state on each
		// progress line since the device vanished.
		{"exit1,fast", "streaming thread encountered an error", 3},
	}
	for _, tt := range tests {
		t.Run(tt.sim, func(t *testing.T) {
			const n = 3_000_000
			path := filepath.Join(t.TempDir(), "cap.ci8")
			_, errs, code := run(t, tt.sim, "hackrf_transfer", nil, "-r", path, "-s", "2000000", "-n", fmt.Sprint(n), "-B")
			if code != 1 {
				t.Fatalf("exit %d, want 1:\n%s", code, errs)
			}
			s := parseStderr(t, errs)
			if !s.Stalled || s.Reason != hackrfcli.ExitStall || s.Streaming != tt.streaming || !s.Finished || len(s.Failures) < tt.failures {
				t.Errorf("stats %+v", s)
			}
			if tt.failures == 0 && len(s.Failures) != 0 {
				t.Errorf("a hung device reported failures: %v", s.Failures)
			}
			if tt.failures > 0 && s.Overruns != nil {
				t.Errorf("overruns %d reported by a vanished device", *s.Overruns)
			}
			fi, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			// The file stopped growing at a block boundary before a third.
			if fi.Size() == 0 || fi.Size() > 2*n/3 || fi.Size()%blockSize != 0 {
				t.Errorf("file size %d, want whole blocks up to %d", fi.Size(), 2*n/3)
			}
		})
	}
}

func TestReceiveSignals(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "cap.ci8")
			sigs := make(chan os.Signal, 1)
			done := make(chan struct{})
			var errs string
			var code int
			go func() {
				defer close(done)
				_, errs, code = run(t, "", "hackrf_transfer", sigs, "-r", path, "-s", "2000000")
			}()
			// Paced and unbounded: wait until samples arrive, then interrupt.
			deadline := time.Now().Add(30 * time.Second)
			for {
				if fi, err := os.Stat(path); err == nil && fi.Size() > 0 {
					break
				}
				if time.Now().After(deadline) {
					t.Fatal("capture never started")
				}
				time.Sleep(10 * time.Millisecond)
			}
			sigs <- sig
			select {
			case <-done:
			case <-time.After(30 * time.Second):
				t.Fatal("no exit after the signal")
			}
			if code != 0 {
				t.Fatalf("exit %d:\n%s", code, errs)
			}
			s := parseStderr(t, errs)
			if s.Signal != int(sig) || s.Reason != hackrfcli.ExitSignal || !s.Finished || s.Stalled {
				t.Errorf("stats %+v\n%s", s, errs)
			}
			if !strings.Contains(errs, fmt.Sprintf("Caught signal %d\n", int(sig))) {
				t.Errorf("no Caught signal line:\n%s", errs)
			}
			if fi, _ := os.Stat(path); fi.Size()%blockSize != 0 {
				t.Errorf("unbounded capture of %d bytes is not whole blocks", fi.Size())
			}
		})
	}
}

func TestTransmit(t *testing.T) {
	dir := t.TempDir()
	iq := filepath.Join(dir, "tx.ci8")
	data := make([]byte, 600_000)
	for i := range data {
		data[i] = byte(int8(40 * math.Sin(float64(i)/7)))
	}
	if err := os.WriteFile(iq, data, 0o644); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(dir, "empty.ci8")
	os.WriteFile(empty, nil, 0o644)

	tests := []struct {
		name     string
		args     []string
		code     int
		reason   hackrfcli.ExitReason
		sentMB   float64 // sum of progress lines
		contains string
	}{
		{"bounded by -n", []string{"-t", iq, "-f", "433920000", "-s", "2000000", "-x", "0", "-a", "0", "-n", "200000"}, 0, hackrfcli.ExitFinished, 0.4, "call hackrf_set_amp_enable(0)\nsamples_to_xfer 200000/0Mio\n"},
		{"file ends first", []string{"-t", iq, "-s", "2000000", "-n", "1000000"}, 0, hackrfcli.ExitFinished, 0.6, "hackrf_stop_tx() done\n"},
		{"repeat to -n", []string{"-t", iq, "-s", "2000000", "-R", "-n", "1000000", "-B"}, 0, hackrfcli.ExitFinished, 2.0, " underruns, longest 0 bytes\n"},
		{"empty file", []string{"-t", empty, "-s", "2000000", "-n", "1000"}, 1, hackrfcli.ExitStall, 0, "-nan dBfs\n"},
		{"missing file", []string{"-t", filepath.Join(dir, "nope"), "-n", "1000"}, 1, hackrfcli.ExitError, 0, "Failed to open file: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errs, code := run(t, "fast", "hackrf_transfer", nil, tt.args...)
			if code != tt.code || out != "" {
				t.Fatalf("exit %d stdout %q:\n%s", code, out, errs)
			}
			if !strings.Contains(errs, tt.contains) {
				t.Errorf("stderr lacks %q:\n%s", tt.contains, errs)
			}
			s := parseStderr(t, errs)
			if s.Reason != tt.reason || math.Abs(s.Megabytes-tt.sentMB) > 0.11 {
				t.Errorf("reason %q sent %.2f MB, want %q %.2f MB\n%s", s.Reason, s.Megabytes, tt.reason, tt.sentMB, errs)
			}
		})
	}
}

func TestTransferRefusals(t *testing.T) {
	tests := [][]string{
		{"-c", "10", "-n", "100"},
		{"-w", "-n", "100"},
		{"-r", "x.ci8", "-S", "1048576"},
		{"-r", "x.ci8", "-F", "-f", "7000000000"},
		{"-r", "x.ci8", "-i", "2450000000", "-m", "0"},
		{"-t", "-", "-n", "100"},
	}
	for _, args := range tests {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			t.Chdir(t.TempDir())
			out, errs, code := run(t, "fast", "hackrf_transfer", nil, args...)
			if code != 1 || out != "" || !strings.HasPrefix(errs, "hacksim: ") {
				t.Errorf("exit %d stdout %q stderr %q", code, out, errs)
			}
			if m, _ := filepath.Glob("*"); len(m) != 0 {
				t.Errorf("files created: %v", m)
			}
		})
	}
}

func TestTransferArgumentErrors(t *testing.T) {
	tests := []struct {
		args   string
		code   int
		stderr string
	}{
		{"", 1, "specify one of: -t, -c, -r, -w\n"},
		{"-r a -t b", 1, "specify only one of: -t, -c, -r, -w\n"},
		{"-r x -s 25000000", 1, "argument error: sample_rate_hz should be less than or equal to 20000000 Hz/20.000 MHz\n"},
		{"-r x -s 1000000", 1, "argument error: sample_rate_hz should be greater than or equal to 2000000 Hz/2.000 MHz\n"},
		{"-r x -n abc", 1, "argument error: '-n abc' invalid parameter(s) (-2)\n"},
		{"-r x -n 9223372036854775808", 1, "argument error: num_samples must be less than 9223372036854775808/9223372036854Mio\n"},
		{"-r x -a 2", 1, "argument error: amp_enable shall be 0 or 1.\n"},
		{"-r x -b 30000000", 1, "argument error: baseband_filter_bw_hz must be less or equal to 28000000 Hz/28.000 MHz\n"},
		{"-r x -f abc", 1, "argument error: '-f abc' invalid parameter(s) (-2)\n"},
		{"-r", 0, "hackrf_transfer: option requires an argument -- 'r'\n"},
		{"-h", 0, ""},
		{"-r x -d 0" + Serial, 1, "hackrf_open() failed: HackRF not found (-5)\n"},
	}
	for _, tt := range tests {
		t.Run(tt.args, func(t *testing.T) {
			t.Chdir(t.TempDir())
			out, errs, code := run(t, "fast", "hackrf_transfer", nil, strings.Fields(tt.args)...)
			if code != tt.code || errs != tt.stderr || out != transferUsage {
				t.Errorf("exit %d stderr %q (usage on stdout: %v); want exit %d stderr %q", code, errs, out == transferUsage, tt.code, tt.stderr)
			}
		})
	}
}

func TestTransferHeaderVariants(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c")
	_, errs, code := run(t, "fast", "hackrf_transfer", nil,
		"-r", path, "-f", "433.92e6", "-s", "2e6", "-b", "3000000", "-p", "0", "-C", "10", "-n", "10", "-d", "233e1a5f", "-l", "7")
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, errs)
	}
	want := "warning: lna_gain (-l) must be a multiple of 8\n" +
		"call hackrf_set_sample_rate(1999980 Hz/2.000 MHz)\n" +
		"call hackrf_set_baseband_filter_bandwidth(2500000 Hz/2.500 MHz)\n" +
		"call hackrf_set_hw_sync_mode(0)\n" +
		"call hackrf_set_freq(433915660 Hz/433.916 MHz)\n" +
		"call hackrf_set_antenna_enable(0)\n" +
		"samples_to_xfer 10/0Mio\n" +
		"Stop with Ctrl-C\n"
	if !strings.HasPrefix(errs, want) {
		t.Errorf("stderr:\n%s\nwant prefix:\n%s", errs, want)
	}
	parseStderr(t, errs)
}
