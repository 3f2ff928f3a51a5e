package publish_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"rfhandoff/internal/gittest"
	"rfhandoff/internal/publishtest"
	"rfhandoff/publish"
	"rfhandoff/result"
)

// mustPublish publishes r and fails unless a new commit landed.
func mustPublish(tb testing.TB, f *publishtest.Fixture, r *result.Result) publish.Outcome {
	tb.Helper()
	out, err := publish.Publish(tb.Context(), f.Deps(), publishtest.Encode(tb, r))
	if err != nil {
		tb.Fatal(err)
	}
	if out.NoOp {
		tb.Fatal("publish was a no-op")
	}
	return out
}

// nth is the fixture's READY result, made distinct for iteration n.
func nth(f *publishtest.Fixture, base *result.Result, n int) *result.Result {
	r := *base
	r.PublishedAt = base.PublishedAt.Add(time.Duration(n+1) * time.Millisecond)
	r.CapturePID = base.CapturePID + int64(n)
	return &r
}

// floorPublish is the plain git floor of a publish, through the same
// audited runner: a depth-1 single-branch clone, two files written, add,
// commit, push. No checks, no verification.
func floorPublish(tb testing.TB, f *publishtest.Fixture, n int) {
	tb.Helper()
	tmp, err := os.MkdirTemp("", "floor-")
	if err != nil {
		tb.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	dir := filepath.Join(tmp, "repo")
	branch := f.Policy.Repo.ResultBranch
	gittest.Git(tb, f.Runner, tmp, "clone", "--quiet", "--depth", "1", "--single-branch", "--no-tags",
		"--branch", branch, "--end-of-options", f.Remote.URL, dir)
	res := filepath.Join(dir, "docs", "handoff", "results")
	if err := os.MkdirAll(res, 0o755); err != nil {
		tb.Fatal(err)
	}
	for name, body := range map[string]string{"RX_RESULT.json": "{\"floor\": %d}\n", "RX_RESULT.md": "# floor %d\n"} {
		if err := os.WriteFile(filepath.Join(res, name), fmt.Appendf(nil, body, n), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	gittest.Git(tb, f.Runner, dir, "add", "--", "docs/handoff/results/RX_RESULT.json", "docs/handoff/results/RX_RESULT.md")
	gittest.Git(tb, f.Runner, dir, "commit", "--quiet", "-m", fmt.Sprintf("floor %d", n))
	gittest.Git(tb, f.Runner, dir, "push", "--quiet", "origin", "HEAD:refs/heads/"+branch)
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// BenchmarkPublishVsFloor measures a whole publish (the seven checks with
// their fetch and check 6's clone, the ls-tree of the result
// directory's levels, the object write, commit-tree, the diff-tree
// read-back and the push) against the plain git
// floor, alternating the two in one run on the same remote and runner.
// Goal: ratio ≤ 1.5. Medians are reported; ns/op covers both.
func BenchmarkPublishVsFloor(b *testing.B) {
	f := publishtest.New(b, publishtest.Options{})
	base := f.Ready()
	var pub, floor []time.Duration
	calls, floorCalls := 0, 0
	for b.Loop() {
		n := len(pub)
		before := auditLines(b, f)
		t0 := time.Now()
		floorPublish(b, f, n)
		floor = append(floor, time.Since(t0))
		floorCalls = (auditLines(b, f) - before) / 2

		r := nth(f, base, n)
		before = auditLines(b, f)
		t0 = time.Now()
		mustPublish(b, f, r)
		pub = append(pub, time.Since(t0))
		// The audit log has a start and an end line per git subprocess.
		calls = (auditLines(b, f) - before) / 2
	}
	b.ReportMetric(ms(median(pub)), "publish-ms")
	b.ReportMetric(ms(median(floor)), "floor-ms")
	b.ReportMetric(float64(median(pub))/float64(median(floor)), "ratio")
	b.ReportMetric(float64(calls), "git-calls/publish")
	b.ReportMetric(float64(floorCalls), "git-calls/floor")
}

// BenchmarkPublishHistory measures publish onto a result branch with
// 5,000 commits of history against one with a single commit, alternating.
// Goal: ratio ≤ 1.1 (the depth-1 clone makes history irrelevant).
func BenchmarkPublishHistory(b *testing.B) {
	small := publishtest.New(b, publishtest.Options{})
	big := publishtest.New(b, publishtest.Options{})
	addHistory(b, big, big.Policy.Repo.ResultBranch, 5000)
	sb, bb := small.Ready(), big.Ready()
	var ts, tb []time.Duration
	for b.Loop() {
		n := len(ts)
		t0 := time.Now()
		mustPublish(b, small, nth(small, sb, n))
		ts = append(ts, time.Since(t0))
		t0 = time.Now()
		mustPublish(b, big, nth(big, bb, n))
		tb = append(tb, time.Since(t0))
	}
	b.ReportMetric(ms(median(ts)), "1commit-ms")
	b.ReportMetric(ms(median(tb)), "5000commits-ms")
	b.ReportMetric(float64(median(tb))/float64(median(ts)), "ratio")
}

// auditLines counts the lines of the fixture's audit log.
func auditLines(tb testing.TB, f *publishtest.Fixture) int {
	tb.Helper()
	data, err := os.ReadFile(f.Runner.AuditLog().Path())
	if err != nil {
		tb.Fatal(err)
	}
	n := 0
	for _, c := range data {
		if c == '\n' {
			n++
		}
	}
	return n
}
