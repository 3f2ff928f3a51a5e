package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"rfhandoff/config"
	"rfhandoff/exec"
	"rfhandoff/internal/faultkit"
	"rfhandoff/internal/gittest"
	"rfhandoff/result"
)

var (
	reLeft           = regexp.MustCompile(`\((\d+)s left\); (\d+) Hz at (\d+) samples/s`)
	reOfferOrRefusal = regexp.MustCompile(`READY result for task \S+ awaiting authorization|refused, not offered for authorization:\r?\n.*`)
)

// TestTaskCarriesTheCapture (PROTOCOL#task-file, issue 34 and issue 31's
// last gap): a task written with --frequency-hz, --sample-rate-hz and
// --duration-s is shown at rx approve with those values marked as the
// task's, captured by the simulator with them (hackrf_transfer's argv in
// the RX audit log), and READY carries the task's duration, which MAIN's
// tx watch checks instead of its own planned_duration_s (120 s here, 15 s
// on the RX side): it offers, with the remaining time of the task's 30 s.
// A later task asking more than the RX policy allows is refused by rx
// check and rx capture naming the key and its range, and no HackRF tool
// starts.
func TestTaskCarriesTheCapture(t *testing.T) {
	t.Parallel()
	const id, freq, rate, dur = "CARRY_CAPTURE_0001", "915000000", "2000000", "30"
	top, env, r, bare := twoClones(t)

	policies := t.TempDir()
	rxPolicy := "[limits]\nplanned_duration_s = 15\n\n[capture]\nsample_rate_hz = 4000000\nmax_duration_s = 60\n\n[tools]\nallow_simulator = true\n"
	for _, name := range simulatorNames {
		rxPolicy += fmt.Sprintf("%s = %q\n", name, faultkit.SimulatorPath(t, name))
	}
	mainPolicy := "[limits]\nplanned_duration_s = 120\n\n[tx]\nfrequency_hz = " + freq + "\nsample_rate_hz = " + rate + "\n\n[tools]\nallow_simulator = true\n"
	op := func(name, policy string) *operator {
		file := filepath.Join(policies, name+".toml")
		if err := os.WriteFile(file, []byte(policy), 0o600); err != nil {
			t.Fatal(err)
		}
		return &operator{t: t, dir: filepath.Join(top, name), env: append(env[:len(env):len(env)], config.EnvVar+"="+file)}
	}
	main, rx := op("main", mainPolicy), op("rx", rxPolicy)

	// Bad flag values: every reason at once, by the header's rules.
	out := main.runErr(1, "task", "new", "BAD_FLAGS_0001", "--title", "bad", "--rf-rx", "--frequency-hz", "915e6", "--duration-s", "4000")
	for _, want := range []string{"--frequency-hz", `CAPTURE_FREQUENCY_HZ: invalid value "915e6"`, "--duration-s", "from 15 to 3600"} {
		if !strings.Contains(out, want) {
			t.Errorf("task new with bad flags does not say %q:\n%s", want, out)
		}
	}
	newTask := func(id, dur string) {
		t.Helper()
		out := main.run(0, "task", "new", id, "--title", "Capture where MAIN sends", "--rf-rx", "--allow-push", "RX_RESULT_ONLY",
			"--frequency-hz", freq, "--sample-rate-hz", rate, "--duration-s", dur)
		lines := reGitLine.FindAllStringSubmatch(out, -1)
		if len(lines) != 3 {
			t.Fatalf("task new did not print three git lines:\n%s", out)
		}
		for _, l := range lines {
			main.sh(l[1])
		}
	}
	newTask(id, dur)

	rx.run(10, "rx", "check")
	ap := rx.start(true, "rx", "approve")
	ap.WaitForText(menu, rxWait)
	tty := ap.TTY.String()
	for _, want := range []string{"Frequency:     915 MHz (task CAPTURE_FREQUENCY_HZ = 915000000)",
		"Sample rate:   2 MHz (task CAPTURE_SAMPLE_RATE_HZ = 2000000)", "Duration:      30 s planned (task CAPTURE_DURATION_S)",
		"Writes:        120 MB (120000000 bytes, ci8)"} {
		if !strings.Contains(tty, want) {
			t.Errorf("the approval prompt lacks %q:\n%s", want, tty)
		}
	}
	ap.Send("A")
	if code := exitOf(t, ap); code != 0 {
		t.Fatalf("rx approve: exit %d\n%s\n%s", code, ap.Stdout, ap.Stderr)
	}

	capture := rx.start(false, "rx", "capture")
	watch := main.start(true, "tx", "watch")
	// The offer, or (a MAIN side reading its own planned_duration_s) the refusal.
	if got := output(watch).WaitFor(reOfferOrRefusal, 2*rxWait)[0]; !strings.Contains(got, "READY result for task "+id+" awaiting authorization") {
		t.Fatalf("tx watch did not offer the READY: %s", got)
	}
	m := output(watch).WaitFor(reLeft, rxWait)
	watch.WaitForText("Type exactly: AUTHORIZE RF TX", rxWait)
	watch.Signal(syscall.SIGTERM)
	if code := exitOf(t, watch); code != 0 {
		t.Fatalf("tx watch stopped: exit %d\n%s", code, watch.Stderr)
	}
	var left int
	fmt.Sscan(m[1], &left)
	if left > 30 || left < 10 || m[2] != freq || m[3] != rate {
		t.Errorf("tx watch offered %q: want at most the task's 30 s left, %s Hz at %s samples/s", m[0], freq, rate)
	}

	if st := capture.Wait(3 * time.Minute); st.ExitCode() != 0 {
		t.Fatalf("rx capture: exit %d\nstdout:\n%s\nstderr:\n%s", st.ExitCode(), capture.Stdout, capture.Stderr)
	}
	rxAudit := filepath.Join(rx.dir, ".local", "audit.jsonl")
	var argv []string
	for _, e := range faultkit.AuditEntries(t, rxAudit) {
		if e.Tool == exec.HackRFTransfer && len(e.Argv) > 0 {
			argv = e.Argv
		}
	}
	for _, pair := range [][]string{{"-f", freq}, {"-s", rate}, {"-n", "60000000"}} {
		if i := slices.Index(argv, pair[0]); i < 0 || i+1 >= len(argv) || argv[i+1] != pair[1] {
			t.Errorf("hackrf_transfer ran with %q: want %s %s", argv, pair[0], pair[1])
		}
	}
	for _, c := range strings.Fields(gittest.Git(t, r, bare, "log", "--format=%H", "rx-node", "--", "docs/handoff/results/RX_RESULT.json")) {
		res, err := result.Decode([]byte(gittest.Git(t, r, bare, "show", c+":docs/handoff/results/RX_RESULT.json")), result.Options{})
		if err != nil || res.PlannedDurationS != 30 || res.FrequencyHz != 915000000 || res.SampleRateHz != 2000000 {
			t.Errorf("result %s: %+v, %v: want the task's duration, frequency and rate", c, res, err)
		}
	}

	// More than this node allows: refused at rx check and rx capture,
	// naming field, value, key and range; no HackRF tool starts.
	starts := len(faultkit.AuditEntries(t, rxAudit))
	newTask("CARRY_CAPTURE_0002", "120")
	for _, args := range [][]string{{"rx", "check"}, {"rx", "capture"}} {
		s := rx.finished(1, args...)
		out := s.Stdout.String() + s.Stderr.String()
		for _, want := range []string{"CAPTURE_DURATION_S = 120", "capture.max_duration_s (15 to 60)"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s of a task over the range does not say %q:\n%s", strings.Join(args, " "), want, out)
			}
		}
	}
	for _, e := range faultkit.AuditEntries(t, rxAudit)[starts:] {
		if e.Tool == exec.HackRFTransfer || e.Tool == exec.HackRFInfo || e.Tool == exec.HackRFClock {
			t.Errorf("a HackRF tool started for a refused task: %+v", e)
		}
	}
}

// twoClones makes a lab as README "First run" does: a bare remote with
// the task branch (ignoring .local/) and the rx-node result branch, and
// its clones main and rx in top. env is the operators' (their own HOME),
// r runs git with it, and bare is the remote's directory. The tests that
// use it run task new's printed git lines through /bin/sh as a person
// would, so they skip where there is none (Windows, where
// TestFirstRunUnderWine runs those lines).
func twoClones(t *testing.T) (top string, env []string, r exec.Runner, bare string) {
	if _, err := os.Stat("/bin/sh"); runtime.GOOS == "windows" || err != nil {
		t.Skip("task new's printed git lines run through /bin/sh; on Windows TestFirstRunUnderWine runs them")
	}
	home := gittest.Home(t)
	env = gittest.Environ(home, config.EnvVar, "HACKRF_SIM")
	r = gittest.RunnerWithHome(t, home)
	srv := t.TempDir()
	bare = filepath.Join(srv, "lab.git")
	gittest.Git(t, r, srv, "init", "--quiet", "--bare", bare)
	rem := &gittest.Remote{Dir: bare, URL: "file://" + bare, R: r}
	seed := gittest.Seed(t, rem, "video-development", map[string]string{".gitignore": "/.local/\n"})
	gittest.Git(t, r, bare, "update-ref", "refs/heads/rx-node", seed)
	top = t.TempDir()
	for _, name := range []string{"main", "rx"} {
		gittest.Git(t, r, top, "clone", "--quiet", "--branch", "video-development", rem.URL, name)
	}
	return top, env, r, bare
}
