package main

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"rfhandoff/internal/quicklooktest"
	"rfhandoff/quicklook"
)

func runCapturePlot(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	t.Setenv("RFHANDOFF_CONFIG", "")
	t.Chdir(t.TempDir()) // no ./rfhandoff.toml: the built-in policy applies
	var out, errb bytes.Buffer
	code = Main(append([]string{"rfhandoff", "capture", "plot"}, args...), &out, &errb)
	return code, out.String(), errb.String()
}

const plotRate = 500_000

// writeCapture writes a generated 8 s ci8 capture, with a +25 dB tone in
// its middle third when burst is set.
func writeCapture(t *testing.T, path string, burst bool) {
	t.Helper()
	s := quicklooktest.Signal{Rate: plotRate, Duration: 8 * time.Second, Sigma: 10, Seed: 5}
	if burst {
		s.ToneHz = quicklooktest.BinHz(plotRate, 1024, 64)
		s.ToneAmp = quicklooktest.ToneAmpForBinSNR(10, 1024, 25)
		s.ToneFrom, s.ToneTo = 8*time.Second/3, 16*time.Second/3
	}
	if err := os.WriteFile(path, s.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func writeMeta(t *testing.T, path, body string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func checkPNG(t *testing.T, path string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if b := img.Bounds(); b.Dx() != quicklook.Width || b.Dy() != quicklook.Height {
		t.Fatalf("%s is %dx%d", path, b.Dx(), b.Dy())
	}
}

func TestCapturePlotFromSigMF(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "rx.sigmf-data")
	writeCapture(t, data, true)
	writeMeta(t, filepath.Join(dir, "rx.sigmf-meta"), `{"global": {"core:datatype": "ci8", "core:sample_rate": 500000},
		"captures": [{"core:sample_start": 0, "core:frequency": 433920000, "core:datetime": "2025-03-14T09:26:53Z"}]}`)

	code, out, errs := runCapturePlot(t, data)
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	for _, want := range []string{"rx.sigmf-data: burst 2.", "EXPECTED_EXTERNAL_TX", "433.951250 MHz", "wrote " + data + ".png"} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q: %q", want, out)
		}
	}
	if strings.Count(out, "\n") != 1 {
		t.Errorf("want a one-line summary, got %q", out)
	}
	checkPNG(t, data+".png")
}

func TestCapturePlotFlagsAndOutput(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "noise.ci8")
	writeCapture(t, data, false)
	png := filepath.Join(dir, "look.png")

	code, out, errs := runCapturePlot(t, data, "--sample-rate", "500000", "--frequency", "100000000", "-o", png)
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	if !strings.Contains(out, "no burst") || !strings.Contains(out, "-> UNKNOWN") || !strings.Contains(out, "wrote "+png) {
		t.Errorf("stdout %q", out)
	}
	checkPNG(t, png)
	if _, err := os.Stat(data + ".png"); err == nil {
		t.Error("wrote the default output although -o was given")
	}
}

func TestCapturePlotFileSigMFMetaName(t *testing.T) {
	// FILE.sigmf-meta is accepted too, and flags override the metadata.
	dir := t.TempDir()
	data := filepath.Join(dir, "cap.ci8")
	writeCapture(t, data, true)
	writeMeta(t, data+".sigmf-meta", `{"global": {"core:sample_rate": 250000}, "captures": [{"core:frequency": 915000000}]}`)
	code, out, errs := runCapturePlot(t, data, "--sample-rate", "500000")
	if code != 0 || !strings.Contains(out, "EXPECTED_EXTERNAL_TX") || !strings.Contains(out, "915.031250") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

func TestCapturePlotPolicyThreshold(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "cap.ci8")
	writeCapture(t, data, true)
	cfg := filepath.Join(dir, "policy.toml")
	writeMeta(t, cfg, "[capture]\ndetect_threshold_db = 35.0\n")
	code, out, errs := runCapturePlot(t, "--config", cfg, data, "--sample-rate", "500000", "--frequency", "433920000")
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	if !strings.Contains(out, "no burst 35.0 dB") || !strings.Contains(out, "UNKNOWN") {
		t.Errorf("a +25 dB burst under a 35 dB policy threshold: %q", out)
	}
}

func TestCapturePlotErrors(t *testing.T) {
	dir := t.TempDir()
	bare := filepath.Join(dir, "bare.ci8")
	writeCapture(t, bare, false)
	broken := filepath.Join(dir, "broken.sigmf-data")
	writeCapture(t, broken, false)
	writeMeta(t, filepath.Join(dir, "broken.sigmf-meta"), `{"global": {"core:datatype": "cf32_le", "core:sample_rate": -1}}`)

	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"nothing known", []string{bare}, []string{"bare.ci8", "sample rate unknown", "--sample-rate", "frequency unknown", "--frequency", "bare.sigmf-meta"}},
		{"frequency missing", []string{bare, "--sample-rate", "500000"}, []string{"frequency unknown"}},
		{"broken metadata", []string{broken, "--sample-rate", "500000", "--frequency", "1"}, []string{"broken.sigmf-meta", "global.core:datatype", "cf32_le", "global.core:sample_rate"}},
		{"negative flags", []string{bare, "--sample-rate=-5", "--frequency=-1"}, []string{"--sample-rate -5", "--frequency -1"}},
		{"output is the capture", []string{bare, "--sample-rate", "500000", "--frequency", "1", "-o", bare}, []string{"is the capture itself"}},
		{"missing file", []string{filepath.Join(dir, "nope.ci8")}, []string{"nope.ci8"}},
		{"directory", []string{dir, "--sample-rate", "1", "--frequency", "1"}, []string{"not a regular file"}},
	}
	before, _ := os.ReadFile(bare)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := runCapturePlot(t, tc.args...)
			if code != 1 || out != "" {
				t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errs)
			}
			for _, w := range tc.want {
				if !strings.Contains(errs, w) {
					t.Errorf("stderr lacks %q: %s", w, errs)
				}
			}
		})
	}
	after, _ := os.ReadFile(bare)
	if !bytes.Equal(before, after) {
		t.Fatal("the capture changed")
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "*.png")); len(m) != 0 {
		t.Fatalf("failed runs left %v", m)
	}
}
