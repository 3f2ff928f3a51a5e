package capture

import (
	"context"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"rfhandoff/captureplan"
	"rfhandoff/config"
	"rfhandoff/exec"
	"rfhandoff/hacksim"
	"rfhandoff/internal/gittest"
	"rfhandoff/internal/publishtest"
	"rfhandoff/internal/testrun"
	"rfhandoff/result"

	"github.com/cli/safeexec"
	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain puts the HackRF simulator on PATH under the tools' names: the
// capture runs the real runner against it, as it would the real tools.
// Like rfhandoff's main it serves as the Ctrl-C helper first: without it
// an interrupt on Windows could only terminate the tool.
func TestMain(m *testing.M) {
	exec.ServeHelper()
	// The captures run in real time: most tests wait, few compute. Not
	// when this binary runs as the simulator: its flags are the tool's.
	if !hacksim.IsTool(os.Args[0]) {
		testrun.ParallelByDefault(testrun.Waiting)
	}
	sim := func() { os.Exit(hacksim.Main(os.Args[0], os.Args[1:], os.Getenv, os.Stdout, os.Stderr)) }
	testscript.Main(m, map[string]func(){
		"hackrf_info": sim, "hackrf_clock": sim, "hackrf_transfer": sim,
	})
}

// world is a publish fixture (bare remote, task branch, result branch, RX
// checkout with the task approved) plus a RoleCapture runner whose children
// see HACKRF_SIM=sim.
type world struct {
	*publishtest.Fixture
	Stack *exec.Stack
	// schedule is the task's START_AT and SYNC_MODE (scheduledWorld), which
	// its results must carry.
	schedule captureplan.Task
}

// newWorld builds a world; o varies the publish fixture, pol the policy
// (a short planned duration by default: 3 s), runner the runner's options.
func newWorld(t testing.TB, sim string, o publishtest.Options, pol func(*config.Policy), runner ...func(*exec.Options)) *world {
	t.Helper()
	home := gittest.Home(t)
	dir := t.TempDir()
	audit, err := exec.OpenAuditLog(filepath.Join(dir, "audit.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	hooks := filepath.Join(dir, "nohooks")
	if err := os.Mkdir(hooks, 0o700); err != nil {
		t.Fatal(err)
	}
	var env []string
	for _, kv := range gittest.Environ(home) {
		if !strings.HasPrefix(kv, "HACKRF_SIM=") {
			env = append(env, kv)
		}
	}
	env = append(env, "HACKRF_SIM="+sim)
	// Pinned to the simulator TestMain put first on PATH: never a real tool.
	bin := filepath.SplitList(os.Getenv("PATH"))[0]
	tools := map[exec.Tool]string{}
	for _, tool := range []exec.Tool{exec.HackRFInfo, exec.HackRFClock, exec.HackRFTransfer} {
		// Looked up, so that Windows finds hackrf_info.exe and so on.
		p, err := safeexec.LookPath(string(tool))
		if err != nil || filepath.Dir(p) != bin {
			t.Fatalf("%s resolves to %q (%v), not the simulator in %s", tool, p, err, bin)
		}
		tools[tool] = p
	}
	ro := exec.Options{
		Role: exec.RoleCapture, Audit: audit, GitProtocols: gittest.Transports(), HooksDir: hooks,
		Environ: env, DefaultTimeout: 2 * time.Minute, Tools: tools,
	}
	for _, f := range runner {
		f(&ro)
	}
	stack, err := exec.New(ro)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range []exec.Tool{exec.Git, exec.HackRFInfo, exec.HackRFClock, exec.HackRFTransfer} {
		if err := stack.Missing()[tool]; err != nil {
			t.Skipf("%s not available: %v", tool, err)
		}
	}
	o.Runner = stack
	f := publishtest.New(t, o)
	f.Policy.Limits.PlannedDurationS = 3
	if pol != nil {
		pol(&f.Policy)
	}
	if !o.NoApproval {
		// The approval binds the capture plan: approved as the test's
		// policy now stands.
		f.Approve(t, publishtest.TaskID, f.TaskData, f.TaskCommit)
	}
	return &world{Fixture: f, Stack: stack}
}

// deps are the capture's dependencies in the world.
func (w *world) deps(t testing.TB) Deps {
	return Deps{
		Git: w.Git(), Runner: w.Stack, Policy: w.Policy, Audit: w.Stack.AuditLog(),
		Logger: slog.New(slog.NewTextHandler(t.Output(), nil)), Author: "test operator",
	}
}

// opts are generous options for a loaded CI machine.
func opts() Options {
	return Options{StartupTimeout: time.Minute, Tick: 50 * time.Millisecond, Grace: 20 * time.Second}
}

// runDeadline bounds one capture run in a test: a hang fails with a
// message before go test's 10-minute default, while load only slows a run
// (a 3 s capture took almost 5 minutes under Wine on a loaded 2-core
// machine).
const runDeadline = 6 * time.Minute

// run runs a capture with a deadline far beyond any test's needs.
func (w *world) run(t testing.TB, ctx context.Context, o Options) (*Report, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, runDeadline)
	defer cancel()
	return Run(ctx, w.deps(t), o)
}

// resultCommits returns, oldest first, the RX_RESULT.json of every commit
// on the result branch after base.
func (w *world) resultCommits(t testing.TB, base string) []*result.Result {
	t.Helper()
	branch := w.Policy.Repo.ResultBranch
	out := gittest.Git(t, w.Runner, w.Remote.Dir, "log", "--reverse", "--format=%H", base+".."+branch)
	var rs []*result.Result
	for _, c := range strings.Fields(out) {
		data := gittest.Git(t, w.Runner, w.Remote.Dir, "show", c+":"+w.Policy.Repo.ResultDir+"/RX_RESULT.json")
		r, err := result.Decode([]byte(data), result.Options{SyncMode: result.SyncMode(w.schedule.SyncMode), StartAt: w.schedule.StartAt})
		if err != nil {
			t.Fatalf("commit %s: RX_RESULT.json: %v\n%s", c, err, data)
		}
		rs = append(rs, r)
	}
	return rs
}

// resultMarkdown is RX_RESULT.md at the result branch's tip.
func (w *world) resultMarkdown(t testing.TB) string {
	t.Helper()
	return gittest.Git(t, w.Runner, w.Remote.Dir, "show", w.Policy.Repo.ResultBranch+":"+w.Policy.Repo.ResultDir+"/RX_RESULT.md")
}

// auditStarts lists the audit log's "start" lines of tool.
func (w *world) auditStarts(t testing.TB, tool exec.Tool) []exec.Entry {
	t.Helper()
	return w.auditLines(t, func(e exec.Entry) bool { return e.Event == exec.EventStart && e.Tool == tool })
}

// decisions lists the audit log's decision lines of kind.
func (w *world) decisions(t testing.TB, kind string) []exec.Entry {
	t.Helper()
	return w.auditLines(t, func(e exec.Entry) bool { return e.Event == exec.EventDecision && e.Kind == kind })
}

// auditLines lists the audit log's lines that keep says to.
func (w *world) auditLines(t testing.TB, keep func(exec.Entry) bool) []exec.Entry {
	t.Helper()
	entries, err := exec.ReadAuditTail(w.Stack.AuditLog().Path(), 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []exec.Entry
	for _, e := range entries {
		if keep(e) {
			out = append(out, e)
		}
	}
	return out
}

// fileSums returns the SHA-256 and SHA-512 of a file and its size.
func fileSums(t testing.TB, path string) (string, string, int64) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	a, b := sha256.Sum256(data), sha512.Sum512(data)
	return hex.EncodeToString(a[:]), hex.EncodeToString(b[:]), int64(len(data))
}

// waitForTip polls until the result branch's tip differs from base.
func (w *world) waitForTip(t testing.TB, base string, timeout time.Duration) string {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		if tip := w.ResultTip(t); tip != base {
			return tip
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("the result branch did not move from %s within %s", base, timeout)
	return ""
}

// Read is how many bytes the follower has handed on so far.
func (fl *follower) Read() int64 { return fl.read.Load() }
