package capture

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"rfhandoff/captureplan"
	"rfhandoff/hackrfcli"
	"rfhandoff/internal/quicklooktest"
	"rfhandoff/internal/sigmftest"
	"rfhandoff/quicklook"
	"rfhandoff/sigmf"
)

// TestFollowerReadsAGrowingFile: a writer appends in uneven pieces with
// pauses; the follower hands every byte once, in order, to each sink.
func TestFollowerReadsAGrowingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "grow.ci8")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	var a, b bytes.Buffer
	h := sha256.New()
	fl, err := follow(path, &a, &b, h)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var want bytes.Buffer
	for i := range 60 {
		p := make([]byte, rng.IntN(3*chunkSize/2)+1)
		for j := range p {
			p[j] = byte(j*31 + i)
		}
		if _, err := f.Write(p); err != nil {
			t.Fatal(err)
		}
		want.Write(p)
		if i%10 == 0 {
			time.Sleep(2 * followPoll) // the follower catches up and waits at the end
		}
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	n, err := fl.wait()
	if err != nil || n != int64(want.Len()) {
		t.Fatalf("wait = %d, %v; want %d bytes", n, err, want.Len())
	}
	if !bytes.Equal(a.Bytes(), want.Bytes()) || !bytes.Equal(b.Bytes(), want.Bytes()) {
		t.Errorf("a sink saw other bytes than were written (%d, %d of %d)", a.Len(), b.Len(), want.Len())
	}
	sum := sha256.Sum256(want.Bytes())
	if hex.EncodeToString(h.Sum(nil)) != hex.EncodeToString(sum[:]) {
		t.Errorf("streamed SHA-256 differs from the file's")
	}
	for i := range 3 {
		if fl.sinkDone(i).IsZero() {
			t.Errorf("sink %d has no done time", i)
		}
	}
}

type failingSink struct{ n int }

func (s *failingSink) Write(p []byte) (int, error) {
	s.n++
	if s.n == 2 {
		return 0, errors.New("sink broke")
	}
	return len(p), nil
}

// TestFollowerSinkError: a failing sink is reported; the others still
// get every byte.
func TestFollowerSinkError(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x")
	data := bytes.Repeat([]byte{1, 2, 3}, chunkSize)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	var ok bytes.Buffer
	fl, err := follow(path, &failingSink{}, &ok)
	if err != nil {
		t.Fatal(err)
	}
	n, err := fl.wait()
	if err == nil || !strings.Contains(err.Error(), "sink broke") {
		t.Errorf("wait error = %v, want the sink's", err)
	}
	if n != int64(len(data)) || !bytes.Equal(ok.Bytes(), data) {
		t.Errorf("the healthy sink got %d of %d bytes", ok.Len(), len(data))
	}
}

func board(serial string) hackrfcli.Board {
	return hackrfcli.Board{Index: 0, Serial: serial, BoardID: 2, BoardName: "HackRF One", FirmwareVersion: "2022.09.1", APIVersion: "1.06"}
}

// TestPick is the board selection rule.
func TestPick(t *testing.T) {
	a := board("0000000000000000a06063c8233e1a5f")
	b := board("000000000000000075b068dc317a8c5f")
	unread := hackrfcli.Board{Index: 1, Serial: "00000000000000001111222233334444", BoardID: -1}
	tests := []struct {
		name   string
		boards []hackrfcli.Board
		pin    string
		want   string // serial picked
		msg    string // or the refusal
	}{
		{"one board", []hackrfcli.Board{a}, "", a.Serial, ""},
		{"pinned full", []hackrfcli.Board{a, b}, b.Serial, b.Serial, ""},
		{"pinned suffix", []hackrfcli.Board{a, b}, "317a8c5f", b.Serial, ""},
		{"two without a pin", []hackrfcli.Board{a, b}, "", "", "2 HackRFs found (" + a.Serial + ", " + b.Serial + "); pin the one to capture with in [capture] serial"},
		{"pin matches two", []hackrfcli.Board{a, b}, "5f", "", "serial 5f matches 2 HackRFs"},
		{"pinned absent", []hackrfcli.Board{a}, "deadbeef", "", "no HackRF found with serial deadbeef (found: " + a.Serial + ")"},
		{"unreadable board", []hackrfcli.Board{unread}, "", "", "could not read the board"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := pick(hackrfcli.Info{Boards: tt.boards}, tt.pin)
			if tt.msg == "" {
				if err != nil || got.Serial != tt.want {
					t.Fatalf("pick = %s, %v; want %s", got.Serial, err, tt.want)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.msg) {
				t.Fatalf("err = %v, want one containing %q", err, tt.msg)
			}
		})
	}
}

// TestProgress: one line rewritten in place on a terminal; elsewhere a
// plain line per interval (and the last one at the end).
func TestProgress(t *testing.T) {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	at := func(s float64) sample {
		d := time.Duration(s * float64(time.Second))
		return sample{at: t0.Add(d), elapsed: d, bytes: int64(s * 4e6), power: -29.5, hasPower: true}
	}
	var term bytes.Buffer
	p := &progress{w: &term, terminal: true, taskID: "T1", planned: 15 * time.Second, total: 60e6}
	for s := 0.0; s <= 3; s += 0.5 {
		p.update(at(s))
	}
	p.done(at(15))
	out := term.String()
	if strings.Count(out, "\n") != 1 || strings.Count(out, "\r") != 8 {
		t.Errorf("terminal output should be one line rewritten in place:\n%q", out)
	}
	for _, want := range []string{"capture T1: 3.0 s / 15.0 s [####................]  20%, 12.0 MB, 4.0 MB/s, -29.5 dBFS\x1b[K",
		"15.0 s / 15.0 s [####################] 100%, 60.0 MB"} {
		if !strings.Contains(out, want) {
			t.Errorf("terminal output lacks %q:\n%q", want, out)
		}
	}

	var plain bytes.Buffer
	p = &progress{w: &plain, every: 10 * time.Second, taskID: "T1", planned: 15 * time.Second, total: 60e6}
	for s := 0.0; s <= 14; s += 0.25 {
		p.update(at(s))
	}
	p.done(at(15))
	lines := strings.Split(strings.TrimSuffix(plain.String(), "\n"), "\n")
	want := []string{
		"capture T1: 0.0 s / 15.0 s, 0 B, 0 B/s, -29.5 dBFS",
		"capture T1: 10.0 s / 15.0 s, 40.0 MB, 4.0 MB/s, -29.5 dBFS",
		"capture T1: 15.0 s / 15.0 s, 60.0 MB, 4.0 MB/s, -29.5 dBFS",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("plain progress:\n%s\nwant:\n%s", plain.String(), strings.Join(want, "\n"))
	}
	if strings.ContainsAny(plain.String(), "\r\x1b") {
		t.Errorf("plain progress holds terminal controls")
	}

	(&progress{}).update(at(1)) // no writer: no display, no panic
}

// TestBuildMeta: the SigMF fields, and a burst as an annotation with its
// samples and band.
func TestBuildMeta(t *testing.T) {
	first := time.Date(2026, 11, 29, 13, 36, 9, 123456789, time.FixedZone("CET", 3600))
	det := &quicklook.Detection{Burst: true, Start: 5 * time.Second, End: 10 * time.Second, StartSample: 10_000_000, EndSample: 20_000_000,
		LowOffsetHz: 197e3, HighOffsetHz: 203e3, PeakDBFS: -12.5, PeakOffsetHz: 200e3, PeakExcessDB: 24.8}
	m := buildMeta(metaInput{
		taskID: "RX_T1", title: "Bench", sampleRate: 2e6, frequency: 433920000, firstSample: first,
		sha512: strings.Repeat("ab", 64), hw: "HackRF One r8", toolVersion: "2022.09.1",
		outcome: "Capture ended normally.", detection: det,
		plan: &captureplan.Plan{LNAGainDB: 24, VGAGainDB: 30, Amp: true}, serial: "a06063c8233e1a5f", firmware: "2022.09.1",
	})
	g := m.Global
	if *g.LNAGainDB != 24 || *g.VGAGainDB != 30 || !*g.Amp || *g.AntennaPower || g.Serial != "a06063c8233e1a5f" || g.Firmware != "2022.09.1" ||
		len(g.Extensions) != 1 || g.Extensions[0] != (sigmf.ExtensionDecl{Name: "rfhandoff", Version: "1.0.0", Optional: true}) {
		t.Errorf("what ran: %+v", g)
	}
	if g.Datatype != "ci8" || g.Version != "1.2.0" || g.SampleRate != 2e6 || g.NumChannels != 1 || g.Recorder != "hackrf_transfer 2022.09.1 (rfhandoff rx capture)" {
		t.Errorf("global = %+v", g)
	}
	if g.Description != "RX_T1: Bench. Capture ended normally." {
		t.Errorf("description = %q", g.Description)
	}
	if c := m.Captures[0]; c.Datetime != "2026-11-29T12:36:09.123Z" || c.Frequency != 433920000 {
		t.Errorf("capture = %+v", c)
	}
	if len(m.Annotations) != 1 {
		t.Fatalf("annotations = %+v", m.Annotations)
	}
	a := m.Annotations[0]
	if a.SampleStart != 10_000_000 || a.SampleCount != 10_000_000 || a.Label != "burst" || !strings.Contains(a.Comment, "434.120000 MHz") {
		t.Errorf("annotation = %+v", a)
	}
	if a.FreqLowerEdge != 434_117_000 || a.FreqUpperEdge != 434_123_000 {
		t.Errorf("edges %v .. %v, want 434117000 .. 434123000", a.FreqLowerEdge, a.FreqUpperEdge)
	}
	data, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{`"core:freq_lower_edge":434117000`, `"core:freq_upper_edge":434123000`} {
		if !strings.Contains(string(data), key) {
			t.Errorf("metadata lacks %s:\n%s", key, data)
		}
	}
	if err := sigmftest.ValidateMeta(data); err != nil {
		t.Errorf("metadata does not validate: %v\n%s", err, data)
	}
	// A key in an undeclared namespace is refused by the check.
	if err := sigmftest.ValidateMeta([]byte(strings.Replace(string(data), `"rfhandoff"`, `"other"`, 1))); err == nil {
		t.Error("an undeclared rfhandoff: key validates")
	}
	if m := buildMeta(metaInput{sampleRate: 2e6, detection: &quicklook.Detection{}}); m.Annotations == nil || len(m.Annotations) != 0 {
		t.Errorf("no burst: annotations = %#v, want [] (SigMF requires the key)", m.Annotations)
	}
}

// TestBuildMetaBurstToTheEnd: a burst lasting to the end of the capture is
// annotated up to its last sample, through the analyzer's fractional rows
// (the annotation used to come out one sample short).
func TestBuildMetaBurstToTheEnd(t *testing.T) {
	const rate = 500_000
	p := quicklook.Params{SampleRateHz: rate, FrequencyHz: 433_920_000, PlannedDuration: 8 * time.Second, Rows: 97}
	sig := quicklooktest.Signal{Rate: rate, Duration: 8*time.Second + 3*time.Millisecond, Sigma: 10, Seed: 5,
		ToneHz: quicklooktest.BinHz(rate, 1024, 300), ToneAmp: quicklooktest.ToneAmpForBinSNR(10, 1024, 25),
		ToneFrom: 6 * time.Second, ToneTo: time.Hour}
	an := quicklook.NewAnalyzer(p)
	data := sig.Bytes()
	an.Write(data)
	a := an.Finish()
	det := quicklook.Detect(a, 10, 500*time.Millisecond)
	if !det.Burst {
		t.Fatal("no burst")
	}
	m := buildMeta(metaInput{sampleRate: rate, frequency: p.FrequencyHz, detection: &det})
	ann := m.Annotations[0]
	if total := int64(len(data) / 2); ann.SampleStart+ann.SampleCount != total {
		t.Errorf("annotation covers samples %d .. %d, the capture has %d", ann.SampleStart, ann.SampleStart+ann.SampleCount, total)
	}
	// It starts with the first row the tone lifts, within a row of it.
	if off := ann.SampleStart - 6*rate; off < -int64(a.RowSamples)-1 || off > int64(a.RowSamples)+1 {
		t.Errorf("annotation starts at sample %d, the tone at %d (rows of %.1f samples)", ann.SampleStart, 6*rate, a.RowSamples)
	}
	tone := float64(p.FrequencyHz) + sig.ToneHz
	if ann.FreqLowerEdge > tone || ann.FreqUpperEdge < tone || ann.FreqUpperEdge-ann.FreqLowerEdge > 8*a.BinWidthHz() {
		t.Errorf("band %.0f .. %.0f Hz, tone at %.0f Hz", ann.FreqLowerEdge, ann.FreqUpperEdge, tone)
	}
}

// TestFirstSample: the estimate is the tightest upper bound the file's
// growth gives, never before the process start, and the process start
// until a byte was seen.
func TestFirstSample(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	f := newFirstSample(2_000_000, t0)
	if !f.at().Equal(t0) {
		t.Errorf("nothing seen: %v, want the process start", f.at())
	}
	f.observe(t0.Add(100*time.Millisecond), 0) // an empty file says nothing
	if !f.at().Equal(t0) {
		t.Errorf("empty file: %v", f.at())
	}
	// Streaming began 300 ms after the process; the looks come late by
	// 70 ms, 10 ms and 40 ms after a write.
	begin := t0.Add(300 * time.Millisecond)
	for _, look := range []struct {
		bytes int64
		late  time.Duration
	}{{262144, 70 * time.Millisecond}, {2 * 262144, 10 * time.Millisecond}, {3 * 262144, 40 * time.Millisecond}} {
		written := begin.Add(time.Duration(float64(look.bytes) / 4e6 * float64(time.Second)))
		f.observe(written.Add(look.late), look.bytes)
	}
	if got, want := f.at(), begin.Add(10*time.Millisecond); !got.Equal(want) {
		t.Errorf("estimate %v, want %v (the tightest look)", got, want)
	}
	// Bytes faster than real time would put it before the process start.
	g := newFirstSample(2_000_000, t0)
	g.observe(t0.Add(50*time.Millisecond), 40_000_000)
	if !g.at().Equal(t0) {
		t.Errorf("unpaced: %v, want the process start", g.at())
	}
	var none *firstSample
	none.observe(t0, 1) // a session without one (never started) ignores looks
}

var _ io.Writer = (*failingSink)(nil)

// confirm accepts a file only when a reading ConfirmGap after the first
// one is larger, with the tool alive: a file written once and then left
// is never confirmed (the caller's context ends the wait), one that keeps
// growing is, and a tool that exited is refused whatever the file did.
func TestConfirm(t *testing.T) {
	t.Parallel()
	newSession := func(t *testing.T) (*session, *os.File) {
		path := filepath.Join(t.TempDir(), "capture.data")
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		o := Options{ConfirmGap: 20 * time.Millisecond, StartupTimeout: time.Hour}
		return &session{o: o, rep: &Report{DataPath: path}, exited: make(chan struct{})}, f
	}
	t.Run("written once", func(t *testing.T) {
		t.Parallel()
		s, f := newSession(t)
		if _, err := f.Write([]byte("only")); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(t.Context(), 10*s.o.ConfirmGap)
		defer cancel()
		if err := s.confirm(ctx); !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("a file that never grew after its first bytes: confirm = %v, want the wait to run out", err)
		}
	})
	t.Run("growing", func(t *testing.T) {
		t.Parallel()
		s, f := newSession(t)
		stop := make(chan struct{})
		done := make(chan struct{})
		go func() {
			defer close(done)
			for {
				select {
				case <-stop:
					return
				case <-time.After(time.Millisecond):
					f.Write([]byte("iq"))
				}
			}
		}()
		err := s.confirm(t.Context())
		close(stop)
		<-done
		if err != nil {
			t.Fatalf("a growing file: confirm = %v", err)
		}
	})
	t.Run("tool exited", func(t *testing.T) {
		t.Parallel()
		s, f := newSession(t)
		if _, err := f.Write([]byte("some")); err != nil {
			t.Fatal(err)
		}
		close(s.exited)
		if err := s.confirm(t.Context()); err == nil || !strings.HasPrefix(err.Error(), "capture did not start: ") || !strings.Contains(err.Error(), "exited before the capture was confirmed") {
			t.Fatalf("an exited tool: confirm = %v", err)
		}
	})
}
