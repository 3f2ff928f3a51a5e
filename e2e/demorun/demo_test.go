package demorun

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/cli/safeexec"

	"rfhandoff/internal/faultkit"
	"rfhandoff/internal/prompttest"
)

// demoEnv is the environment of a demo run: this process's, with TMPDIR a
// directory of the test's (to see what the demo leaves behind) and nothing
// of the operator's that could steer it.
func demoEnv(tmp string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "TMPDIR", "RFHANDOFF_CONFIG", "HACKRF_SIM":
			continue
		}
		env = append(env, kv)
	}
	return append(env, "TMPDIR="+tmp)
}

// demoSandboxes lists the demo sandboxes in tmp.
func demoSandboxes(t *testing.T, tmp string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(tmp, "rfhandoff-demo-*"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestDemoAuto runs the real `rfhandoff demo --auto` end to end, started
// without a terminal (it makes its own pseudo-terminals for the prompts):
// the real commands as children, the simulator, a real-time 60 s capture.
// It must exit 0, narrate every step, show the real prompts with the
// answers it typed, end with RF TX = 0, have the single node hear the
// sandbox's fake transmission (on-air file, detector, annotation), and
// remove its sandbox.
func TestDemoAuto(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs a real-time 60 s capture")
	}
	skipDemoAuto(t)
	bin := faultkit.Bin(t)
	if _, err := safeexec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	tmp := t.TempDir()
	s := prompttest.StartDetached(t, bin, []string{"demo", "--auto"}, prompttest.Options{Dir: tmp, Env: demoEnv(tmp)})
	state := s.Wait(5 * time.Minute)
	out, errOut := s.Stdout.String(), s.Stderr.String()
	if state.ExitCode() != 0 {
		t.Fatalf("demo --auto exited %d\nstderr:\n%s\nstdout:\n%s", state.ExitCode(), errOut, out)
	}
	want := []string{
		"── Step 1: MAIN writes a task (task new)",
		"NEXT_RX_TASK.md: task DEMO_RX_CAPTURE_001",
		"MAIN |   risk level:    YELLOW",
		"MAIN pushed the task to video-development at commit",
		"signed with MAIN's SSH key",
		"── Step 2: RX checks the task branch (rx check",
		"rx check exited 10: task DEMO_RX_CAPTURE_001 awaits approval.",
		"── Step 3: RX operator approves the task at the real prompt (rx approve)",
		"RX   | Signed:  main@demo SHA256:",
		"RX   | Writes:        ",
		"RX   | [A] Approve  [D] Defer  [S] Stop (nothing approved)",
		"RX   | > A      <- typed by demo --auto",
		"── Step 4: RX starts the capture (rx capture) and publishes READY",
		"READY is on rx-node at commit",
		"── Step 5: MAIN watches the result branch (tx watch) and authorizes",
		"signed by rx@demo SHA256:",
		"MAIN | Type exactly: AUTHORIZE RF TX",
		"MAIN | > AUTHORIZE RF TX      <- typed by demo --auto",
		"The authorization record exists:",
		"── Step 6: MAIN runs the TX executor (tx execute) with the fake action",
		"The fake TX action ran: action fake, rf_tx_started false, RF TX = 0.",
		"The sandbox puts the stand-in transmission on the air",
		"RX's simulator hears it +0 ms later at +0 dB (HACKRF_SIM_ONAIR).",
		"── Step 7: RX capture ends and COMPLETE is published",
		"COMPLETE is on rx-node at commit",
		"rf_tx_observed EXPECTED_EXTERNAL_TX",
		"── Step 8: Summary",
		"RX heard the burst: samples ",
		"recorded RF TX = 0: nothing was transmitted.",
		"Sandbox removed:",
	}
	pos := 0
	for _, w := range want {
		i := strings.Index(out[pos:], w)
		if i < 0 {
			t.Fatalf("narration lacks %q (in order)\nstdout:\n%s", w, out)
		}
		pos += i + len(w)
	}
	// The notifications (PROTOCOL#notifications) reached the demo's own webhook,
	// signed, each with the event's one-line message, after its step.
	for _, w := range []string{
		"HOOK | approval_needed (rx): rfhandoff approval_needed: rx on ",
		"HOOK | capture_started (rx): ",
		"HOOK | authorization_needed (main): ",
		"HOOK | watcher_stopped (main): ",
		"HOOK | tx_executed (main): ",
		"HOOK | capture_complete (rx): ",
	} {
		if !strings.Contains(out, w) {
			t.Errorf("the transcript lacks the delivery %q\nstdout:\n%s", w, out)
		}
	}
	for _, w := range []string{
		`authorization_needed \(main\): rfhandoff authorization_needed: main on \S+, task DEMO_RX_CAPTURE_001 "[^"]+" \(YELLOW\) at \S+: .*, \d+ s left`,
		`tx_executed \(main\): .*task DEMO_RX_CAPTURE_001 "[^"]+" \(YELLOW\).*: tx execute ran the fake action: rf_tx 0, exit code 0`,
		`capture_complete \(rx\): .*task DEMO_RX_CAPTURE_001 .*capture complete: exit code 0, \d+ bytes, overruns`,
	} {
		if !regexp.MustCompile(regexp.QuoteMeta("HOOK | ") + w).MatchString(out) {
			t.Errorf("the transcript lacks a delivery matching %q", w)
		}
	}
	if strings.Contains(out, "deliveries refused") {
		t.Errorf("the demo's webhook refused a delivery\nstdout:\n%s", out)
	}
	if !regexp.MustCompile(`Notifications the demo's webhook received \(none approves anything\): approval_needed 1, authorization_needed 1, capture_complete 1, capture_started 1, tx_executed 1, watcher_stopped 1\.`).MatchString(out) {
		t.Errorf("the summary does not count the notifications\nstdout:\n%s", out)
	}
	// Both TX prompts were answered by the demo: tx watch's and tx execute's.
	if n := strings.Count(out, "MAIN | > AUTHORIZE RF TX      <- typed by demo --auto"); n != 2 {
		t.Errorf("the TX phrase was typed %d times, want 2 (tx watch, tx execute)\nstdout:\n%s", n, out)
	}
	// The countdown's cursor control never reaches the narration.
	if strings.Contains(out, "\x1b") {
		t.Errorf("stdout holds terminal escape sequences")
	}
	// Both audit logs verified: audit verify's own line from each side.
	for _, side := range []string{"RX  ", "MAIN"} {
		re := regexp.MustCompile(`(?m)^` + side + ` \| \S+/audit\.jsonl: intact, [1-9][0-9]* lines, head [0-9a-f]+$`)
		if !re.MatchString(out) {
			t.Errorf("no audit verify line from %s\nstdout:\n%s", side, out)
		}
	}
	m := regexp.MustCompile(`Sandbox removed: (\S+)`).FindStringSubmatch(out)
	if m == nil || !strings.HasPrefix(m[1], tmp) {
		t.Fatalf("sandbox path not reported inside TMPDIR %s", tmp)
	}
	if _, err := os.Stat(m[1]); !os.IsNotExist(err) {
		t.Errorf("sandbox %s still exists (stat: %v)", m[1], err)
	}
	if left := demoSandboxes(t, tmp); len(left) > 0 {
		t.Errorf("sandboxes left behind: %v", left)
	}
}

// TestDemoInteractiveNeedsTerminal: without --auto the demo needs a person
// at a terminal. Started with none (as cron or an agent would), and with
// answers waiting on stdin, it refuses at once, says how to run it, and
// creates nothing.
func TestDemoInteractiveNeedsTerminal(t *testing.T) {
	t.Parallel()
	bin := faultkit.Bin(t)
	tmp := t.TempDir()
	s := prompttest.StartDetached(t, bin, []string{"demo"}, prompttest.Options{
		Dir: tmp, Env: demoEnv(tmp), Stdin: "A\nAUTHORIZE RF TX\nAUTHORIZE RF TX\n",
	})
	state := s.Wait(faultkit.Wait)
	errOut := s.Stderr.String()
	if state.ExitCode() != 1 {
		t.Fatalf("demo without a terminal exited %d, want 1\nstdout:\n%s\nstderr:\n%s", state.ExitCode(), s.Stdout.String(), errOut)
	}
	for _, w := range []string{"needs you at a terminal", "no controlling terminal", "rfhandoff demo --auto"} {
		if !strings.Contains(errOut, w) {
			t.Errorf("stderr lacks %q:\n%s", w, errOut)
		}
	}
	if s.Stdout.String() != "" {
		t.Errorf("stdout not empty: %q", s.Stdout.String())
	}
	if left := s.StdinLeft(); left != "A\nAUTHORIZE RF TX\nAUTHORIZE RF TX\n" {
		t.Errorf("the demo read its stdin (left %q): answers must never come from there", left)
	}
	if made := demoSandboxes(t, tmp); len(made) > 0 {
		t.Errorf("a sandbox was created: %v", made)
	}
}
