package capture

import (
	"os"
	"strconv"
	"testing"
	"time"

	"rfhandoff/config"
	"rfhandoff/publish/publishtest"
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
// quick-look analyzer having consumed the last byte; drain-s, to every
// consumer (the SHA-512 too) being done; publish-s, the rest (the second
// hackrf_clock -i, the seven checks, clone, commit, push). Hashing is no
// second pass: one reader follows the file while it is written.
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
			var total, drain, sha, analysis time.Duration
			var bytes int64
			for b.Loop() {
				b.StopTimer()
				w := newWorld(b, mode.sim, publishtest.Options{}, func(p *config.Policy) {
					p.Capture.SampleRateHz = 20_000_000
					p.Limits.PlannedDurationS = planned
				})
				b.StartTimer()
				rep, err := w.run(b, b.Context(), opts())
				b.StopTimer()
				if err != nil {
					b.Fatalf("Run: %v", err)
				}
				end := rep.ProcessEnded
				total += rep.CompletePublished.Sub(end)
				drain += rep.Drained.Sub(end)
				sha += rep.SHA256Done.Sub(end)
				analysis += rep.AnalysisDone.Sub(end)
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
			b.ReportMetric(float64(bytes)/1e9, "GB")
		})
	}
}
