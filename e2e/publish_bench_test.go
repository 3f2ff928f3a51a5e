package e2e

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/cli/safeexec"

	"rfhandoff/internal/faultkit"
	"rfhandoff/internal/gittest"
	"rfhandoff/internal/publishtest"
)

// proc runs one program as a process, as a shell would: nil stdin, its
// output into a scratch file read back only when it fails. The same for
// rfhandoff and for plain git, so that neither side pays for more
// plumbing than the other.
type proc struct {
	env []string
	out *os.File
	cpu time.Duration // user and system time of what ran, children included
}

func newProc(b *testing.B, env []string) *proc {
	b.Helper()
	out, err := os.CreateTemp(b.TempDir(), "out-")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { out.Close() })
	return &proc{env: env, out: out}
}

func (p *proc) run(b *testing.B, dir, bin string, args ...string) {
	b.Helper()
	if err := p.out.Truncate(0); err != nil {
		b.Fatal(err)
	}
	if _, err := p.out.Seek(0, 0); err != nil {
		b.Fatal(err)
	}
	pr, err := os.StartProcess(bin, append([]string{bin}, args...), &os.ProcAttr{
		Dir: dir, Env: p.env, Files: []*os.File{nil, p.out, p.out},
	})
	if err != nil {
		b.Fatal(err)
	}
	st, err := pr.Wait()
	if err != nil {
		b.Fatal(err)
	}
	// A process's rusage includes the children it waited for: rfhandoff's
	// git calls, git's own helpers (upload-pack, index-pack, ...).
	p.cpu += st.UserTime() + st.SystemTime()
	if !st.Success() {
		msg, _ := os.ReadFile(p.out.Name())
		b.Fatalf("%s %q: %v\n%s", filepath.Base(bin), args, st, msg)
	}
}

// BenchmarkPublishCommandVsFloor measures `rfhandoff rx publish-result`
// as a whole command (a process: policy, runner, audit log, the seven
// checks of PROTOCOL#publishing through the RX mirror, the commit and its push)
// against the plain git floor run as processes with no rfhandoff around
// them: `git clone --depth 1 --single-branch --branch rx-node --no-tags`,
// two files written, `git add`, `git commit`, `git push`. Same remote,
// same machine, alternated pair by pair (which goes first alternates too).
// Goal: ratio ≤ 1.5. Reported: the medians of each side, the median of
// the per-pair ratios of wall time and of CPU time (user and system, every
// child included: steadier than wall time on a shared machine), and the git subprocesses of one publish (start
// lines in its audit log) against the floor's 4.
func BenchmarkPublishCommandVsFloor(b *testing.B) {
	home := gittest.Home(b)
	f := publishtest.New(b, publishtest.Options{})
	dir := b.TempDir()
	cfg := filepath.Join(dir, "rfhandoff.toml")
	if err := os.WriteFile(cfg, fmt.Appendf(nil, "[repo]\npath = %q\n", f.Checkout), 0o600); err != nil {
		b.Fatal(err)
	}
	gitBin, err := safeexec.LookPath("git")
	if err != nil {
		b.Fatal(err)
	}
	bin := faultkit.Bin(b)
	p := newProc(b, gittest.Environ(home, "RFHANDOFF_CONFIG", "GIT_DIR", "GIT_WORK_TREE"))
	branch := f.Policy.Repo.ResultBranch
	auditPath := filepath.Join(f.Checkout, ".local", "audit.jsonl")
	base := f.Ready()

	publishOnce := func(n int) int {
		r := *base
		r.PublishedAt = base.PublishedAt.Add(time.Duration(n+1) * time.Millisecond)
		r.CapturePID = base.CapturePID + int64(n)
		file := filepath.Join(dir, "result.json")
		if err := os.WriteFile(file, publishtest.Encode(b, &r), 0o600); err != nil {
			b.Fatal(err)
		}
		before := startLines(b, auditPath)
		p.run(b, dir, bin, "--config", cfg, "rx", "publish-result", file)
		return startLines(b, auditPath) - before
	}
	floorOnce := func(n int) {
		tmp, err := os.MkdirTemp("", "floor-")
		if err != nil {
			b.Fatal(err)
		}
		defer os.RemoveAll(tmp)
		p.run(b, tmp, gitBin, "clone", "--quiet", "--depth", "1", "--single-branch", "--branch", branch, "--no-tags", f.Remote.URL, "repo")
		repo := filepath.Join(tmp, "repo")
		res := filepath.Join(repo, "docs", "handoff", "results")
		if err := os.MkdirAll(res, 0o755); err != nil {
			b.Fatal(err)
		}
		for name, body := range map[string]string{"RX_RESULT.json": "{\"floor\": %d}\n", "RX_RESULT.md": "# floor %d\n"} {
			if err := os.WriteFile(filepath.Join(res, name), fmt.Appendf(nil, body, n), 0o644); err != nil {
				b.Fatal(err)
			}
		}
		p.run(b, repo, gitBin, "add", "docs/handoff/results/RX_RESULT.json", "docs/handoff/results/RX_RESULT.md")
		p.run(b, repo, gitBin, "commit", "--quiet", "-m", fmt.Sprintf("floor %d", n))
		p.run(b, repo, gitBin, "push", "--quiet", "origin", "HEAD:refs/heads/"+branch)
	}
	timed := func(fn func()) time.Duration {
		t0 := time.Now()
		fn()
		return time.Since(t0)
	}

	// The RX mirror exists on a node that watched and approved: the first
	// publish builds it here, unmeasured.
	publishOnce(-1)
	var pub, floor []time.Duration
	var ratios, cpuRatios []float64
	calls := 0
	pubSide := func(n int) (time.Duration, time.Duration) {
		c0 := p.cpu
		d := timed(func() { calls = publishOnce(n) })
		return d, p.cpu - c0
	}
	floorSide := func(n int) (time.Duration, time.Duration) {
		c0 := p.cpu
		d := timed(func() { floorOnce(n) })
		return d, p.cpu - c0
	}
	b.ResetTimer()
	for b.Loop() {
		n := len(pub)
		var tp, tf, cp, cf time.Duration
		if n%2 == 0 {
			tf, cf = floorSide(n)
			tp, cp = pubSide(n)
		} else {
			tp, cp = pubSide(n)
			tf, cf = floorSide(n)
		}
		pub, floor = append(pub, tp), append(floor, tf)
		ratios = append(ratios, float64(tp)/float64(tf))
		cpuRatios = append(cpuRatios, float64(cp)/float64(cf))
	}
	b.ReportMetric(ms(medianOf(pub)), "publish-ms")
	b.ReportMetric(ms(medianOf(floor)), "floor-ms")
	b.ReportMetric(medianRatio(ratios), "ratio")
	// CPU is steadier than wall time on a shared machine.
	b.ReportMetric(medianRatio(cpuRatios), "cpu-ratio")
	b.ReportMetric(float64(calls), "git-calls/publish")
	b.ReportMetric(4, "git-calls/floor")
}

// startLines counts the subprocess start lines of an audit log.
func startLines(tb testing.TB, path string) int {
	tb.Helper()
	data, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		tb.Fatal(err)
	}
	return bytes.Count(data, []byte(`"event":"start"`))
}

func medianOf(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

func medianRatio(r []float64) float64 {
	s := slices.Clone(r)
	slices.Sort(s)
	return s[len(s)/2]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
