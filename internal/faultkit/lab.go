package faultkit

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cli/safeexec"

	"rfhandoff/config"
	"rfhandoff/exec"
	"rfhandoff/internal/gittest"
	"rfhandoff/internal/prompttest"
	"rfhandoff/internal/tasktest"
	"rfhandoff/mirror"
	"rfhandoff/result"
	"rfhandoff/state"
)

// Lab is one experiment's world: a bare remote served from Srv, an RX and
// a MAIN checkout of it, each with a policy file with short intervals.
type Lab struct {
	t      testing.TB
	Home   string      // private HOME with a fixed git identity
	R      *exec.Stack // fixture runner: file, git and http transports
	Srv    string      // the directory serving repositories (daemon base, http root)
	Remote *gittest.Remote
	// Base is the task branch's first commit (tasks name it EXPECTED_HEAD);
	// the RX checkout's HEAD.
	Base string
	// Tmp is the TMPDIR every rfhandoff child gets, so what a killed
	// process leaves in it can be found.
	Tmp string

	RX, Main *Side
}

// PollInterval is both sides' poll interval in a lab.
const PollInterval = 250 * time.Millisecond

// Side is one machine: a checkout and its policy.
type Side struct {
	lab        *Lab
	Name       string // "rx" or "main"
	Dir        string // the checkout
	Policy     config.Policy
	PolicyFile string
}

// NewLab builds the remote (task branch with .gitignore holding .local/,
// result branch with a README), clones both checkouts over file:// and
// writes both policies.
func NewLab(t testing.TB) *Lab {
	t.Helper()
	home := gittest.Home(t)
	r := gittest.RunnerWithHome(t, home, "git", "http")
	srv := filepath.Join(t.TempDir(), "srv")
	if err := os.Mkdir(srv, 0o755); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(srv, "remote.git")
	gittest.Git(t, r, srv, "init", "--quiet", "--bare", dir)
	gittest.ConfigureRemote(t, dir)
	rem := &gittest.Remote{Dir: dir, URL: gittest.ServeURL(t, dir), R: r}
	l := &Lab{t: t, Home: home, R: r, Srv: srv, Remote: rem, Tmp: t.TempDir()}
	l.Base = gittest.Seed(t, rem, tasktest.TaskBranch, map[string]string{
		"README.md":  "task branch\n",
		".gitignore": "/.local/\n",
	})
	gittest.Seed(t, rem, tasktest.ResultBranch, map[string]string{"README.md": "RX results\n", ".gitignore": "/.local/\n"})
	l.RX = l.newSide("rx")
	l.Main = l.newSide("main")
	return l
}

func (l *Lab) newSide(name string) *Side {
	t := l.t
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	gittest.Git(t, l.R, filepath.Dir(dir), "clone", "--quiet", "--branch", tasktest.TaskBranch, "--end-of-options", l.Remote.URL, dir)
	p := config.Default()
	p.Repo.Path = dir
	// Polls are what the watchers' tests spend their CPU on (an idle
	// poll is a git fetch: three processes); a quarter second keeps a
	// wait for the next poll short.
	p.Poll.RXInterval = config.Duration{Duration: PollInterval}
	p.Poll.TXInterval = config.Duration{Duration: PollInterval}
	p.Poll.MaxBackoff = config.Duration{Duration: time.Second}
	p.Poll.GitTimeout = config.Duration{Duration: 60 * time.Second}
	// Room for a loaded CI machine between publishing a READY result and
	// using its authorization: the longest publication age there is, and
	// a capture long enough to keep that much time left. A test that runs
	// a capture to its end sets its own length.
	p.Limits.PlannedDurationS = 900
	p.Limits.MaxPublicationAgeS = 300
	p.TX.DurationS = 5
	p.Tools = simulatorTools(t)
	// Both sides rehearse with the simulator: rx capture may use it and
	// tx watch and tx execute accept its (simulated) READY.
	p.Tools.AllowSimulator = true
	s := &Side{lab: l, Name: name, Dir: dir, Policy: p, PolicyFile: filepath.Join(t.TempDir(), name+".toml")}
	s.WritePolicy()
	return s
}

// simulatorTools pins the HackRF tools to the simulator on PATH (package
// e2e's TestMain puts it there), never the real tools in /usr/bin: no
// test of this suite may open a device.
func simulatorTools(t testing.TB) config.Tools {
	t.Helper()
	var tools config.Tools
	for name, dst := range map[string]*string{
		"hackrf_info": &tools.HackRFInfo, "hackrf_transfer": &tools.HackRFTransfer, "hackrf_clock": &tools.HackRFClock,
	} {
		p, err := safeexec.LookPath(name)
		if err != nil || strings.HasPrefix(p, "/usr/") {
			p = "/nonexistent/faultkit/" + name // never the real tool
		}
		*dst = p
	}
	return tools
}

// WritePolicy validates s.Policy and writes it to s.PolicyFile.
func (s *Side) WritePolicy() {
	t := s.lab.t
	t.Helper()
	if err := s.Policy.Validate(); err != nil {
		t.Fatalf("faultkit: invalid %s policy: %v", s.Name, err)
	}
	if err := os.WriteFile(s.PolicyFile, []byte(s.Policy.TOML()), 0o600); err != nil {
		t.Fatal(err)
	}
}

// Env is the environment of an rfhandoff child on this side: this
// process's, with the lab's HOME and TMPDIR, RFHANDOFF_CONFIG naming the
// side's policy and HACKRF_SIM empty, plus extra.
func (s *Side) Env(extra ...string) []string {
	var out []string
	for _, kv := range gittest.Environ(s.lab.Home) {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case config.EnvVar, "TMPDIR", "HACKRF_SIM":
			continue
		}
		out = append(out, kv)
	}
	out = append(out, config.EnvVar+"="+s.PolicyFile, "TMPDIR="+s.lab.Tmp, "HACKRF_SIM=")
	return append(out, extra...)
}

// Run runs rfhandoff args on this side without a terminal.
func (s *Side) Run(timeout time.Duration, args ...string) Output {
	s.lab.t.Helper()
	return Run(s.lab.t, s.Env(), s.Dir, timeout, "", args...)
}

// Start starts rfhandoff args on this side without a terminal.
func (s *Side) Start(args ...string) *prompttest.Session {
	s.lab.t.Helper()
	return Start(s.lab.t, s.Env(), s.Dir, "", args...)
}

// StartConsole is Start with prompttest.Options.Console: on Windows the
// child has a console of its own, so that Session.Signal can stop it with
// a Ctrl-C. It then has a terminal there: only for a command that would
// prompt for nothing (a watcher with nothing awaiting approval).
func (s *Side) StartConsole(args ...string) *prompttest.Session {
	s.lab.t.Helper()
	return prompttest.StartDetached(s.lab.t, Bin(s.lab.t), args, prompttest.Options{Dir: s.Dir, Env: s.Env(), Console: true})
}

// StartTTY starts rfhandoff args on this side on a fresh pseudo-terminal
// (its controlling terminal): the operator is the test.
func (s *Side) StartTTY(args ...string) *prompttest.Session {
	s.lab.t.Helper()
	return prompttest.Start(s.lab.t, Bin(s.lab.t), args, prompttest.Options{Dir: s.Dir, Env: s.Env()})
}

// SetRemoteURL points the checkout's origin at url.
func (s *Side) SetRemoteURL(url string) {
	s.lab.t.Helper()
	gittest.Git(s.lab.t, s.lab.R, s.Dir, "remote", "set-url", "--", "origin", url)
}

// StateDir is the side's resolved state directory.
func (s *Side) StateDir() string { return s.Policy.StatePath() }

// AuditPath is the side's audit log.
func (s *Side) AuditPath() string { return s.Policy.AuditPath() }

// Head is the checkout's HEAD.
func (s *Side) Head() string {
	s.lab.t.Helper()
	return strings.TrimSpace(gittest.Git(s.lab.t, s.lab.R, s.Dir, "rev-parse", "HEAD"))
}

// Mirror is the side's mirror in its state directory, where the watchers
// fetch to (the checkout is not fetched into).
func (s *Side) Mirror() string {
	if s.Name == "rx" {
		return s.Policy.StatePath(mirror.RXName)
	}
	return s.Policy.StatePath(mirror.TXName)
}

// TrackingRef is the commit of refs/remotes/origin/<branch> in the side's
// mirror ("" when it does not exist).
func (s *Side) TrackingRef(branch string) string {
	s.lab.t.Helper()
	res, err := s.lab.R.Run(s.lab.t.Context(), exec.Cmd{Tool: exec.Git, Dir: s.Mirror(),
		Args: []string{"rev-parse", "--verify", "--quiet", "--end-of-options", "refs/remotes/origin/" + branch}})
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(res.Stdout))
}

// DaemonURL is the remote's URL on d (a daemon serving l.Srv).
func (l *Lab) DaemonURL(d *gittest.Daemon) string { return d.URL(filepath.Base(l.Remote.Dir)) }

// StartDaemon serves the lab's remote with git daemon.
func (l *Lab) StartDaemon() *gittest.Daemon {
	l.t.Helper()
	return gittest.StartDaemon(l.t, l.Srv, gittest.Environ(l.Home))
}

// UseURL points both checkouts at url.
func (l *Lab) UseURL(url string) {
	l.t.Helper()
	l.RX.SetRemoteURL(url)
	l.Main.SetRemoteURL(url)
}

// PushTask commits the task file for s on the remote's task branch and
// returns the commit and the file's bytes. EXPECTED_HEAD defaults to
// l.Base.
func (l *Lab) PushTask(s tasktest.TaskSpec) (commit string, data []byte) {
	l.t.Helper()
	if s.ExpectedHead == "" {
		s.ExpectedHead = l.Base
	}
	text := tasktest.TaskFile(s)
	return l.PushFiles(tasktest.TaskBranch, map[string]string{tasktest.TaskPath: text}), []byte(text)
}

// PushFiles commits files (see gittest.Seed) on branch of the remote.
func (l *Lab) PushFiles(branch string, files map[string]string) string {
	l.t.Helper()
	return gittest.Seed(l.t, l.Remote, branch, files)
}

// Tip is the remote branch's commit.
func (l *Lab) Tip(branch string) string {
	l.t.Helper()
	return gittest.Tip(l.t, l.Remote, branch)
}

// Approve records an approval of the task (id, exact bytes, commit) in the
// RX state, with the RX policy's capture plan as it is now, as the
// approval prompt would after the operator approved.
func (l *Lab) Approve(id string, data []byte, commit string) {
	l.t.Helper()
	dir := l.RX.StateDir()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		l.t.Fatal(err)
	}
	st, err := state.LoadRX(dir)
	if err != nil {
		l.t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	st.LastApprovedTaskID = id
	st.Approval = &state.Approval{TaskID: id, TaskSHA256: hex.EncodeToString(sum[:]), Commit: commit,
		ApprovedAt: time.Now().UTC().Truncate(time.Second)}
	plan := l.RX.Policy.CapturePlan()
	st.Approval.Capture = &plan
	if err := state.SaveRX(dir, st); err != nil {
		l.t.Fatal(err)
	}
}

// Ready is a fresh READY result for task id from the RX checkout, with
// the capture started a second ago and the policies' frequencies.
func (l *Lab) Ready(id string) *result.Result {
	l.t.Helper()
	now := time.Now().UTC().Truncate(time.Millisecond)
	return tasktest.Ready(id, l.RX.Head(), l.RX.Policy, now, time.Second)
}

// Encode encodes r canonically.
func (l *Lab) Encode(r *result.Result) []byte {
	l.t.Helper()
	b, err := result.Encode(r)
	if err != nil {
		l.t.Fatal(err)
	}
	return b
}

// WriteResult writes data to a file outside both checkouts and returns
// its path.
func (l *Lab) WriteResult(data []byte) string {
	l.t.Helper()
	p := filepath.Join(l.t.TempDir(), "RX_RESULT.json")
	if err := os.WriteFile(p, data, 0o600); err != nil {
		l.t.Fatal(err)
	}
	return p
}

// PushResult commits data as RX_RESULT.json on the remote's result branch
// (as a publish from the RX laptop would) and returns the commit.
func (l *Lab) PushResult(data []byte) string {
	l.t.Helper()
	return l.PushFiles(tasktest.ResultBranch, map[string]string{tasktest.ResultPath: string(data)})
}
