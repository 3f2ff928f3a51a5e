//go:build unix

package quicklook

import (
	"io"
	"math/rand/v2"
	"syscall"
	"testing"
	"time"
)

// cpuTime is the process's user+system CPU time: unlike wall time it does
// not grow when other jobs share the machine.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// noise returns n bytes of cheap pseudo-random ci8 (uniform, about ±32).
func noise(n int) []byte {
	r := rand.New(rand.NewPCG(1, 1))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(int8(r.IntN(64) - 32))
	}
	return b
}

// BenchmarkAnalyzer20Msps feeds a 120 s, 20 Msps analysis in 1 MiB writes.
// MB/s must stay at or above 80 (40 MB/s of ci8 in at most half a core);
// core@20Msps is the CPU share it takes at that rate, from rusage.
func BenchmarkAnalyzer20Msps(b *testing.B) {
	const rate = 20_000_000
	chunk := noise(1 << 20)
	a := NewAnalyzer(Params{SampleRateHz: rate, FrequencyHz: 433_920_000, PlannedDuration: 120 * time.Second})
	b.SetBytes(int64(len(chunk)))
	b.ReportAllocs()
	c0 := cpuTime()
	for b.Loop() {
		if _, err := a.Write(chunk); err != nil {
			b.Fatal(err)
		}
	}
	cpu := cpuTime() - c0
	bytes := float64(b.N) * float64(len(chunk))
	b.ReportMetric(cpu.Seconds()/bytes*2*rate, "core@20Msps")
	b.ReportMetric(bytes/cpu.Seconds()/1e6, "cpuMB/s")
}

// BenchmarkAnalyzerFastGB is the capture executor's fast case: a whole
// 1 GB capture (25 s planned at 20 Msps, 512 rows) fed in 1 MiB writes as
// fast as the Analyzer takes them, from NewAnalyzer to Finish. One op is
// the whole gigabyte; MB/s is the unbounded feed rate and cpu-s/GB the CPU
// it costs (rusage), which maxFramesPerRow keeps flat in the data rate.
func BenchmarkAnalyzerFastGB(b *testing.B) {
	const (
		rate    = 20_000_000
		planned = 25 * time.Second
		size    = 2 * rate * 25 // bytes
	)
	chunk := noise(1 << 20)
	b.SetBytes(size)
	var cpu time.Duration
	for b.Loop() {
		c0 := cpuTime()
		a := NewAnalyzer(Params{SampleRateHz: rate, FrequencyHz: 433_920_000, PlannedDuration: planned})
		for left := size; left > 0; left -= len(chunk) {
			if _, err := a.Write(chunk[:min(left, len(chunk))]); err != nil {
				b.Fatal(err)
			}
		}
		if res := a.Finish(); len(res.Rows) != defaultRows {
			b.Fatalf("%d rows, want %d", len(res.Rows), defaultRows)
		}
		cpu += cpuTime() - c0
	}
	b.ReportMetric(cpu.Seconds()/float64(b.N)/(size/1e9), "cpu-s/GB")
}

// BenchmarkFinishDetectRender is the work between a capture's end and
// COMPLETE: Finish, Detect and RenderPNG of a 512-row spectrogram. It must
// stay well under 0.2 s.
func BenchmarkFinishDetectRender(b *testing.B) {
	p := Params{SampleRateHz: 2_000_000, FrequencyHz: 433_920_000, PlannedDuration: 8400 * time.Millisecond, Rows: 512}
	a := NewAnalyzer(p)
	data := noise(int(2 * p.SampleRateHz * 84 / 10))
	if _, err := a.Write(data); err != nil {
		b.Fatal(err)
	}
	if len(a.rows) < 500 {
		b.Fatalf("only %d rows", len(a.rows))
	}
	meta := Meta{TaskID: "BENCH_TASK", Start: time.Now(), FrequencyHz: p.FrequencyHz, SampleRateHz: p.SampleRateHz}
	var cpu, cpuFD time.Duration
	for b.Loop() {
		b.StopTimer()
		c := a.clone()
		b.StartTimer()
		c0 := cpuTime()
		res := c.Finish()
		d := Detect(res, 10, 500*time.Millisecond)
		c1 := cpuTime()
		if err := RenderPNG(io.Discard, res, d, meta); err != nil {
			b.Fatal(err)
		}
		cpu += cpuTime() - c0
		cpuFD += c1 - c0
	}
	b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64(cpuFD.Milliseconds())/float64(b.N), "finish+detect-cpu-ms/op")
}

// clone copies an unfinished Analyzer.
func (a *Analyzer) clone() *Analyzer {
	c := *a
	c.buf = append([]byte(nil), a.buf...)
	c.rows = make([]rowAcc, len(a.rows))
	for i, r := range a.rows {
		r.power = append([]float64(nil), r.power...)
		c.rows[i] = r
	}
	return &c
}
