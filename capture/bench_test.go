package capture

import (
	"crypto/sha256"
	"crypto/sha512"
	"io"
	"os"
	"strconv"
	"testing"
	"time"

	"rfhandoff/config"
	"rfhandoff/internal/publishtest"
	"rfhandoff/quicklook"
	"rfhandoff/result"
)

// BenchmarkCompleteAfterEnd measures a 1 GB capture (5e8 ci8 samples: 25 s
// at 20 Msps) from the tool's exit to COMPLETE on the remote, on a
// temporary bare remote with the simulator:
//
//   - realtime: the simulator writes at 20 Msps, as a HackRF would;
//   - fast: HACKRF_SIM=fast, as fast as the disk takes it, 20–25 times real
//     time, so the streaming consumers fall behind the writer.
//
// Metrics, per capture: end-to-COMPLETE-s, from the tool's exit being
// collected to the COMPLETE push having returned (the remote has it);
// sha256-s and analysis-s, from the exit to the streaming SHA-256 and the
// quick-look analyzer having consumed the last byte; drain-s, to their
// reader having stopped; publish-s, the rest (the second hackrf_clock -i,
// the seven checks, clone, commit, push); sha512-s, from the exit to the
// background SHA-512 (the SigMF metadata's, before COMPLETE) being done; cpu-s, the CPU this process used for the whole capture (every
// consumer, the publishes; not the simulator or git); write-s and ready-s,
// from the tool's start to its exit and to the READY push having returned;
// ready-after-data-s, from the first sample (when the tool started writing,
// as the file's growth dates it) to that push having returned (with fast, the simulator can be done before READY is pushed, and the
// rest of that push then falls into end-to-COMPLETE-s). Hashing is no
// second pass: the readers follow the file while it is written.
// CAPTURE_BENCH_SECONDS changes the planned duration (40 MB a second).
func BenchmarkCompleteAfterEnd(b *testing.B) {
	planned := 25
	if v := os.Getenv("CAPTURE_BENCH_SECONDS"); v != "" {
		var err error
		if planned, err = strconv.Atoi(v); err != nil || planned <= 0 {
			b.Fatalf("CAPTURE_BENCH_SECONDS=%q: want a positive integer", v)
		}
	}
	for _, mode := range []struct{ name, sim string }{{"realtime", ""}, {"fast", "fast"}} {
		b.Run(mode.name, func(b *testing.B) {
			var total, drain, sha, analysis, sha512, cpu, write, ready, readyData time.Duration
			var bytes int64
			for b.Loop() {
				b.StopTimer()
				w := newWorld(b, mode.sim, publishtest.Options{}, func(p *config.Policy) {
					p.Capture.SampleRateHz = 20_000_000
					p.Limits.PlannedDurationS = planned
				})
				b.StartTimer()
				c0 := cpuTime()
				rep, err := w.run(b, b.Context(), opts())
				cpu += cpuTime() - c0
				b.StopTimer()
				if err != nil {
					b.Fatalf("Run: %v", err)
				}
				// The simulator's plain noise, with rows thinned to
				// quicklook.MaxFramesPerRow frames: no false alarm.
				if obs := *rep.Complete.RFTXObserved; obs != result.RFTXUnknown {
					b.Fatalf("rf_tx_observed = %s on noise (%+v)", obs, rep.Detection)
				}
				end := rep.ProcessEnded
				total += rep.CompletePublished.Sub(end)
				drain += rep.Drained.Sub(end)
				sha += rep.SHA256Done.Sub(end)
				analysis += rep.AnalysisDone.Sub(end)
				sha512 += rep.SHA512Done.Sub(end)
				write += end.Sub(rep.ProcessStarted)
				ready += rep.ReadyPublished.Sub(rep.ProcessStarted)
				readyData += rep.ReadyPublished.Sub(rep.FirstSample)
				bytes = *rep.Complete.CaptureSizeBytes
				if end.Before(rep.ReadyPublished) {
					b.Logf("the capture ended before READY was pushed (%s): its tail includes the rest of that push", rep.ReadyPublished.Sub(end))
				}
				os.Remove(rep.DataPath) // a gigabyte per capture
				b.StartTimer()
			}
			n := float64(b.N)
			b.ReportMetric(total.Seconds()/n, "end-to-COMPLETE-s")
			b.ReportMetric(max(0, sha.Seconds()/n), "sha256-s")
			b.ReportMetric(max(0, analysis.Seconds()/n), "analysis-s")
			b.ReportMetric(max(0, drain.Seconds()/n), "drain-s")
			b.ReportMetric((total-drain).Seconds()/n, "publish-s")
			b.ReportMetric(max(0, sha512.Seconds()/n), "sha512-s")
			b.ReportMetric(cpu.Seconds()/n, "cpu-s")
			b.ReportMetric(write.Seconds()/n, "write-s")
			b.ReportMetric(ready.Seconds()/n, "ready-s")
			b.ReportMetric(readyData.Seconds()/n, "ready-after-data-s")
			b.ReportMetric(float64(bytes)/1e9, "GB")
		})
	}
}

// BenchmarkConsumers is the CPU each consumer of the capture costs per GB,
// from rusage (stable on a loaded machine, unlike wall time): 1 GB of
// ci8 in 1 MiB writes into the SHA-256, the SHA-512 and the quick-look
// analyzer (25 s planned at 20 Msps, as BenchmarkCompleteAfterEnd), one
// at a time.
func BenchmarkConsumers(b *testing.B) {
	const size = 1_000_000_000
	chunk := make([]byte, chunkSize)
	for i := range chunk {
		chunk[i] = byte(int8(uint64(i)*2654435761>>24) / 4)
	}
	for _, c := range []struct {
		name string
		new  func() io.Writer
	}{
		{"sha256", func() io.Writer { return sha256.New() }},
		{"sha512", func() io.Writer { return sha512.New() }},
		{"analyzer", func() io.Writer {
			return quicklook.NewAnalyzer(quicklook.Params{SampleRateHz: 20_000_000, PlannedDuration: 25 * time.Second})
		}},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(size)
			var cpu time.Duration
			for b.Loop() {
				c0 := cpuTime()
				w := c.new()
				for left := size; left > 0; left -= len(chunk) {
					if _, err := w.Write(chunk[:min(left, len(chunk))]); err != nil {
						b.Fatal(err)
					}
				}
				if a, ok := w.(*quicklook.Analyzer); ok {
					a.Finish()
				}
				cpu += cpuTime() - c0
			}
			b.ReportMetric(cpu.Seconds()/float64(b.N)/(size/1e9), "cpu-s/GB")
		})
	}
}
