package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"rfhandoff/config"
	"rfhandoff/gitcli/gittest"
	"rfhandoff/prompt/prompttest"
	"rfhandoff/result"
)

// The first run as README "First run" and docs/OPERATIONS.md tell a new lab
// to do it, literally: the lab's repository on a bare remote, two clones,
// the shell lines the documents give, config.toml.example copied unchanged
// but for the keys README names to ~/.config/rfhandoff, outside the
// checkout, and every rfhandoff command run from inside the checkout with
// $RFHANDOFF_CONFIG naming it (once more with no policy file at all: the
// built-in defaults, which refuse the simulator at rx capture, PROTOCOL
// §15). When README or OPERATIONS changes a
// command, this suite changes with it. The tests with absolute paths in
// their policies hid that the example's repo.path = "." broke rx capture.

const firstRunID = "RF001A_OTA_CAPTURE_003"

// firstRunEdits are the keys README "First run" tells the operator to set
// in the copied example, set as the README's first run has them (a 120 s
// capture, the example's 10 s transmission); the rest of the file stays
// as shipped.
var firstRunEdits = map[string]string{
	"limits.planned_duration_s": "120",
	"tx.duration_s":             "10",
	// The first run is a rehearsal with rfhandoff's simulator: intended,
	// so said (PROTOCOL §15).
	"tools.allow_simulator": "true",
}

// pace is how fast the MAIN operator acts. A person reads the prompt
// before typing the phrase and starts tx execute a while after READY; a
// script does both at once. The waits are a person's time passing, not a
// wait for anything, and nothing asserts on elapsed time.
type pace struct {
	phrase  time.Duration // from the phrase prompt at tx watch to the phrase
	execute time.Duration // from READY at tx watch to starting tx execute
}

// personPace is issue 30's operator: the phrase after 10 s, tx execute
// 60 s after READY, with no path copied.
var personPace = pace{phrase: 10 * time.Second, execute: 60 * time.Second}

// examplePolicy returns config.toml.example with the keys in edits
// ("table.key") set to their values, failing when a key is not in the
// example: the suite must edit the lines an operator would.
func examplePolicy(t *testing.T, edits map[string]string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "config.toml.example"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	table, done := "", map[string]bool{}
	for i, l := range lines {
		if strings.HasPrefix(l, "[") {
			table = strings.Trim(l, "[]")
			continue
		}
		key, _, ok := strings.Cut(l, " = ")
		if !ok || strings.HasPrefix(l, "#") {
			continue
		}
		if v, ok := edits[table+"."+key]; ok {
			lines[i] = key + " = " + v
			done[table+"."+key] = true
		}
	}
	for k := range edits {
		if !done[k] {
			t.Fatalf("config.toml.example has no %s to set", k)
		}
	}
	return strings.Join(lines, "\n")
}

// operator is one machine's person: a checkout, a HOME with their git
// identity, and the environment every command of theirs runs in.
type operator struct {
	t   *testing.T
	dir string
	env []string
	// launch is the program and its first arguments that run rfhandoff
	// (wine and rfhandoff.exe); nil runs rfhandoffBin itself.
	launch []string
	// console makes each terminal session a Windows console under Wine:
	// a raw-mode pty (prompttest.Options.Raw) that takes stdout and
	// stderr too (Wine gives a program its console on the terminal only
	// when its standard handles are that terminal), wide enough that no
	// line wraps.
	console bool
	// shPrelude goes before every shell line (a git function running
	// git.exe under Wine).
	shPrelude string
}

// sh runs one line of the documents with /bin/sh in the checkout, as the
// operator types it, and returns its stdout.
func (o *operator) sh(line string) string {
	o.t.Helper()
	return shIn(o.t, o.dir, o.env, o.shPrelude+line)
}

// command is the program and argv that run rfhandoff with args.
func (o *operator) command(args []string) (string, []string) {
	if o.launch == nil {
		return rfhandoffBin(o.t), args
	}
	return o.launch[0], append(append([]string{}, o.launch[1:]...), args...)
}

func shIn(t *testing.T, dir string, env []string, line string) string {
	t.Helper()
	s := prompttest.StartDetached(t, "/bin/sh", []string{"-c", line}, prompttest.Options{Dir: dir, Env: env})
	if st := s.Wait(rxWait); st.ExitCode() != 0 {
		t.Fatalf("$ %s\nexit %d\nstdout:\n%s\nstderr:\n%s", line, st.ExitCode(), s.Stdout, s.Stderr)
	}
	return s.Stdout.String()
}

// run runs rfhandoff without a terminal (as cron or a script would).
func (o *operator) run(want int, args ...string) string {
	o.t.Helper()
	path, argv := o.command(args)
	s := prompttest.StartDetached(o.t, path, argv, prompttest.Options{Dir: o.dir, Env: o.env})
	if code := exitOf(o.t, s); code != want {
		o.t.Fatalf("rfhandoff %s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, want, s.Stdout, s.Stderr)
	}
	return s.Stdout.String()
}

// start starts rfhandoff; tty gives it a terminal of its own.
func (o *operator) start(tty bool, args ...string) *prompttest.Session {
	o.t.Helper()
	path, argv := o.command(args)
	opts := prompttest.Options{Dir: o.dir, Env: o.env, CaptureOutput: !o.console}
	if o.console {
		opts.Raw, opts.Cols = true, 1000
	}
	if tty {
		return prompttest.Start(o.t, path, argv, opts)
	}
	return prompttest.StartDetached(o.t, path, argv, opts)
}

func TestFirstRunAsDocumented(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the documents' shell lines need /bin/sh; the Windows run is scripts/test-windows.sh's")
	}
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh for the documents' shell lines")
	}
	t.Run("policy outside the checkout", func(t *testing.T) {
		t.Parallel()
		firstRun(t, examplePolicy(t, firstRunEdits), native, personPace)
	})
	t.Run("built-in defaults", func(t *testing.T) {
		t.Parallel()
		firstRun(t, "", native, pace{})
	})
}

var (
	reApproval = regexp.MustCompile(`approval: +the RX operator answers A(?:, then must type (.+) exactly| at the prompt)`)
	reGitLine  = regexp.MustCompile(`(?m)^  (git (?:add|commit|push) .*)$`)
	reRecord   = regexp.MustCompile(`AUTHORIZED: record (\S+)`)
	reNext     = regexp.MustCompile(`run next:\r?\n +(rfhandoff[^\r\n]*)`)
)

// platform is how a first run reaches rfhandoff and git on the two
// machines: natively, or the Windows binary and git.exe under Wine
// (wine_test.go).
type platform struct {
	launch    []string // see operator.launch
	console   bool     // see operator.console
	shPrelude string   // see operator.shPrelude
	// env adjusts the operators' environment (home is their HOME).
	env func(t *testing.T, home string, env []string) []string
	// url serves the bare repository bare (under srv) to the operators'
	// clones and returns its URL.
	url func(t *testing.T, srv, bare string, env []string) string
	// path is a path of this machine as the program prints it.
	path func(string) string
	// stopWatch stops a running tx watch as its operator does, returning
	// the exit code that stop must give.
	stopWatch func(*prompttest.Session) int
	// prompt is the phrase prompt as the terminal shows it.
	prompt string
}

// native runs the binary built for this machine and the system's git.
var native = platform{
	env:    func(_ *testing.T, _ string, env []string) []string { return env },
	url:    func(_ *testing.T, _, bare string, _ []string) string { return "file://" + bare },
	path:   func(p string) string { return p },
	prompt: "> ",
	stopWatch: func(s *prompttest.Session) int {
		s.Signal(syscall.SIGTERM)
		return 0
	},
}

// firstRun is one lab's first experiment. policy is the text of
// rfhandoff.toml in both checkouts, "" for none (the built-in defaults,
// whose 120 s capture the RX operator ends with Ctrl-C once TX is done);
// the MAIN operator acts at pc's pace.
func firstRun(t *testing.T, policy string, p platform, pc pace) {
	home := gittest.Home(t)
	hostEnv := gittest.Environ(home, config.EnvVar, "HACKRF_SIM")
	env := p.env(t, home, hostEnv)
	r := gittest.RunnerWithHome(t, home)
	// The lab's shared repository, on the task branch the example names.
	srv := t.TempDir()
	bare := filepath.Join(srv, "lab.git")
	gittest.Git(t, r, srv, "init", "--quiet", "--bare", bare)
	rem := &gittest.Remote{Dir: bare, URL: "file://" + bare, R: r}
	gittest.Seed(t, rem, "video-development", map[string]string{"README.md": "our lab\n"})
	url := p.url(t, srv, bare, hostEnv)

	top := t.TempDir()
	shIn(t, top, env, p.shPrelude+"git clone --quiet --branch video-development "+url+" main && git clone --quiet --branch video-development "+url+" rx")
	main := &operator{t: t, dir: filepath.Join(top, "main"), env: env, launch: p.launch, console: p.console, shPrelude: p.shPrelude}
	rx := &operator{t: t, dir: filepath.Join(top, "rx"), env: env, launch: p.launch, console: p.console, shPrelude: p.shPrelude}
	// OPERATIONS §1: ignore the state directory on the branches, create
	// the result branch once from the MAIN PC.
	main.sh("echo '/.local/' >> .gitignore && git add .gitignore && git commit -q -m 'ignore rfhandoff state' && git push -q origin HEAD:refs/heads/video-development")
	main.sh(`git push -q origin "$(git rev-parse HEAD)":refs/heads/rx-node`)
	// README: the policy outside the checkout, named by $RFHANDOFF_CONFIG
	// (one inside a git working tree is refused, PROTOCOL §11). Both
	// machines share this test's HOME: the same file serves both.
	if policy != "" {
		file := filepath.Join(home, ".config", "rfhandoff", config.DefaultFile)
		if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, []byte(policy), 0o600); err != nil {
			t.Fatal(err)
		}
		for _, o := range []*operator{main, rx} {
			o.env = append(o.env[:len(o.env):len(o.env)], config.EnvVar+"="+p.path(file))
		}
	}

	for _, o := range []*operator{main, rx} {
		out := o.run(0, "config", "check")
		for _, want := range []string{fmt.Sprintf("#   %-27s %s\n", "repo.path", p.path(o.dir)), fmt.Sprintf("#   %-27s %s\n", "capture.dir", p.path(filepath.Join(o.dir, ".local", "captures")))} {
			if !strings.Contains(out, want) {
				t.Errorf("config check in %s does not show %q:\n%s", o.dir, want, out)
			}
		}
	}

	// MAIN: write the task as README "Writing a task" does, then run the
	// three git lines it printed.
	if err := os.WriteFile(filepath.Join(main.dir, "plan.md"), []byte("Capture the 433.92 MHz burst the MAIN PC sends.\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out := main.run(0, "task", "new", firstRunID, "--title", "Common-clock OTA capture, 433.92 MHz",
		"--rf-rx", "--allow-push", "RX_RESULT_ONLY", "--body-file", "plan.md")
	m := reApproval.FindStringSubmatch(out)
	lines := reGitLine.FindAllStringSubmatch(out, -1)
	if m == nil || len(lines) != 3 {
		t.Fatalf("task new did not print the approval and three git lines:\n%s", out)
	}
	for _, l := range lines {
		main.sh(l[1])
	}

	// RX: pull, cron's check sees the task, the operator approves at a
	// terminal.
	rx.sh("git pull -q")
	if out := rx.run(10, "rx", "check"); !strings.Contains(out, firstRunID) {
		t.Fatalf("rx check does not name the task:\n%s", out)
	}
	ap := rx.start(true, "rx", "approve", firstRunID)
	ap.WaitForText(menu, rxWait)
	ap.Send("A")
	if m[1] != "" {
		ap.WaitForText("Type exactly: "+m[1], rxWait)
		ap.Send(m[1])
	}
	if code := exitOf(t, ap); code != 0 {
		t.Fatalf("rx approve: exit %d\n%s\n%s", code, ap.Stdout, ap.Stderr)
	}

	// MAIN watches before the capture starts; the RX side captures with
	// the simulator (first on PATH, as the example leaves [tools] empty).
	watch := main.start(true, "tx", "watch")
	capture := rx.start(false, "rx", "capture", firstRunID)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("rx capture:\nstdout:\n%s\nstderr:\n%s", capture.Stdout, capture.Stderr)
		}
	})
	if policy == "" {
		// The built-in defaults do not allow the simulator: the capture is
		// refused before READY, naming the key, and nothing is published.
		if st := capture.Wait(3 * time.Minute); st.ExitCode() != 1 {
			t.Fatalf("rx capture with the simulator and the defaults: exit %d, want 1\nstderr:\n%s", st.ExitCode(), capture.Stderr)
		}
		if !strings.Contains(capture.Stderr.String(), "allow_simulator") || !strings.Contains(capture.Stderr.String(), "simulator") {
			t.Errorf("the refusal does not name the simulator and [tools] allow_simulator:\n%s", capture.Stderr)
		}
		if states := resultStates(t, rem); len(states) != 0 {
			t.Errorf("result branch holds %v after a refused capture, want nothing", states)
		}
		if files, _ := filepath.Glob(filepath.Join(rx.dir, ".local", "captures", firstRunID, "*")); len(files) != 0 {
			t.Errorf("a refused capture left files: %v", files)
		}
		if want, code := p.stopWatch(watch), exitOf(t, watch); code != want {
			t.Fatalf("tx watch stopped: exit %d, want %d\n%s", code, want, watch.Stderr)
		}
		return
	}
	output(watch).WaitForText("READY result for task "+firstRunID+" awaiting authorization", rxWait)
	// A rehearsal: the offer says the receiver is the simulator.
	output(watch).WaitForText("simulated receiver: rfhandoff's HackRF simulator", rxWait)
	readyAt := time.Now()
	watch.WaitForText("Type exactly: AUTHORIZE RF TX", rxWait)
	watch.WaitForText(p.prompt, rxWait)
	time.Sleep(pc.phrase) // the operator reads the offer
	watch.Send("AUTHORIZE RF TX")
	output(watch).WaitFor(reRecord, rxWait)
	// tx watch says what to run next: README's line, no path to copy.
	next := output(watch).WaitFor(reNext, rxWait)[1]
	if want, code := p.stopWatch(watch), exitOf(t, watch); code != want {
		t.Fatalf("tx watch stopped: exit %d, want %d\n%s", code, want, watch.Stderr)
	}
	if next != "rfhandoff tx execute" {
		t.Errorf("tx watch tells the operator to run %q, README says rfhandoff tx execute", next)
	}
	time.Sleep(time.Until(readyAt.Add(pc.execute))) // the operator gets to it
	// README: rfhandoff tx execute
	exe := main.start(true, "tx", "execute")
	exe.WaitForText("Type exactly: AUTHORIZE RF TX", rxWait)
	exe.WaitForText(p.prompt, rxWait)
	exe.Send("AUTHORIZE RF TX")
	if code := exitOf(t, exe); code != 0 {
		t.Fatalf("tx execute: exit %d\n%s\n%s", code, exe.Stdout, exe.Stderr)
	}

	if st := capture.Wait(3 * time.Minute); st.ExitCode() != 0 {
		t.Fatalf("rx capture: exit %d, want 0\nstdout:\n%s\nstderr:\n%s", st.ExitCode(), capture.Stdout, capture.Stderr)
	}
	if !strings.Contains(capture.Stdout.String(), "SIMULATED: rfhandoff's HackRF simulator captured") {
		t.Errorf("rx capture's report does not say the capture was simulated:\n%s", capture.Stdout)
	}
	states := resultStates(t, rem)
	if len(states) != 2 || states[0] != result.StateReady || states[1] != result.StateComplete {
		t.Fatalf("result branch holds %v, want READY then COMPLETE", states)
	}
	if out := rx.run(0, "rx", "status"); !strings.Contains(out, firstRunID) || !strings.Contains(out, "simulated") {
		t.Errorf("rx status does not name the task and say it was simulated:\n%s", out)
	}
	if out := main.run(0, "tx", "status"); !strings.Contains(out, firstRunID) {
		t.Errorf("tx status does not name the task:\n%s", out)
	}
	for _, o := range []*operator{main, rx} {
		if out := o.run(0, "audit", "verify"); !strings.Contains(out, "intact") {
			t.Errorf("audit verify in %s: %s", o.dir, out)
		}
	}
	// Every decision on record, on both sides (PROTOCOL §9).
	for o, kinds := range map[*operator][]string{
		rx: {"task_shown task=" + firstRunID, "task_approved task=" + firstRunID,
			"capture_simulator task=" + firstRunID + " verdict=passed simulated=true"},
		main: {"offer task=" + firstRunID, "phrase_accepted task=" + firstRunID, "record_written task=" + firstRunID,
			"execute_check task=" + firstRunID, "action_started task=" + firstRunID, "action_outcome task=" + firstRunID},
	} {
		show := o.run(0, "audit", "show")
		for _, k := range kinds {
			if !strings.Contains(show, "DECISION "+k) {
				t.Errorf("audit show in %s lacks DECISION %s:\n%s", o.dir, k, show)
			}
		}
	}
	outcomeIsFake(t, main.dir)
}

// output is where s's stdout goes: its pipe, or the terminal.
func output(s *prompttest.Session) *prompttest.Stream {
	if s.Stdout != nil {
		return s.Stdout
	}
	return s.TTY
}

// resultStates reads the state of every RX_RESULT.json commit on the
// remote's result branch, oldest first.
func resultStates(t *testing.T, rem *gittest.Remote) []result.State {
	t.Helper()
	var states []result.State
	for _, c := range strings.Fields(gittest.Git(t, rem.R, rem.Dir, "log", "--reverse", "--format=%H", "rx-node", "--", "docs/handoff/results/RX_RESULT.json")) {
		data := gittest.Git(t, rem.R, rem.Dir, "show", c+":docs/handoff/results/RX_RESULT.json")
		r, err := result.Decode([]byte(data), result.Options{})
		if err != nil {
			t.Fatalf("commit %s: %v", c, err)
		}
		states = append(states, r.State)
	}
	return states
}

// outcomeIsFake checks that the one outcome tx execute wrote says the
// fake action ran and transmitted nothing.
func outcomeIsFake(t *testing.T, dir string) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, ".local", "tx_authorizations", "*.outcome.json"))
	if err != nil || len(files) != 1 {
		t.Fatalf("outcomes: %v %v, want one", files, err)
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	var o struct {
		RFTX   *int   `json:"rf_tx"`
		Action string `json:"action"`
	}
	if err := json.Unmarshal(data, &o); err != nil || o.RFTX == nil || *o.RFTX != 0 || o.Action != "fake" {
		t.Errorf("outcome %s: %s (%v), want the fake action with rf_tx 0", files[0], data, err)
	}
}
