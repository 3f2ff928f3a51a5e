package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"rfhandoff/config"
	"rfhandoff/exec"
	"rfhandoff/internal/faultkit"
	"rfhandoff/internal/gittest"
	"rfhandoff/state"
)

var reStartAt = regexp.MustCompile(`(?m)^START_AT = (\S+)\nSYNC_MODE = PPS$`)

// TestTaskStartAtRefused (PROTOCOL#task-file, issue 34): task new writes
// START_AT and SYNC_MODE from --start-in and --sync and refuses bad or
// past values, every reason at once; rx check shows the start. A task
// approved in time whose START_AT comes closer than sync.min_lead_s is
// refused by rx capture, an [A] typed after that moment by rx approve
// (judged again at the answer), and a task whose START_AT is past by rx check,
// rx approve (no prompt), rx watch and rx capture, each saying when it was judged
// and that a missed START_AT needs a new TASK_ID: the RX state, the result
// branch and capture.dir stay as they were, and no HackRF tool starts.
func TestTaskStartAtRefused(t *testing.T) {
	t.Parallel()
	const lead = 15 // sync.min_lead_s
	top, env, r, bare := twoClones(t)

	policies := t.TempDir()
	rxPolicy := fmt.Sprintf("[sync]\nmin_lead_s = %d\n\n[tools]\nallow_simulator = true\n", lead)
	for _, name := range simulatorNames {
		rxPolicy += fmt.Sprintf("%s = %q\n", name, faultkit.SimulatorPath(t, name))
	}
	op := func(name, policy string) *operator {
		file := filepath.Join(policies, name+".toml")
		if err := os.WriteFile(file, []byte(policy), 0o600); err != nil {
			t.Fatal(err)
		}
		return &operator{t: t, dir: filepath.Join(top, name), env: append(env[:len(env):len(env)], config.EnvVar+"="+file)}
	}
	main, rx := op("main", "[tools]\nallow_simulator = true\n"), op("rx", rxPolicy)
	taskFile := filepath.Join(main.dir, "docs", "handoff", "NEXT_RX_TASK.md")

	// Bad values: every reason at once, by the header's rules, nothing written.
	out := main.runErr(1, "task", "new", "START_BAD_0001", "--title", "bad", "--rf-rx", "--duration-s", "30",
		"--start-at", "2030-01-01T00:00:00.5Z", "--sync", "pps")
	for _, want := range []string{`--start-at: START_AT: invalid value "2030-01-01T00:00:00.5Z": must be a whole UTC second`,
		`--sync: SYNC_MODE: invalid value "pps": must be HOST_CLOCK or PPS`} {
		if !strings.Contains(out, want) {
			t.Errorf("task new with bad values does not say %q:\n%s", want, out)
		}
	}
	out = main.runErr(1, "task", "new", "START_BAD_0002", "--title", "bad", "--rf-rx", "--start-at", "2020-01-01T00:00:00Z", "--sync", "PPS")
	for _, want := range []string{"--start-at 2020-01-01T00:00:00Z is not after now", "every receiver would refuse it",
		`START_AT: "2020-01-01T00:00:00Z" needs CAPTURE_DURATION_S`} {
		if !strings.Contains(out, want) {
			t.Errorf("task new with a past START_AT and no duration does not say %q:\n%s", want, out)
		}
	}
	if _, err := os.Stat(taskFile); !os.IsNotExist(err) {
		t.Fatalf("a refused task new wrote the task file: %v", err)
	}
	push := func(out string) {
		t.Helper()
		lines := reGitLine.FindAllStringSubmatch(out, -1)
		if len(lines) != 3 {
			t.Fatalf("no three git lines:\n%s", out)
		}
		for _, l := range lines {
			main.sh(l[1])
		}
	}

	// In time: written with --start-in, approved, then closer than the lead.
	written := time.Now()
	push(main.run(0, "task", "new", "START_SOON_0001", "--title", "Scheduled capture", "--rf-rx", "--allow-push", "RX_RESULT_ONLY",
		"--duration-s", "30", "--start-in", fmt.Sprintf("%ds", 2*lead), "--sync", "PPS"))
	data, err := os.ReadFile(taskFile)
	if err != nil {
		t.Fatal(err)
	}
	m := reStartAt.FindStringSubmatch(string(data))
	if m == nil {
		t.Fatalf("the task file lacks START_AT and SYNC_MODE:\n%s", data)
	}
	start, err := time.Parse(time.RFC3339, m[1])
	if err != nil || start.Before(written.Add(2*lead*time.Second).Truncate(time.Second)) || start.After(time.Now().Add(2*lead*time.Second+time.Second)) {
		t.Fatalf("START_AT %s (%v): want --start-in %ds from %s, rounded up", m[1], err, 2*lead, written.UTC())
	}
	if out := rx.run(10, "rx", "check"); !strings.Contains(out, "start:    "+m[1]+" (local ") || !strings.Contains(out, "SYNC_MODE PPS") {
		t.Errorf("rx check does not show the start:\n%s", out)
	}
	ap := rx.start(true, "rx", "approve")
	ap.WaitForText(menu, rxWait)
	for _, want := range []string{"Starts at:     " + m[1], "Sync mode:     PPS: arms hackrf_transfer -H 0.5 s before that 1PPS edge",
		fmt.Sprintf("from this prompt; approve, and start rx capture, at least sync.min_lead_s (%d s) before it", lead)} {
		if !strings.Contains(ap.TTY.String(), want) {
			t.Errorf("the approval prompt lacks %q:\n%s", want, ap.TTY.String())
		}
	}
	ap.Send("A")
	if code := exitOf(t, ap); code != 0 {
		t.Fatalf("rx approve: exit %d (a loaded machine taking over %d s to approve?)\n%s\n%s", code, lead, ap.Stdout, ap.Stderr)
	}

	rxAudit := filepath.Join(rx.dir, ".local", "audit.jsonl")
	stateFile := filepath.Join(rx.dir, ".local", "rx_agent_state.json")
	unchanged := func(what string, run func() string, wants ...string) {
		t.Helper()
		starts := len(faultkit.AuditEntries(t, rxAudit))
		before, err := os.ReadFile(stateFile)
		if err != nil {
			t.Fatal(err)
		}
		tip := gittest.Git(t, r, bare, "rev-parse", "rx-node")
		out := run()
		for _, want := range append(wants, "a missed START_AT is never run", "a new TASK_ID", "--sync PPS") {
			if !strings.Contains(out, want) {
				t.Errorf("%s does not say %q:\n%s", what, want, out)
			}
		}
		if after, _ := os.ReadFile(stateFile); string(after) != string(before) {
			t.Errorf("%s changed the RX state:\n%s\n->\n%s", what, before, after)
		}
		if now := gittest.Git(t, r, bare, "rev-parse", "rx-node"); now != tip {
			t.Errorf("%s moved the result branch", what)
		}
		if entries, _ := os.ReadDir(filepath.Join(rx.dir, ".local", "captures")); len(entries) > 0 {
			t.Errorf("%s wrote into capture.dir: %v", what, entries)
		}
		for _, e := range faultkit.AuditEntries(t, rxAudit)[starts:] {
			if e.Tool == exec.HackRFTransfer || e.Tool == exec.HackRFInfo || e.Tool == exec.HackRFClock {
				t.Errorf("%s started a HackRF tool: %+v", what, e)
			}
		}
	}
	time.Sleep(time.Until(start.Add(-lead*time.Second + 500*time.Millisecond)))
	unchanged("rx capture closer than the lead", func() string { return rx.runErr(1, "rx", "capture") },
		"capture refused for task START_SOON_0001", "START_AT = "+m[1]+" is only", fmt.Sprintf("under this node's sync.min_lead_s (%d s)", lead))

	// The prompt stood open until the START_AT came closer than the lead:
	// refused at the answer, nothing approved.
	push(main.run(0, "task", "new", "START_LATE_0002", "--title", "Scheduled capture", "--rf-rx", "--allow-push", "RX_RESULT_ONLY", "--force",
		"--duration-s", "30", "--start-in", fmt.Sprintf("%ds", 2*lead), "--sync", "PPS"))
	data, err = os.ReadFile(taskFile)
	if err != nil {
		t.Fatal(err)
	}
	late, err := time.Parse(time.RFC3339, reStartAt.FindStringSubmatch(string(data))[1])
	if err != nil {
		t.Fatal(err)
	}
	ap = rx.start(true, "rx", "approve")
	ap.WaitForText(menu, rxWait)
	time.Sleep(time.Until(late.Add(-lead*time.Second + 500*time.Millisecond)))
	ap.Send("A")
	if code := exitOf(t, ap); code != 1 {
		t.Errorf("rx approve answered after the lead: exit %d, want 1", code)
	}
	if out := ap.Stdout.String() + ap.Stderr.String(); !strings.Contains(out, "at the answer: task START_LATE_0002 refused: task field START_AT") ||
		!strings.Contains(out, "is only") || !strings.Contains(out, "nothing approved") {
		t.Errorf("rx approve answered after the lead does not say so:\n%s", out)
	}
	if st := loadState(t, stateFile); st.LastApprovedTaskID != "START_SOON_0001" || st.Approval == nil || st.Approval.TaskID != "START_SOON_0001" {
		t.Errorf("an answer after the lead was recorded: %+v", st)
	}

	// Past: a task whose START_AT went by before it reached this node.
	past := strings.Replace(strings.Replace(string(data), "START_LATE_0002", "START_PAST_0003", -1), late.Format(time.RFC3339), "2020-01-01T00:00:00Z", 1)
	if err := os.WriteFile(taskFile, []byte(past), 0o644); err != nil {
		t.Fatal(err)
	}
	main.sh("git commit --quiet -am 'A task whose START_AT is past' && git push --quiet origin video-development")
	pastWants := []string{"task START_PAST_0003 refused", "START_AT = 2020-01-01T00:00:00Z is past", "by this node's clock"}
	rx.runErr(1, "rx", "check") // records it as seen
	unchanged("rx check of a past START_AT", func() string { return rx.runErr(1, "rx", "check") }, pastWants...)
	unchanged("rx approve of a past START_AT", func() string {
		s := rx.start(true, "rx", "approve")
		if code := exitOf(t, s); code != 1 {
			t.Errorf("rx approve: exit %d, want 1", code)
		}
		if strings.Contains(s.TTY.String(), "[A] Approve") {
			t.Errorf("rx approve prompted for a past START_AT:\n%s", s.TTY.String())
		}
		return s.TTY.String() + s.Stdout.String() + s.Stderr.String()
	}, pastWants...)
	starts := len(faultkit.AuditEntries(t, rxAudit))
	watch := rx.start(true, "rx", "watch")
	watch.Stderr.WaitForText("START_AT = 2020-01-01T00:00:00Z is past", rxWait)
	watch.Signal(syscall.SIGTERM)
	if code := exitOf(t, watch); code != 0 {
		t.Errorf("rx watch stopped: exit %d\n%s", code, watch.Stderr)
	}
	if tty := watch.TTY.String() + watch.Stderr.String(); !strings.Contains(tty, "task refused") || !strings.Contains(tty, "task START_PAST_0003 refused") || strings.Contains(tty, "[A] Approve") {
		t.Errorf("rx watch did not refuse the past START_AT without a prompt:\n%s", tty)
	}
	for _, e := range faultkit.AuditEntries(t, rxAudit)[starts:] {
		if e.Tool == exec.HackRFTransfer || e.Tool == exec.HackRFInfo || e.Tool == exec.HackRFClock {
			t.Errorf("rx watch started a HackRF tool: %+v", e)
		}
	}
	unchanged("rx capture of a past START_AT", func() string { return rx.runErr(1, "rx", "capture") },
		"capture refused for task START_PAST_0003", "START_AT = 2020-01-01T00:00:00Z is past", "is not approved")
}

func loadState(t *testing.T, file string) state.RX {
	t.Helper()
	st, err := state.LoadRX(filepath.Dir(file))
	if err != nil {
		t.Fatal(err)
	}
	return st
}
