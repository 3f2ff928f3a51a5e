package rxtest

import (
	"bufio"
	"bytes"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"rfhandoff/config"
	"rfhandoff/exec"
	"rfhandoff/gitcli"
	"rfhandoff/internal/gittest"
	"rfhandoff/internal/tasktest"
)

// Options shape a fixture.
type Options struct {
	// NotIgnored leaves the state directory not ignored by git.
	NotIgnored bool
}

// RX is a bare remote and an RX checkout of it with a policy file.
type RX struct {
	t      testing.TB
	Remote *gittest.Remote
	Home   string // private HOME (git identity) for fixtures and children
	Dir    string // the RX checkout (full clone)
	// Base is the task branch's first commit; tasks name it as EXPECTED_HEAD.
	Base       string
	Policy     config.Policy
	PolicyFile string
}

// New creates the remote (branches main and tasktest's task and result
// branches), a full
// clone as the RX checkout with ".local/" in .git/info/exclude, and a
// policy file with repo.path set to it, rx_interval 200ms, max_backoff 1s.
func New(t testing.TB, o Options) *RX {
	t.Helper()
	home := gittest.Home(t)
	r := gittest.RunnerWithHome(t, home)
	rem := gittest.NewBareRemoteWith(t, r, "main", tasktest.TaskBranch, tasktest.ResultBranch)
	dir := gittest.Clone(t, rem, "main")
	if !o.NotIgnored {
		appendFile(t, filepath.Join(dir, ".git", "info", "exclude"), "/.local/\n")
	}
	rx := &RX{t: t, Remote: rem, Home: home, Dir: dir, Base: gittest.Tip(t, rem, tasktest.TaskBranch)}
	p := config.Default()
	p.Repo.Path = dir
	p.Poll.RXInterval = config.Duration{Duration: 200 * time.Millisecond}
	p.Poll.TXInterval = config.Duration{Duration: 200 * time.Millisecond}
	p.Poll.MaxBackoff = config.Duration{Duration: time.Second}
	p.Poll.GitTimeout = config.Duration{Duration: time.Minute}
	p.Tools.AllowSimulator = true // an RX lab with the simulator
	rx.Policy = p
	rx.PolicyFile = filepath.Join(t.TempDir(), "rfhandoff.toml")
	rx.WritePolicy()
	return rx
}

// WritePolicy writes rx.Policy to rx.PolicyFile (call it after changing
// rx.Policy).
func (rx *RX) WritePolicy() {
	rx.t.Helper()
	if err := rx.Policy.Validate(); err != nil {
		rx.t.Fatalf("rxtest: invalid policy: %v", err)
	}
	if err := os.WriteFile(rx.PolicyFile, []byte(rx.Policy.TOML()), 0o600); err != nil {
		rx.t.Fatal(err)
	}
}

// Environ is the environment for an rfhandoff child: this process's with
// HOME pointing at the fixture's, RFHANDOFF_CONFIG at the policy file.
func (rx *RX) Environ() []string {
	env := gittest.Environ(rx.Home)
	out := env[:0]
	for _, kv := range env {
		if !strings.HasPrefix(kv, config.EnvVar+"=") {
			out = append(out, kv)
		}
	}
	return append(out, config.EnvVar+"="+rx.PolicyFile)
}

// Runner is the fixture's git runner (file transport only).
func (rx *RX) Runner() exec.Runner { return rx.Remote.R }

// Client is a git client on the RX checkout through r.
func (rx *RX) Client(r exec.Runner) *gitcli.Client {
	return &gitcli.Client{R: r, Dir: rx.Dir, Timeout: time.Minute}
}

// StateDir is the resolved state directory.
func (rx *RX) StateDir() string { return rx.Policy.StatePath() }

// StateFile is the RX state file.
func (rx *RX) StateFile() string { return rx.Policy.StatePath("rx_agent_state.json") }

// PushTask commits the task file for s on the task branch of the remote
// and returns the commit. EXPECTED_HEAD defaults to rx.Base.
func (rx *RX) PushTask(s tasktest.TaskSpec) string {
	rx.t.Helper()
	if s.ExpectedHead == "" {
		s.ExpectedHead = rx.Base
	}
	return rx.PushFile(tasktest.TaskFile(s))
}

// PushFile commits content as the task file on the task branch.
func (rx *RX) PushFile(content string) string {
	rx.t.Helper()
	return gittest.Seed(rx.t, rx.Remote, tasktest.TaskBranch, map[string]string{tasktest.TaskPath: content})
}

// PushTaskWithMedia commits the task file for s together with n bytes of
// incompressible media (media/take.raw, seeded: reproducible) on the task
// branch and returns the commit: issue 15's "300 MB media commit lands
// with a task". The work clone is removed, so disk use stays bounded by
// the remote's copy.
func (rx *RX) PushTaskWithMedia(s tasktest.TaskSpec, n int64) string {
	rx.t.Helper()
	if s.ExpectedHead == "" {
		s.ExpectedHead = rx.Base
	}
	work := gittest.Clone(rx.t, rx.Remote, tasktest.TaskBranch)
	defer os.RemoveAll(work)
	// Random bytes do not compress: spare the CPU the attempt.
	gittest.Git(rx.t, rx.Remote.R, work, "config", "core.compression", "0")
	media := filepath.Join(work, "media", "take.raw")
	writeRandom(rx.t, media, n, s.ID)
	task := filepath.Join(work, filepath.FromSlash(tasktest.TaskPath))
	if err := os.MkdirAll(filepath.Dir(task), 0o755); err != nil {
		rx.t.Fatal(err)
	}
	if err := os.WriteFile(task, []byte(tasktest.TaskFile(s)), 0o644); err != nil {
		rx.t.Fatal(err)
	}
	gittest.Git(rx.t, rx.Remote.R, work, "add", "--all")
	if err := os.Remove(media); err != nil { // the index holds it now
		rx.t.Fatal(err)
	}
	gittest.Git(rx.t, rx.Remote.R, work, "commit", "--quiet", "-m", "media and task "+s.ID)
	gittest.Git(rx.t, rx.Remote.R, work, "push", "--quiet", "--end-of-options", rx.Remote.URL, "HEAD:refs/heads/"+tasktest.TaskBranch)
	return strings.TrimSpace(gittest.Git(rx.t, rx.Remote.R, work, "rev-parse", "HEAD"))
}

// writeRandom writes n incompressible bytes seeded by seed to path.
func writeRandom(t testing.TB, path string, n int64, seed string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	var key [32]byte
	copy(key[:], seed)
	if _, err := io.CopyN(f, rand.NewChaCha8(key), n); err != nil {
		f.Close()
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// ForcePushTask rewrites the task branch to a new root commit holding s.
func (rx *RX) ForcePushTask(s tasktest.TaskSpec) string {
	rx.t.Helper()
	if s.ExpectedHead == "" {
		s.ExpectedHead = rx.Base
	}
	return gittest.Rewrite(rx.t, rx.Remote, tasktest.TaskBranch, map[string]string{tasktest.TaskPath: tasktest.TaskFile(s)})
}

// SetRemoteURL points the checkout's origin at url.
func (rx *RX) SetRemoteURL(url string) {
	rx.t.Helper()
	gittest.Git(rx.t, rx.Remote.R, rx.Dir, "remote", "set-url", "--", "origin", url)
}

// CountStarts counts the subprocess start lines in an audit log.
func CountStarts(t testing.TB, auditPath string) int {
	t.Helper()
	data, err := os.ReadFile(auditPath)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if bytes.Contains(sc.Bytes(), []byte(`"event":"start"`)) {
			n++
		}
	}
	return n
}

func appendFile(t testing.TB, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
}
