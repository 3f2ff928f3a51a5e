//go:build unix

package rxside

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"rfhandoff/internal/gittest"
	"rfhandoff/internal/rxtest"
	"rfhandoff/internal/tasktest"
)

// BenchmarkIdlePoll measures what an idle poll (nothing changed on the
// task branch) costs: git subprocesses (audit start lines) and the CPU
// time of those children. Target: 1 subprocess per idle poll.
func BenchmarkIdlePoll(b *testing.B) {
	rx := rxtest.New(b, rxtest.Options{})
	rx.PushTask(tasktest.TaskSpec{ID: "BENCH_IDLE"})
	env, r, _ := testEnv(b, rx)
	p := &Poller{Git: testMirror(b, env), Policy: rx.Policy}
	ctx := context.Background()
	if _, err := p.Poll(ctx); err != nil {
		b.Fatal(err)
	}
	audit := r.AuditLog().Path()
	starts := rxtest.CountStarts(b, audit)
	children, self := rusage(b, syscall.RUSAGE_CHILDREN), rusage(b, syscall.RUSAGE_SELF)
	b.ResetTimer()
	for range b.N {
		got, err := p.Poll(ctx)
		if err != nil || got.Changed {
			b.Fatalf("idle poll: %+v, %v", got, err)
		}
	}
	b.StopTimer()
	n := float64(b.N)
	b.ReportMetric(float64(rxtest.CountStarts(b, audit)-starts)/n, "subprocs/poll")
	b.ReportMetric(float64(rusage(b, syscall.RUSAGE_CHILDREN)-children)/float64(time.Millisecond)/n, "cpu-ms/poll")
	b.ReportMetric(float64(rusage(b, syscall.RUSAGE_SELF)-self)/float64(time.Millisecond)/n, "self-cpu-ms/poll")
}

// BenchmarkDetect measures the time from a push of a new task (the push
// has returned) to the watcher reporting it, at a 1 s poll interval: the
// mean and the worst case. Target: the worst case within the interval plus
// one fetch (and the reads of the new task).
func BenchmarkDetect(b *testing.B) {
	rx := rxtest.New(b, rxtest.Options{})
	rx.Policy.Poll.RXInterval.Duration = time.Second
	rx.Policy.Poll.MaxBackoff.Duration = time.Second
	env, _, _ := testEnv(b, rx)
	seen := make(chan string, 16)
	env.Log = slog.New(&detectHandler{seen: seen})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s, err := Open(ctx, env, RoleWatcher)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	done := make(chan error, 1)
	go func() { done <- NewWatcher(s, nil).Run(ctx) }()

	var total, worst time.Duration
	b.ResetTimer()
	for i := range b.N {
		b.StopTimer()
		// Push at a random phase of the poll cycle, not right after the
		// previous detection (that would always land at the same phase).
		time.Sleep(time.Duration(rand.Int64N(int64(time.Second))))
		id := fmt.Sprintf("BENCH_DETECT_%d", i)
		rx.PushTask(tasktest.TaskSpec{ID: id})
		start := time.Now()
		b.StartTimer()
		wait := time.After(time.Minute)
	loop:
		for {
			select {
			case got := <-seen:
				if got == id {
					break loop
				}
			case <-wait:
				b.Fatalf("task %s not detected within a minute", id)
			}
		}
		d := time.Since(start)
		total, worst = total+d, max(worst, d)
	}
	b.StopTimer()
	b.ReportMetric(float64(total)/float64(time.Millisecond)/float64(b.N), "ms/detect")
	b.ReportMetric(float64(worst)/float64(time.Millisecond), "max-ms/detect")
	cancel()
	if err := <-done; err != nil {
		b.Fatal(err)
	}
}

// detectHandler passes on the task_id of every "awaits approval" record.
type detectHandler struct{ seen chan<- string }

func (h *detectHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h *detectHandler) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h *detectHandler) WithGroup(string) slog.Handler            { return h }
func (h *detectHandler) Handle(_ context.Context, r slog.Record) error {
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == "task_id" {
			select {
			case h.seen <- a.Value.String():
			default:
			}
			return false
		}
		return true
	})
	return nil
}

// rusage is the user+system CPU time of who.
func rusage(b *testing.B, who int) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(who, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkPollAfterLargePush measures the poll that sees a task pushed
// together with RFHANDOFF_BENCH_MEDIA_MB (default 300) of incompressible
// media, through the RX mirror: its time and the bytes it adds to the
// state directory. Beside it, the floor measured in the same run: a
// blobless fetch of the same branch into a fresh partial repository, then
// git show of the task file (which fetches that one blob).
func BenchmarkPollAfterLargePush(b *testing.B) {
	mb := int64(300)
	if v := os.Getenv("RFHANDOFF_BENCH_MEDIA_MB"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n <= 0 {
			b.Fatalf("RFHANDOFF_BENCH_MEDIA_MB=%q: want a positive number", v)
		}
		mb = n
	}
	rx := rxtest.New(b, rxtest.Options{})
	rx.PushTask(tasktest.TaskSpec{ID: "BENCH_BIG_BASE"})
	env, r, _ := testEnv(b, rx)
	p := &Poller{Git: testMirror(b, env), Policy: rx.Policy}
	ctx := context.Background()
	if _, err := p.Poll(ctx); err != nil {
		b.Fatal(err)
	}
	var poll, floor time.Duration
	var pollBytes, floorBytes int64
	branch := "refs/heads/" + tasktest.TaskBranch
	b.ResetTimer()
	for i := range b.N {
		b.StopTimer()
		commit := rx.PushTaskWithMedia(tasktest.TaskSpec{ID: fmt.Sprintf("BENCH_BIG_%d", i)}, mb<<20)
		before := gittest.TreeBytes(b, rx.StateDir())
		b.StartTimer()
		start := time.Now()
		got, err := p.Poll(ctx)
		poll += time.Since(start)
		b.StopTimer()
		if err != nil || got.Commit != commit || got.Task == nil {
			b.Fatalf("poll after the push: %+v, %v", got, err)
		}
		pollBytes += gittest.TreeBytes(b, rx.StateDir()) - before

		dir := filepath.Join(b.TempDir(), "floor.git")
		start = time.Now()
		gittest.Git(b, r, filepath.Dir(dir), "init", "--quiet", "--bare", dir)
		gittest.Git(b, r, dir, "config", "remote.origin.url", rx.Remote.URL)
		gittest.Git(b, r, dir, "config", "remote.origin.promisor", "true")
		gittest.Git(b, r, dir, "fetch", "--quiet", "--no-tags", "--filter=blob:none", "--end-of-options", "origin", branch+":refs/remotes/origin/"+tasktest.TaskBranch)
		gittest.Git(b, r, dir, "show", commit+":"+tasktest.TaskPath)
		floor += time.Since(start)
		floorBytes += gittest.TreeBytes(b, dir)
	}
	n := float64(b.N)
	b.ReportMetric(float64(poll.Milliseconds())/n, "poll-ms")
	b.ReportMetric(float64(pollBytes)/n/(1<<20), "poll-MiB")
	b.ReportMetric(float64(floor.Milliseconds())/n, "floor-ms")
	b.ReportMetric(float64(floorBytes)/n/(1<<20), "floor-MiB")
	b.ReportMetric(float64(mb), "pushed-MiB")
}
