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
	"rfhandoff/internal/gittest"
	"rfhandoff/internal/prompttest"
	"rfhandoff/result"
)

// The first run as README "First run" and docs/OPERATIONS.md tell a new lab
// to do it, literally: the lab's repository on a bare remote, two clones,
// the shell lines the documents give, config.toml.example copied unchanged
// but for the keys README names to ~/.config/rfhandoff, outside the
// checkout, and every rfhandoff command run from inside the checkout with
// $RFHANDOFF_CONFIG naming it (once more with no policy file at all: the
// built-in defaults). When README or OPERATIONS changes a
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
	// Not a README line: this lab's HackRF is the simulator (README
	// "Rehearse with the simulator" says to set it).
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

// run runs rfhandoff without a terminal (as cron or a script would) and
// returns its stdout.
func (o *operator) run(want int, args ...string) string {
	o.t.Helper()
	return o.finished(want, args...).Stdout.String()
}

// runErr is run for a command that must fail: it returns stdout and
// stderr together.
func (o *operator) runErr(want int, args ...string) string {
	o.t.Helper()
	s := o.finished(want, args...)
	return s.Stdout.String() + s.Stderr.String()
}

// finished runs rfhandoff without a terminal to its end, which must be
// exit status want.
func (o *operator) finished(want int, args ...string) *prompttest.Session {
	o.t.Helper()
	path, argv := o.command(args)
	s := prompttest.StartDetached(o.t, path, argv, prompttest.Options{Dir: o.dir, Env: o.env})
	if code := exitOf(o.t, s); code != want {
		o.t.Fatalf("rfhandoff %s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, want, s.Stdout, s.Stderr)
	}
	return s
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
	// Parallel at the top too: its person-paced run waits two minutes
	// of real time, and a serial test holds back every parallel one.
	t.Parallel()
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

// firstRun is one lab's first experiment: README "First run" line by
// line (readmeFirstRun), each typed on its machine. policy is the text of
// rfhandoff.toml as the operator leaves it after copying the example and
// setting the keys README names, "" for none: then the two policy lines
// are left out, and the built-in defaults, which never let the simulator
// stand in for a HackRF, must refuse the capture before READY (doctor rx
// saying so first) and the run ends there. The MAIN operator acts at
// pc's pace.
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
	ops := map[string]*operator{
		"main": {t: t, dir: filepath.Join(top, "main"), env: env, launch: p.launch, console: p.console, shPrelude: p.shPrelude},
		"rx":   {t: t, dir: filepath.Join(top, "rx"), env: env, launch: p.launch, console: p.console, shPrelude: p.shPrelude},
	}
	main, rx := ops["main"], ops["rx"]
	repoRoot, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	policyFile := filepath.Join(home, ".config", "rfhandoff", config.DefaultFile)

	run := &firstRunState{t: t, policy: policy, p: p, pc: pc, rem: rem}
	t.Cleanup(func() {
		if t.Failed() && run.capture != nil {
			t.Logf("rx capture:\nstdout:\n%s\nstderr:\n%s", run.capture.Stdout, run.capture.Stderr)
		}
	})
	for _, step := range readmeFirstRun(t) {
		for _, name := range step.machines {
			o := ops[name]
			line := step.line
			switch {
			case strings.HasPrefix(line, "mkdir -p ~/.config/rfhandoff && cp "):
				if policy == "" {
					continue // the built-in defaults: no policy file
				}
				// The one path README cannot know: where this repository is.
				o.sh(strings.ReplaceAll(line, "/path/to/rfhandoff", repoRoot))
				// "set [limits] planned_duration_s ...": the edited example.
				if err := os.WriteFile(policyFile, []byte(policy), 0o600); err != nil {
					t.Fatal(err)
				}
			case strings.HasPrefix(line, "export "):
				if policy == "" {
					continue
				}
				kv := strings.TrimPrefix(line, "export ")
				k, v, _ := strings.Cut(kv, "=")
				if k != config.EnvVar || v != "~/.config/rfhandoff/"+config.DefaultFile {
					t.Fatalf("README exports %q; this suite knows only %s=~/.config/rfhandoff/%s", line, config.EnvVar, config.DefaultFile)
				}
				o.env = append(o.env[:len(o.env):len(o.env)], k+"="+p.path(policyFile))
			case !strings.HasPrefix(line, "rfhandoff "):
				o.sh(line)
			default:
				if !run.command(o, shellWords(line)[1:]) {
					return // the defaults' refusal ended the run
				}
			}
		}
	}
	run.waitCapture()
	// Every decision on record, on both sides (PROTOCOL#audit-log).
	for o, kinds := range map[*operator][]string{
		rx: {"task_shown task=" + firstRunID, "task_approved task=" + firstRunID},
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

// firstRunState is what one first run carries from line to line.
type firstRunState struct {
	t        *testing.T
	policy   string // see firstRun
	p        platform
	pc       pace
	rem      *gittest.Remote
	approval string              // what task new says the RX operator types after A
	capture  *prompttest.Session // rx capture, running in the RX operator's terminal
	readyAt  time.Time           // when tx watch showed READY
	captured bool                // waitCapture has run
}

// waitCapture waits, once, for the capture that runs in the RX operator's
// terminal to end on its own.
func (r *firstRunState) waitCapture() {
	t := r.t
	t.Helper()
	if r.captured || r.capture == nil {
		return
	}
	r.captured = true
	if st := r.capture.Wait(3 * time.Minute); st.ExitCode() != 0 {
		t.Fatalf("rx capture: exit %d, want 0\nstdout:\n%s\nstderr:\n%s", st.ExitCode(), r.capture.Stdout, r.capture.Stderr)
	}
	if !strings.Contains(r.capture.Stdout.String(), "SIMULATED: rfhandoff's HackRF simulator captured") {
		t.Errorf("rx capture's report does not say the capture was simulated:\n%s", r.capture.Stdout)
	}
	states := resultStates(t, r.rem)
	if len(states) != 2 || states[0] != result.StateReady || states[1] != result.StateComplete {
		t.Fatalf("result branch holds %v, want READY then COMPLETE", states)
	}
}

// command runs one rfhandoff line of README "First run" as its operator
// would and checks what the README says it does. It returns false when
// the run ends there (the defaults refuse the simulator).
func (r *firstRunState) command(o *operator, args []string) bool {
	t, policy, p, pc, rem := r.t, r.policy, r.p, r.pc, r.rem
	t.Helper()
	cmd := strings.Join(args[:min(2, len(args))], " ")
	switch cmd {
	case "config check":
		out := o.run(0, args...)
		for _, want := range []string{fmt.Sprintf("#   %-27s %s\n", "repo.path", p.path(o.dir)), fmt.Sprintf("#   %-27s %s\n", "capture.dir", p.path(filepath.Join(o.dir, ".local", "captures")))} {
			if !strings.Contains(out, want) {
				t.Errorf("config check in %s does not show %q:\n%s", o.dir, want, out)
			}
		}
	case "doctor main":
		o.run(0, args...)
	case "doctor rx":
		if policy == "" {
			// The defaults never take the simulator for a HackRF.
			if out := o.runErr(1, args...); !strings.Contains(out, "allow_simulator") {
				t.Errorf("doctor rx with the simulator and the defaults does not name allow_simulator:\n%s", out)
			}
			break
		}
		o.run(0, args...)
	case "task new":
		out := o.run(0, args...)
		m := reApproval.FindStringSubmatch(out)
		lines := reGitLine.FindAllStringSubmatch(out, -1)
		if m == nil || len(lines) != 3 {
			t.Fatalf("task new did not print the approval and three git lines:\n%s", out)
		}
		r.approval = m[1]
		for _, l := range lines {
			o.sh(l[1])
		}
	case "rx check":
		if out := o.run(10, args...); !strings.Contains(out, firstRunID) {
			t.Fatalf("rx check does not name the task:\n%s", out)
		}
	case "rx approve":
		ap := o.start(true, args...)
		ap.WaitForText(menu, rxWait)
		ap.Send("A")
		if r.approval != "" {
			ap.WaitForText("Type exactly: "+r.approval, rxWait)
			ap.Send(r.approval)
		}
		if code := exitOf(t, ap); code != 0 {
			t.Fatalf("rx approve: exit %d\n%s\n%s", code, ap.Stdout, ap.Stderr)
		}
	case "rx capture":
		if policy == "" {
			out := o.runErr(1, args...)
			if !strings.Contains(out, "allow_simulator") {
				t.Errorf("rx capture with the simulator and the defaults is not refused naming allow_simulator:\n%s", out)
			}
			if states := resultStates(t, rem); len(states) != 0 {
				t.Errorf("the refused simulator capture published %v", states)
			}
			if files, _ := filepath.Glob(filepath.Join(o.dir, ".local", "captures", firstRunID, "*")); len(files) != 0 {
				t.Errorf("a refused capture left files: %v", files)
			}
			return false
		}
		// It runs in the RX operator's terminal while MAIN acts.
		r.capture = o.start(false, args...)
	case "tx watch":
		watch := o.start(true, args...)
		output(watch).WaitForText("READY result for task "+firstRunID+" awaiting authorization", rxWait)
		r.readyAt = time.Now()
		// A rehearsal: the offer says the receiver is the simulator.
		output(watch).WaitForText("simulated receiver: rfhandoff's HackRF simulator", rxWait)
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
	case "tx execute":
		time.Sleep(time.Until(r.readyAt.Add(pc.execute))) // the operator gets to it
		exe := o.start(true, args...)
		exe.WaitForText("Type exactly: AUTHORIZE RF TX", rxWait)
		exe.WaitForText(p.prompt, rxWait)
		exe.Send("AUTHORIZE RF TX")
		if code := exitOf(t, exe); code != 0 {
			t.Fatalf("tx execute: exit %d\n%s\n%s", code, exe.Stdout, exe.Stderr)
		}
	case "rx status", "tx status":
		r.waitCapture() // "afterwards"
		out := o.run(0, args...)
		if !strings.Contains(out, firstRunID) {
			t.Errorf("%s does not name the task:\n%s", cmd, out)
		}
		if cmd == "rx status" && !strings.Contains(out, "simulated") {
			t.Errorf("rx status does not say the capture was simulated:\n%s", out)
		}
	case "audit verify":
		r.waitCapture()
		if out := o.run(0, args...); !strings.Contains(out, "intact") {
			t.Errorf("audit verify in %s: %s", o.dir, out)
		}
	default:
		t.Fatalf("README First run has `rfhandoff %s`, which this suite does not know how to follow", strings.Join(args, " "))
	}
	return true
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
