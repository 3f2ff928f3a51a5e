package fault

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"rfhandoff/config"
	"rfhandoff/exec"
	"rfhandoff/internal/faultkit"
	"rfhandoff/internal/tasktest"
)

// startCounter counts the start lines appended to an audit log, reading
// only what was added since the last call.
type startCounter struct {
	path string
	off  int64
	n    int
	rest []byte
}

func (c *startCounter) count() (int, error) {
	f, err := os.Open(c.path)
	if os.IsNotExist(err) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	defer f.Close()
	if _, err := f.Seek(c.off, io.SeekStart); err != nil {
		return 0, err
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return 0, err
	}
	c.off += int64(len(data))
	data = append(c.rest, data...)
	i := bytes.LastIndexByte(data, '\n')
	if i < 0 {
		c.rest = data
		return c.n, nil
	}
	c.n += bytes.Count(data[:i+1], []byte(`"event":"start"`))
	c.rest = append([]byte(nil), data[i+1:]...)
	return c.n, nil
}

// BenchmarkWatcherRSS runs `rx watch` with a 1 ms poll interval against an
// idle remote and samples the watcher's resident set (VmRSS) at its 10th
// its 500th and its 1,000th poll: a leak per poll would show as growth
// that keeps its pace from the second half to the first. Each idle
// poll is one git fetch (one start line in the audit log).
func BenchmarkWatcherRSS(b *testing.B) {
	polls := 1000
	if v := os.Getenv("RFHANDOFF_BENCH_POLLS"); v != "" {
		var err error
		if polls, err = strconv.Atoi(v); err != nil || polls < 20 {
			b.Fatalf("RFHANDOFF_BENCH_POLLS=%q: want an integer of at least 20", v)
		}
	}
	var first, mid, last, took float64
	for b.Loop() {
		b.StopTimer()
		lab := faultkit.NewLab(b)
		lab.PushTask(tasktest.Capture("BENCH_RSS_0001"))
		lab.RX.Policy.Poll.RXInterval = config.Duration{Duration: time.Millisecond}
		lab.RX.Policy.Poll.MaxBackoff = config.Duration{Duration: time.Second}
		lab.RX.WritePolicy()
		b.StartTimer()
		w := lab.RX.Start("rx", "watch")
		c := &startCounter{path: lab.RX.AuditPath()}
		sample := func(at int) (float64, time.Time) {
			deadline := time.Now().Add(10 * time.Minute)
			for {
				n, err := c.count()
				if err != nil {
					b.Fatal(err)
				}
				if n >= at {
					rss, err := faultkit.RSSKiB(w.Pid())
					if err != nil {
						b.Fatalf("sampling VmRSS at poll %d: %v", at, err)
					}
					return float64(rss), time.Now()
				}
				if w.Exited() || time.Now().After(deadline) {
					b.Fatalf("rx watch stopped polling at %d of %d polls\nstderr:\n%s", n, at, w.Stderr.String())
				}
				time.Sleep(2 * time.Millisecond)
			}
		}
		// A few start lines precede the polls (remote get-url, check-ignore,
		// the first task read): count polls from the 10th start on.
		r10, t10 := sample(10)
		rmid, _ := sample(polls / 2)
		r1000, t1000 := sample(polls)
		w.Signal(syscall.SIGTERM)
		w.Wait(time.Minute)
		first, mid, last, took = r10, rmid, r1000, t1000.Sub(t10).Seconds()
	}
	b.ReportMetric(first, "rss@10-KiB")
	b.ReportMetric(mid, fmt.Sprintf("rss@%d-KiB", polls/2))
	b.ReportMetric(last, fmt.Sprintf("rss@%d-KiB", polls))
	b.ReportMetric(last-first, "growth-KiB")
	b.ReportMetric(last-mid, "growth-2nd-half-KiB")
	b.ReportMetric(took*1000/float64(polls-10), "ms/poll")
}

// BenchmarkAuditAppendLong is exec's BenchmarkAuditAppend (0 and 100,000
// lines) at a long log: RFHANDOFF_BENCH_AUDIT_LINES existing lines
// (default 1,000,000, about 400 MB), built with the log's own line format
// and a valid chain. Appending reads only the last line, so its cost must
// not depend on the length.
func BenchmarkAuditAppendLong(b *testing.B) {
	lines := 1_000_000
	if v := os.Getenv("RFHANDOFF_BENCH_AUDIT_LINES"); v != "" {
		var err error
		if lines, err = strconv.Atoi(v); err != nil || lines < 0 {
			b.Fatalf("RFHANDOFF_BENCH_AUDIT_LINES=%q: want a non-negative integer", v)
		}
	}
	for _, existing := range []int{0, lines} {
		b.Run(fmt.Sprintf("lines=%d", existing), func(b *testing.B) {
			path := filepath.Join(b.TempDir(), "audit.jsonl")
			writeChain(b, path, existing)
			log, err := exec.OpenAuditLog(path)
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if _, err := log.Append(exec.Entry{Event: exec.EventStart, Tool: exec.Git, Argv: []string{"git", "fetch", "origin"}}); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			if existing > 0 && existing <= 200_000 {
				if _, err := exec.VerifyAuditLog(path); err != nil {
					b.Fatalf("the generated chain does not verify: %v", err)
				}
			}
		})
	}
}

// writeChain writes n audit lines the way exec.AuditLog does: each line is
// {"hash":"<sha256 of the rest>",<rest>, the rest naming the previous hash.
func writeChain(b *testing.B, path string, n int) {
	b.Helper()
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	prev := ""
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range n {
		code, ms, out := 0, int64(7), int64(120)
		e := exec.Entry{Prev: prev, Seq: int64(i + 1), Time: t0.Add(time.Duration(i) * time.Second), Event: exec.EventEnd,
			ID: strconv.Itoa(i), Rfhandoff: 4242, Role: string(exec.RoleCapture), Tool: exec.Git, Pid: 4343,
			ExitCode: &code, DurationMS: &ms, OutBytes: &out}
		body, err := json.Marshal(e)
		if err != nil {
			b.Fatal(err)
		}
		rest, ok := bytes.CutPrefix(body, []byte(`{"hash":"",`))
		if !ok {
			b.Fatalf("unexpected entry encoding %s", body)
		}
		sum := sha256.Sum256(rest)
		prev = hex.EncodeToString(sum[:])
		fmt.Fprintf(w, `{"hash":"%s",%s`+"\n", prev, rest)
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
}
