package nodes

import (
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"rfhandoff/captureplan"
	"rfhandoff/internal/clocktest"
	"rfhandoff/internal/faultkit"
	"rfhandoff/internal/gittest"
	"rfhandoff/internal/publishtest"
	"rfhandoff/result"
)

// TestTxWatchThreeNodesScheduledNoOffer (PROTOCOL#several-nodes, #capture):
// three nodes capture one PPS-scheduled task with the simulator. rx-a arms
// in its window and starts on START_AT's edge; rx-b's host clock is 400 ms
// behind its PPS (HACKRF_SIM_PPS_OFFSET_NS), which its clock report has
// not caught up with (offset 0, root dispersion 450 ms): arming 0.1 s
// before START_AT by that clock is 0.3 s after the edge, and it starts on
// the next one;
// rx-c's firmware ignores -H (HACKRF_SIM_TRIGGER=ignore) and streams at
// once. Each publishes READY and COMPLETE saying so, and MAIN's tx watch
// refuses the offer naming rx-b's edge and rx-c's ignored trigger: no
// prompt, no record.
func TestTxWatchThreeNodesScheduledNoOffer(t *testing.T) {
	t.Parallel()
	// rx-a is the control: when even it did not arm in its window, this
	// machine was too loaded to hold a one-second window for the
	// simulator's start-up (capture/rehearse.go), and the run says nothing
	// of the refusals; it is tried again, as the capture tests do (and when
	// rx-b's start-up came early enough to arm before its edge).
	for attempt := 1; ; attempt++ {
		if scheduledNoOffer(t, attempt < 3) {
			return
		}
		t.Logf("attempt %d: rx-a did not arm in its window, or rx-b armed before the edge, on this loaded machine; again", attempt)
	}
}

// scheduledNoOffer runs the scenario once. With mayRetry it returns false,
// asserting nothing more, when rx-a did not start aligned on START_AT or
// rx-b did.
func scheduledNoOffer(t *testing.T, mayRetry bool) bool {
	nodes := []string{"rx-a", "rx-b", "rx-c"}
	// START_AT leaves time to set three nodes up on a loaded machine, then
	// the nodes' min_lead_s.
	start := time.Now().Add(45 * time.Second).Truncate(time.Second).UTC()
	const planned = 30
	task := captureplan.Task{DurationS: planned, StartAt: start, SyncMode: captureplan.SyncPPS}
	f := publishtest.New(t, publishtest.Options{RXNodes: strings.Join(nodes, ", "), NoApproval: true, Capture: task})
	// rx-b's chronyc stand-in, first on its PATH.
	clock := t.TempDir()
	clocktest.Write(t, clock, clocktest.Chrony{RootDelay: 2 * time.Millisecond, RootDispersion: 450 * time.Millisecond, Fixed: true})
	envs := [][]string{
		{"HACKRF_SIM_TRIGGER=pps"},
		{"HACKRF_SIM_TRIGGER=pps", "HACKRF_SIM_PPS_OFFSET_NS=-400000000", "PATH=" + clock + string(os.PathListSeparator) + os.Getenv("PATH")},
		{"HACKRF_SIM_TRIGGER=ignore"},
	}
	syncs := [][]string{
		{"[sync]", "min_lead_s = 5"},
		{"[sync]", "min_lead_s = 5", "pps_arm_margin_s = 0.1"},
		{"[sync]", "min_lead_s = 5"},
	}
	sc := startScenario(t, f, nodes, planned, func(i int) []string { return syncs[i] }, func(i int) []string { return envs[i] })
	stopWatch := func() string {
		sc.w.Signal(syscall.SIGINT)
		if code := sc.w.Wait(faultkit.Wait).ExitCode(); code != 0 {
			t.Fatalf("tx watch exited %d after SIGINT; stderr:\n%s", code, sc.w.Stderr)
		}
		return sc.w.TTY.String() + sc.w.Stdout.String() + sc.w.Stderr.String()
	}
	for i, c := range sc.caps {
		if code := c.Wait(3 * time.Minute).ExitCode(); code != 0 {
			t.Fatalf("rx capture on %s exited %d\nstdout:\n%s\nstderr:\n%s", nodes[i], code, c.Stdout, c.Stderr)
		}
	}
	// Each node's COMPLETE keeps its READY's verdict: rx-a aligned on the
	// edge, rx-b on the next one, rx-c's trigger ignored.
	next := start.Add(time.Second).Format(time.RFC3339)
	wants := []struct {
		trigger result.Trigger
		edge    string
		aligned bool
	}{{result.TriggerHonoured, start.Format(time.RFC3339), true}, {result.TriggerHonoured, next, false}, {result.TriggerIgnored, "", false}}
	var got []string
	for i, want := range wants {
		data := gittest.Git(t, f.Remote.R, f.Remote.Dir, "show", nodes[i]+":"+f.Policy.Repo.ResultDir+"/RX_RESULT.json")
		r, err := result.Decode([]byte(data), result.Options{Node: nodes[i], SyncMode: result.SyncPPS, StartAt: start})
		if err != nil {
			t.Fatalf("%s: %v\n%s", nodes[i], err, data)
		}
		a, edge := r.Alignment, ""
		if a != nil && a.EdgeAt != nil {
			edge = a.EdgeAt.UTC().Format(time.RFC3339)
		}
		ok := r.State == result.StateComplete && a != nil && a.Trigger == want.trigger && edge == want.edge && a.Aligned == want.aligned
		// rx-b arms 0.3 s after the edge by its rehearsed start-up; one
		// quicker than that under load armed before it: load, again.
		if (i == 0 && !ok || i == 1 && a != nil && a.Aligned) && mayRetry {
			stopWatch()
			return false
		}
		if !ok {
			got = append(got, fmt.Sprintf("%s: %s alignment %+v; want trigger %s, edge %q, aligned %v", nodes[i], r.State, a, want.trigger, want.edge, want.aligned))
		}
	}
	for _, g := range got {
		t.Error(g)
	}
	// tx watch has seen every READY by now; its refusal names each reason.
	says := []string{
		"no offer (one phrase needs every node READY)",
		"rx-b: READY ",
		"trigger-edge: edge " + next + ", not START_AT " + start.Format(time.RFC3339),
		"rx-c: READY ",
		"the board did not wait for the trigger (firmware that ignores -H)",
	}
	said := func() bool {
		out := sc.w.Stdout.String() + sc.w.Stderr.String()
		for _, s := range says {
			if !strings.Contains(out, s) {
				return false
			}
		}
		return true
	}
	for deadline := time.Now().Add(faultkit.Wait); !said() && time.Now().Before(deadline); {
		time.Sleep(200 * time.Millisecond)
	}
	out := stopWatch()
	for _, s := range says {
		if !strings.Contains(out, s) {
			t.Errorf("tx watch does not say %q", s)
		}
	}
	if strings.Contains(out, "Type exactly") || strings.Contains(out, "AUTHORIZED") {
		t.Errorf("tx watch offered or authorized:\n%s", out)
	}
	return true
}
