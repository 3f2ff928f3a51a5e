package demorun

import (
	"bufio"
	"encoding/json"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cli/safeexec"

	"rfhandoff/config"
	"rfhandoff/hacksim"
	"rfhandoff/internal/e2ekit"
	"rfhandoff/internal/faultkit"
	"rfhandoff/internal/prompttest"
	"rfhandoff/internal/sigmftest"
	"rfhandoff/sigmf"
)

// demoNodes are the sandbox's nodes with their on-air delay and level as
// the demo documents them (demo/nodes.go: +250 ms and -6 dB per node).
var demoNodes = []struct {
	name    string
	delayMS float64
	levelDB float64
}{{"rx-a", 0, 0}, {"rx-b", 250, -6}, {"rx-c", 500, -12}}

// TestDemoAutoThreeNodes runs the real `rfhandoff demo --auto --rx-nodes 3
// --keep` end to end (PROTOCOL#several-nodes): three RX nodes approve and capture
// with the simulator on their own branches, MAIN asks for the phrase once
// for all three and writes one record binding three READY commits, every
// node publishes COMPLETE, the collection appears, and each node's
// recording holds the one fake transmission the sandbox put on the air,
// at that node's delay and level: found in the raw IQ, annotated in its
// SigMF metadata, drawn in its quick-look.
func TestDemoAutoThreeNodes(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs three real-time 60 s captures")
	}
	skipDemoAuto(t)
	bin := faultkit.Bin(t)
	if _, err := safeexec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	tmp := t.TempDir()
	s := prompttest.StartDetached(t, bin, []string{"demo", "--auto", "--keep", "--rx-nodes", "3"}, prompttest.Options{Dir: tmp, Env: demoEnv(tmp)})
	state := s.Wait(6 * time.Minute)
	out, errOut := s.Stdout.String(), s.Stderr.String()
	if state.ExitCode() != 0 {
		t.Fatalf("demo --auto --rx-nodes 3 exited %d\nstderr:\n%s\nstdout:\n%s", state.ExitCode(), errOut, out)
	}
	m := regexp.MustCompile(`Sandbox kept: (\S+)`).FindStringSubmatch(out)
	if m == nil || !strings.HasPrefix(m[1], tmp) {
		t.Fatalf("sandbox path not reported inside TMPDIR %s\nstdout:\n%s", tmp, out)
	}
	root := m[1]

	// One phrase for the three nodes in tx watch, one in tx execute.
	if n := strings.Count(out, "MAIN | Type exactly: AUTHORIZE RF TX"); n != 2 {
		t.Errorf("the phrase was asked %d times, want 2 (tx watch once for all nodes, tx execute)\nstdout:\n%s", n, out)
	}
	if !strings.Contains(out, "(one phrase for all 3)") {
		t.Errorf("tx watch did not offer the three nodes as one\nstdout:\n%s", out)
	}
	ready := map[string]string{}
	for _, n := range demoNodes {
		for _, w := range []string{
			n.name + " | > A      <- typed by demo --auto",
			"rx check on " + n.name + " exited 10",
			"COMPLETE is on " + n.name + " at commit",
			n.name + " heard the burst: samples ",
			n.name + " | " + root + "/" + n.name + "/.local/audit.jsonl: intact",
		} {
			if !strings.Contains(out, w) {
				t.Errorf("the transcript lacks %q\nstdout:\n%s", w, out)
			}
		}
		rm := regexp.MustCompile(`READY is on ` + n.name + ` at commit ([0-9a-f]{12}):`).FindStringSubmatch(out)
		if rm == nil {
			t.Fatalf("no READY on %s\nstdout:\n%s", n.name, out)
		}
		ready[n.name] = rm[1]
	}

	// The record binds the three READY commits.
	rm := regexp.MustCompile(`AUTHORIZED: record (\S+) for 3 nodes`).FindStringSubmatch(out)
	if rm == nil {
		t.Fatalf("no record for 3 nodes\nstdout:\n%s", out)
	}
	rec := e2ekit.NodesRecord(t, rm[1], 3)
	for i, n := range demoNodes {
		b := rec.Nodes[i]
		if b.Node != n.name || b.ResultBranch != n.name || !strings.HasPrefix(b.ResultCommit, ready[n.name]) || !strings.HasPrefix(b.ResultSigner, "SHA256:") {
			t.Errorf("record node %d %+v, want %s on its branch at its READY %s, signed", i, b, n.name, ready[n.name])
		}
	}
	if !strings.Contains(out, "The fake TX action ran: action fake, rf_tx_started false, RF TX = 0.") {
		t.Errorf("the fake action's verdict is missing\nstdout:\n%s", out)
	}

	// The collection names the three recordings.
	mainPol, err := config.Load(filepath.Join(root, "main.toml"))
	if err != nil {
		t.Fatal(err)
	}
	coll, err := os.ReadFile(sigmf.CollectionPath(mainPol.StatePath(), "DEMO_RX_CAPTURE_001"))
	if err != nil {
		t.Fatal(err)
	}
	if err := sigmftest.ValidateCollection(coll); err != nil {
		t.Fatalf("not a SigMF collection: %v\n%s", err, coll)
	}
	for _, n := range demoNodes {
		if !strings.Contains(string(coll), `"DEMO_RX_CAPTURE_001-`+n.name+`"`) {
			t.Errorf("the collection does not name %s:\n%s", n.name, coll)
		}
	}

	// Each node heard the one transmission, at its delay and level.
	airData, err := os.ReadFile(filepath.Join(root, "on-air.json"))
	if err != nil {
		t.Fatal(err)
	}
	var air hacksim.OnAir
	if err := json.Unmarshal(airData, &air); err != nil {
		t.Fatal(err)
	}
	var at []time.Time
	var tone []float64
	var peaks []float64
	for _, n := range demoNodes {
		pol, err := config.Load(filepath.Join(root, n.name+".toml"))
		if err != nil {
			t.Fatal(err)
		}
		base := filepath.Join(pol.CaptureDir(), "DEMO_RX_CAPTURE_001", "DEMO_RX_CAPTURE_001-"+n.name)
		meta := readDemoMeta(t, base+".sigmf-meta")
		b := findBurst(t, base+".sigmf-data")
		if got := float64(b.end-b.start) / float64(meta.rate); math.Abs(got-air.DurationS) > 0.01 {
			t.Errorf("%s: the burst lasts %.3f s in its IQ, the transmission %.0f s", n.name, got, air.DurationS)
		}
		// By the recording's own clock (core:datetime, the first sample):
		// the burst arrives the node's delay after the on-air start. The
		// slack is the first-sample estimate's (PROTOCOL#capture) and the
		// datetime's millisecond rounding, well under the 250 ms steps.
		began := meta.first.Add(time.Duration(float64(b.start) / float64(meta.rate) * float64(time.Second)))
		if late := began.Sub(air.Start).Seconds() * 1000; math.Abs(late-n.delayMS) > 100 {
			t.Errorf("%s: the burst begins %+.0f ms after the on-air start by its recording, want %+.0f ms", n.name, late, n.delayMS)
		}
		at = append(at, began)
		tone = append(tone, 10*math.Log10(b.power-demoNoisePower))
		// The annotation marks the same burst.
		if meta.annStart > b.start+meta.rate/4 || meta.annEnd < b.end-meta.rate/4 || meta.annEnd <= meta.annStart {
			t.Errorf("%s: annotation [%d, %d), the IQ's burst [%d, %d)", n.name, meta.annStart, meta.annEnd, b.start, b.end)
		}
		peaks = append(peaks, meta.peakDBFS)
		if st, err := os.Stat(base + ".quicklook.png"); err != nil || st.Size() == 0 {
			t.Errorf("%s: no quick-look PNG (%v)", n.name, err)
		}
	}
	for i := 1; i < len(demoNodes); i++ {
		if d := at[i].Sub(at[i-1]).Seconds() * 1000; math.Abs(d-(demoNodes[i].delayMS-demoNodes[i-1].delayMS)) > 100 {
			t.Errorf("%s hears the burst %.0f ms after %s, want %.0f", demoNodes[i].name, d, demoNodes[i-1].name, demoNodes[i].delayMS-demoNodes[i-1].delayMS)
		}
		want := demoNodes[i-1].levelDB - demoNodes[i].levelDB
		if d := tone[i-1] - tone[i]; math.Abs(d-want) > 1 {
			t.Errorf("%s hears the tone %.2f dB louder than %s, want %.0f", demoNodes[i-1].name, d, demoNodes[i].name, want)
		}
		if d := peaks[i-1] - peaks[i]; math.Abs(d-want) > 1.5 {
			t.Errorf("annotated peaks: %s %.1f dBFS, %s %.1f dBFS, want %.0f dB apart", demoNodes[i-1].name, peaks[i-1], demoNodes[i].name, peaks[i], want)
		}
	}
}

// demoNoisePower is the simulator's noise, I²+Q² per sample (σ = 3 LSB).
const demoNoisePower = 18.0

// iqBurst is the burst found in a ci8 file: its samples [start, end) and
// its mean I²+Q² per sample.
type iqBurst struct {
	start, end int64
	power      float64
}

// findBurst scans a ci8 file in 1000-sample windows for the one stretch
// 10 dB over the noise.
func findBurst(t *testing.T, path string) iqBurst {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	const win = 1000
	r := bufio.NewReaderSize(f, 1<<20)
	buf := make([]byte, 2*win)
	b := iqBurst{start: -1}
	var sum float64
	var n int64
	for k := int64(0); ; k += win {
		if _, err := io.ReadFull(r, buf); err != nil {
			break
		}
		var e float64
		for _, v := range buf {
			x := float64(int8(v))
			e += x * x
		}
		if e/win > 10*demoNoisePower {
			if b.start >= 0 && b.end != k {
				t.Fatalf("%s: a second burst at sample %d (the first ended at %d)", path, k, b.end)
			}
			if b.start < 0 {
				b.start = k
			}
			b.end = k + win
			sum += e
			n += win
		}
	}
	if b.start < 0 {
		t.Fatalf("%s: no burst in the IQ", path)
	}
	b.power = sum / float64(n)
	return b
}

// demoMeta is what the test reads of a node's SigMF metadata.
type demoMeta struct {
	first            time.Time
	rate             int64
	annStart, annEnd int64
	peakDBFS         float64
}

func readDemoMeta(t *testing.T, path string) demoMeta {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Global struct {
			Rate       int64  `json:"core:sample_rate"`
			Collection string `json:"core:collection"`
		} `json:"global"`
		Captures []struct {
			Datetime time.Time `json:"core:datetime"`
		} `json:"captures"`
		Annotations []struct {
			Start   int64  `json:"core:sample_start"`
			Count   int64  `json:"core:sample_count"`
			Label   string `json:"core:label"`
			Comment string `json:"core:comment"`
		} `json:"annotations"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if len(doc.Captures) != 1 || len(doc.Annotations) != 1 || doc.Annotations[0].Label != "burst" || doc.Global.Collection != "DEMO_RX_CAPTURE_001" {
		t.Fatalf("%s: want one capture, one burst annotation and core:collection:\n%s", path, data)
	}
	a := doc.Annotations[0]
	pm := regexp.MustCompile(`peak (-?[0-9.]+) dBFS`).FindStringSubmatch(a.Comment)
	if pm == nil {
		t.Fatalf("%s: the annotation names no peak: %q", path, a.Comment)
	}
	peak, _ := strconv.ParseFloat(pm[1], 64)
	return demoMeta{first: doc.Captures[0].Datetime, rate: doc.Global.Rate, annStart: a.Start, annEnd: a.Start + a.Count, peakDBFS: peak}
}

// TestDemoRXNodesRefused: --rx-nodes outside 1..8, or not a number, is a
// usage error naming the flag and the value, and creates nothing.
func TestDemoRXNodesRefused(t *testing.T) {
	t.Parallel()
	bin := faultkit.Bin(t)
	for _, v := range []string{"0", "9", "x", "-1"} {
		tmp := t.TempDir()
		s := prompttest.StartDetached(t, bin, []string{"demo", "--auto", "--rx-nodes=" + v}, prompttest.Options{Dir: tmp, Env: demoEnv(tmp)})
		state := s.Wait(faultkit.Wait)
		errOut := s.Stderr.String()
		if state.ExitCode() != 2 || !strings.Contains(errOut, "--rx-nodes") || !strings.Contains(errOut, v) || !strings.Contains(errOut, "1 to 8") {
			t.Errorf("--rx-nodes %s: exit %d, stderr %q; want 2 naming the flag, the value and 1 to 8", v, state.ExitCode(), errOut)
		}
		if s.Stdout.String() != "" {
			t.Errorf("--rx-nodes %s: stdout %q", v, s.Stdout.String())
		}
		if made := demoSandboxes(t, tmp); len(made) > 0 {
			t.Errorf("--rx-nodes %s: a sandbox was created: %v", v, made)
		}
	}
}
