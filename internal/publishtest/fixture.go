package publishtest

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"rfhandoff/captureplan"
	"rfhandoff/config"
	"rfhandoff/exec"
	"rfhandoff/gitcli"
	"rfhandoff/internal/gittest"
	"rfhandoff/internal/tasktest"
	"rfhandoff/mirror"
	"rfhandoff/publish"
	"rfhandoff/result"
	"rfhandoff/state"
	"rfhandoff/task"
)

// TaskID is the fixture task's ID.
const TaskID = "RX_PUBLISH_0001"

// Fixture is one publish world.
type Fixture struct {
	Remote     *gittest.Remote
	Runner     *exec.Stack // audited runner used for everything (its log is the audit log)
	Checkout   string      // the RX checkout (full clone of the task branch)
	StateDir   string      // Checkout/.local
	Policy     config.Policy
	BaseCommit string // the task branch commit EXPECTED_HEAD names
	TaskCommit string // the task branch commit holding the task file
	TaskData   []byte // the task file's bytes
	Head       string // the checkout's HEAD (= TaskCommit)
	capture    captureplan.Task
}

// Options vary the fixture.
type Options struct {
	// Runner replaces gittest.Runner(t) (e.g. one allowing http).
	Runner *exec.Stack
	// AllowPush and RFTX set the task's fields (defaults RX_RESULT_ONLY, NO).
	AllowPush string
	RFTX      bool
	// ResultFiles seed the result branch's first commit (default a README).
	ResultFiles map[string]string
	// NoResultBranch leaves the result branch missing on the remote.
	NoResultBranch bool
	// NoApproval leaves the RX state without an approval.
	NoApproval bool
	// RXNodes is the task's RX_NODES and NodeName the policy's [node]
	// name (PROTOCOL#several-nodes); both empty by default.
	RXNodes, NodeName string
	// Capture is the task's CAPTURE_* fields and its schedule (START_AT,
	// SYNC_MODE); the approval binds the plan they make.
	Capture captureplan.Task
}

// New builds a fixture.
func New(t testing.TB, o Options) *Fixture {
	t.Helper()
	r := o.Runner
	if r == nil {
		r = gittest.Runner(t)
	}
	if o.AllowPush == "" {
		o.AllowPush = task.PushRXResultOnly
	}
	rem := gittest.NewBareRemoteWith(t, r)
	pol := config.Default()
	// The captures of this fixture's users run the simulator.
	pol.Tools.AllowSimulator = true
	f := &Fixture{Remote: rem, Runner: r, Policy: pol, capture: o.Capture}
	f.BaseCommit = gittest.Seed(t, rem, pol.Repo.TaskBranch, map[string]string{
		"README.md":  "task branch\n",
		".gitignore": ".local/\n",
	})
	f.TaskData = []byte(tasktest.TaskFile(tasktest.TaskSpec{ID: TaskID, ExpectedHead: f.BaseCommit,
		HardwareAccess: true, RFRX: true, RFTX: o.RFTX, AllowPush: o.AllowPush, RXNodes: o.RXNodes, Body: "Capture and publish.\n",
		CaptureDurationS: o.Capture.DurationS, StartAt: startAt(o.Capture), SyncMode: o.Capture.SyncMode}))
	f.TaskCommit = gittest.Seed(t, rem, pol.Repo.TaskBranch, map[string]string{pol.Repo.TaskFile: string(f.TaskData)})
	if !o.NoResultBranch {
		files := o.ResultFiles
		if files == nil {
			files = map[string]string{"README.md": "RX results\n"}
		}
		SeedResultBranch(t, rem, pol.Repo.ResultBranch, files)
	}
	f.Checkout = gittest.Clone(t, rem, pol.Repo.TaskBranch)
	f.Policy.Repo.Path = f.Checkout
	f.Policy.Node.Name = o.NodeName
	f.StateDir = filepath.Join(f.Checkout, pol.Repo.StateDir)
	if err := os.Mkdir(f.StateDir, 0o700); err != nil {
		t.Fatal(err)
	}
	f.Head = strings.TrimSpace(gittest.Git(t, r, f.Checkout, "rev-parse", "HEAD"))
	if !o.NoApproval {
		f.Approve(t, TaskID, f.TaskData, f.TaskCommit)
	}
	return f
}

// SeedResultBranch creates (or extends) branch with files, which may
// include symlinks written as "symlink:<target>" (gittest.Seed's links).
func SeedResultBranch(t testing.TB, rem *gittest.Remote, branch string, files map[string]string) string {
	t.Helper()
	seed := make(map[string]string, len(files))
	for p, c := range files {
		if target, ok := strings.CutPrefix(c, "symlink:"); ok {
			c = gittest.SymlinkPrefix + target
		}
		seed[p] = c
	}
	return gittest.Seed(t, rem, branch, seed)
}

// Approve records an approval of task id with the digest of data and the
// fixture policy's capture plan as it is now, as the approval prompt would.
func (f *Fixture) Approve(t testing.TB, id string, data []byte, commit string) {
	t.Helper()
	st, err := state.LoadRX(f.StateDir)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	st.LastApprovedTaskID = id
	st.Approval = &state.Approval{TaskID: id, TaskSHA256: hex.EncodeToString(sum[:]), Commit: commit, ApprovedAt: time.Now().UTC().Truncate(time.Second)}
	plan, err := f.Policy.CapturePlanFor(f.capture)
	if err != nil {
		t.Fatalf("the fixture's task and policy: %v", err)
	}
	st.Approval.Capture = &plan
	if err := state.SaveRX(f.StateDir, st); err != nil {
		t.Fatal(err)
	}
}

// Ready is a valid READY result for the fixture's task and checkout.
func (f *Fixture) Ready() *result.Result {
	return tasktest.Ready(TaskID, f.Head, f.Policy, time.Now().UTC().Truncate(time.Millisecond), 2*time.Second)
}

// Encode encodes r canonically, failing the test on error.
func Encode(t testing.TB, r *result.Result) []byte {
	t.Helper()
	b, err := result.Encode(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Git is a client for the RX checkout.
func (f *Fixture) Git() *gitcli.Client {
	return &gitcli.Client{R: f.Runner, Dir: f.Checkout, Timeout: 2 * time.Minute}
}

// Deps are publish dependencies for the fixture.
func (f *Fixture) Deps() publish.Deps {
	return publish.Deps{
		Git: f.Git(), Runner: f.Runner, Policy: f.Policy,
		StateDir: f.StateDir, Audit: f.Runner.AuditLog(),
	}
}

// Refs is git for-each-ref of the bare remote: every ref with its object.
func (f *Fixture) Refs(t testing.TB) string {
	t.Helper()
	return gittest.Git(t, f.Runner, f.Remote.Dir, "for-each-ref", "--format=%(objectname) %(refname)")
}

// ResultTip is the result branch's commit on the remote.
func (f *Fixture) ResultTip(t testing.TB) string {
	t.Helper()
	return gittest.Tip(t, f.Remote, f.Policy.Repo.ResultBranch)
}

// Snapshot records what publishing must never change in the checkout:
// HEAD, the checked-out branch, the index file's bytes, and every file of
// the work tree (outside .git) with its mode and content digest. The
// side's mirror in the state directory is rfhandoff's own, not the
// checkout's, and is left out.
func (f *Fixture) Snapshot(t testing.TB) string {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "HEAD %s", gittest.Git(t, f.Runner, f.Checkout, "rev-parse", "HEAD"))
	fmt.Fprintf(&b, "branch %s", gittest.Git(t, f.Runner, f.Checkout, "symbolic-ref", "HEAD"))
	head, err := os.ReadFile(filepath.Join(f.Checkout, ".git", "HEAD"))
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(&b, ".git/HEAD %q\n", head)
	idx, err := os.ReadFile(filepath.Join(f.Checkout, ".git", "index"))
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(&b, "index %x\n", sha256.Sum256(idx))
	var lines []string
	err = filepath.WalkDir(f.Checkout, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(f.Checkout, p)
		if rel == ".git" {
			return filepath.SkipDir
		}
		if strings.HasPrefix(d.Name(), mirror.RXName) || strings.HasPrefix(d.Name(), mirror.TXName) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		line := fmt.Sprintf("%s %s", rel, info.Mode())
		if info.Mode().IsRegular() {
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			line += fmt.Sprintf(" %x", sha256.Sum256(data))
		}
		lines = append(lines, line)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(lines)
	b.WriteString(strings.Join(lines, "\n"))
	return b.String()
}

// startAt is the task's START_AT as the header writes it ("" for none).
func startAt(c captureplan.Task) string {
	if c.StartAt.IsZero() {
		return ""
	}
	return c.StartAt.UTC().Format(captureplan.StartAtLayout)
}
