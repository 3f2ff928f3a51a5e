//go:build unix

package demo

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/cli/safeexec"

	"rfhandoff/config"
	"rfhandoff/exec"
	"rfhandoff/hostclock"
)

// TestSandboxSync: a scheduled sandbox gives each node its clock offset
// and distance, writes the nodes' small min_lead_s into their policies
// (the arming margin stays the default, the middle of the second), and puts a chronyc stand-in first on each
// node's PATH that reports exactly that node's offset through the
// audited runner, as rx capture asks it.
func TestSandboxSync(t *testing.T) {
	if _, err := safeexec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	t.Setenv("TMPDIR", t.TempDir())
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	sb, err := NewSandbox(ctx, Options{Exe: exe, Timing: autoTiming, Environ: os.Environ(), RXNodes: 3, Sync: "PPS"}, "", "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sb.remove() })
	wantOffsets := []time.Duration{0, 120 * time.Millisecond, -250 * time.Millisecond}
	wantDelays := []int64{0, 137, 512}
	for i, n := range sb.nodes {
		if n.PPSOffset != wantOffsets[i] || n.DelayNS != wantDelays[i] || n.DelayMS != 0 {
			t.Errorf("%s: offset %s, delay %d ns, %d ms; want %s, %d ns, 0 ms", n.Side, n.PPSOffset, n.DelayNS, n.DelayMS, wantOffsets[i], wantDelays[i])
		}
		pol, err := sb.loadConfined(n.Policy)
		if err != nil {
			t.Fatal(err)
		}
		if pol.Sync.MinLeadS != syncMinLeadS || pol.Sync.PPSArmMarginS != config.Default().Sync.PPSArmMarginS || pol.Sync.MaxHostClockBoundS != syncMaxHostClockBoundS {
			t.Errorf("%s: [sync] %+v, want min_lead_s %d, pps_arm_margin_s %g, max_host_clock_bound_s %g", n.Side, pol.Sync, syncMinLeadS, config.Default().Sync.PPSArmMarginS, syncMaxHostClockBoundS)
		}
		env := sb.syncEnv(sb.childEnv(os.Environ()), n)
		for _, kv := range []string{"HACKRF_SIM_TRIGGER=pps", "HACKRF_SIM_DELAY_NS=" + []string{"0", "137", "512"}[i]} {
			if !slices.Contains(env, kv) {
				t.Errorf("%s: environment lacks %s", n.Side, kv)
			}
		}
		log, err := exec.OpenAuditLog(filepath.Join(t.TempDir(), "audit.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		r, err := exec.New(exec.Options{Role: exec.RoleCapture, Audit: log, Environ: env, Tools: map[exec.Tool]string{exec.Git: sb.GitPath}})
		if err != nil {
			t.Fatal(err)
		}
		if got, want := r.Paths()[exec.Chronyc], filepath.Join(sb.Clock, "chronyc"); got != want {
			t.Errorf("%s: chronyc resolves to %q, want the stand-in %s", n.Side, got, want)
		}
		b, err := hostclock.Bound(ctx, r)
		if err != nil {
			t.Fatalf("%s: %v", n.Side, err)
		}
		if b.Offset != wantOffsets[i] || b.RootDelay != chronyDelay || b.RootDispersion != chronyDispersion {
			t.Errorf("%s: chrony says offset %s, delay %s, dispersion %s; want %s, %s, %s", n.Side, b.Offset, b.RootDelay, b.RootDispersion, wantOffsets[i], chronyDelay, chronyDispersion)
		}
	}
}
