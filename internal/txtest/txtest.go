package txtest

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"rfhandoff/config"
	"rfhandoff/exec"
	"rfhandoff/gitcli"
	"rfhandoff/internal/gittest"
	"rfhandoff/internal/tasktest"
	"rfhandoff/result"
)

// TaskID is the fixture task's ID.
const TaskID = "RX_OTA_0001"

// Fixture is a remote and a MAIN checkout of it.
type Fixture struct {
	Home   string
	Runner *exec.Stack // RoleGit for fixture work (gittest.RunnerWithHome)
	Remote *gittest.Remote
	Main   string // the MAIN checkout (full clone of the task branch)
}

// New creates the remote with task TaskID on the task branch, an rx-node
// branch without a result, and the MAIN checkout with .local/ ignored
// (through .git/info/exclude, as an operator might).
func New(t testing.TB) *Fixture {
	t.Helper()
	home := gittest.Home(t)
	r := gittest.RunnerWithHome(t, home)
	rem := gittest.NewBareRemoteWith(t, r, tasktest.TaskBranch, tasktest.ResultBranch)
	f := &Fixture{Home: home, Runner: r, Remote: rem}
	f.SetTask(t, TaskID)
	f.Main = gittest.Clone(t, rem, tasktest.TaskBranch)
	exclude := filepath.Join(f.Main, ".git", "info", "exclude")
	if err := os.MkdirAll(filepath.Dir(exclude), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(exclude, []byte("/.local/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return f
}

// SetTask puts a valid YELLOW capture task with id on the task branch.
func (f *Fixture) SetTask(t testing.TB, id string) string {
	t.Helper()
	s := tasktest.Capture(id)
	s.ExpectedHead = gittest.Tip(t, f.Remote, tasktest.TaskBranch)
	return gittest.Seed(t, f.Remote, tasktest.TaskBranch, map[string]string{tasktest.TaskPath: tasktest.TaskFile(s)})
}

// SetScheduledTask is SetTask with START_AT startAt and SYNC_MODE mode
// (and CAPTURE_DURATION_S, Policy's planned duration).
func (f *Fixture) SetScheduledTask(t testing.TB, id string, mode result.SyncMode, startAt time.Time) string {
	t.Helper()
	s := tasktest.Capture(id)
	schedule(&s, mode, startAt, int64(f.Policy().Limits.PlannedDurationS))
	s.ExpectedHead = gittest.Tip(t, f.Remote, tasktest.TaskBranch)
	return gittest.Seed(t, f.Remote, tasktest.TaskBranch, map[string]string{tasktest.TaskPath: tasktest.TaskFile(s)})
}

// schedule gives s START_AT, SYNC_MODE and CAPTURE_DURATION_S.
func schedule(s *tasktest.TaskSpec, mode result.SyncMode, startAt time.Time, durationS int64) {
	s.CaptureDurationS = durationS
	s.StartAt, s.SyncMode = startAt.UTC().Format(time.RFC3339), string(mode)
}

// Ready is a READY result for TaskID that passes every check at now under
// Policy: published at now, capture started 30 s before now.
func Ready(now time.Time) *result.Result {
	p := config.Default()
	roomyLimits(&p)
	return tasktest.Ready(TaskID, strings.Repeat("3f", 20), p, now, 30*time.Second)
}

// Publish commits r as RX_RESULT.json on the result branch (as the RX
// publisher would, without its checks) and returns the commit and the
// digest of the bytes.
func (f *Fixture) Publish(t testing.TB, r *result.Result) (commit, digest string) {
	t.Helper()
	data, err := result.Encode(r)
	if err != nil {
		t.Fatalf("encoding the fixture result: %v", err)
	}
	return f.PublishBytes(t, data), result.SHA256(data)
}

// PublishBytes commits data as RX_RESULT.json on the result branch.
func (f *Fixture) PublishBytes(t testing.TB, data []byte) string {
	t.Helper()
	return gittest.Seed(t, f.Remote, tasktest.ResultBranch, map[string]string{tasktest.ResultPath: string(data)})
}

// Policy is the default policy for the MAIN checkout, with fast polling
// and limits roomy enough for a loaded CI machine: a 600 s capture, a
// publication valid for 300 s.
func (f *Fixture) Policy() config.Policy {
	p := config.Default()
	p.Repo.Path = f.Main
	p.Poll.RXInterval = config.Duration{Duration: 250 * time.Millisecond}
	p.Poll.TXInterval = config.Duration{Duration: 250 * time.Millisecond}
	p.Poll.MaxBackoff = config.Duration{Duration: time.Second}
	p.Poll.GitTimeout = config.Duration{Duration: 2 * time.Minute}
	roomyLimits(&p)
	return p
}

// roomyLimits allows a 600 s capture and a publication valid for 300 s.
func roomyLimits(p *config.Policy) {
	p.Limits.PlannedDurationS = 600
	p.Limits.MaxPublicationAgeS = 300
}

// PolicyTOML is Policy as a policy file (extra is appended: more tables).
// The path is quoted as Go quotes it, which TOML reads back: a Windows
// path's backslashes are escaped.
func (f *Fixture) PolicyTOML(extra string) string {
	return "[repo]\npath = " + strconv.Quote(f.Main) + "\n\n" +
		"[poll]\nrx_interval = \"250ms\"\ntx_interval = \"250ms\"\nmax_backoff = \"1s\"\ngit_timeout = \"2m\"\n\n" +
		"[limits]\nplanned_duration_s = 600\nmax_publication_age_s = 300\n\n" + extra
}

// Git is a client for the MAIN checkout through r.
func (f *Fixture) Git(r exec.Runner) *gitcli.Client {
	return &gitcli.Client{R: r, Dir: f.Main, Timeout: 2 * time.Minute}
}

// TXRunner is a RoleTransmit stack like the one tx execute uses, with git over
// the fixtures' transports and hackrf_transfer pinned to hackrf (an absolute
// path; a path that does not exist makes the tool missing, so nothing can
// ever reach real hardware). Its audit log is returned with it.
func (f *Fixture) TXRunner(t testing.TB, hackrf string) (*exec.Stack, string) {
	t.Helper()
	return gittest.Stack(t, exec.Options{
		Role:         exec.RoleTransmit,
		GitProtocols: gittest.Transports(),
		Environ:      gittest.Environ(f.Home),
		Tools:        map[exec.Tool]string{exec.HackRFTransfer: hackrf},
	})
}

// ToolStarts counts the audit log's start lines for tool.
func ToolStarts(t testing.TB, auditPath string, tool exec.Tool) int {
	t.Helper()
	entries, err := exec.ReadAuditTail(auditPath, 0)
	if err != nil {
		if os.IsNotExist(err) {
			return 0
		}
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		if e.Tool == tool && e.Event == exec.EventStart {
			n++
		}
	}
	return n
}
