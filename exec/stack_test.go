package exec

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestRefusals(t *testing.T) {
	cases := []struct {
		name string
		role Role
		cmd  Cmd
	}{
		{"unknown tool", RoleCapture, Cmd{Tool: "bash", Args: []string{"-c", "id"}}},
		{"rx transmit", RoleCapture, Cmd{Tool: HackRFTransfer, Args: []string{"-t", "/tmp/x.iq", "-n", "10"}}},
		{"rx cw", RoleCapture, Cmd{Tool: HackRFTransfer, Args: []string{"-r", "/tmp/x", "-n", "10", "-c", "1"}}},
		{"rx glued -t", RoleCapture, Cmd{Tool: HackRFTransfer, Args: []string{"-r", "/tmp/x", "-n", "10", "-t/tmp/y"}}},
		{"rx value is option", RoleCapture, Cmd{Tool: HackRFTransfer, Args: []string{"-r", "-t", "-n", "10"}}},
		{"rx unbounded", RoleCapture, Cmd{Tool: HackRFTransfer, Args: []string{"-r", "/tmp/x"}}},
		{"tx receive", RoleTransmit, Cmd{Tool: HackRFTransfer, Args: []string{"-r", "/tmp/x", "-n", "10"}}},
		{"tx trigger", RoleTransmit, Cmd{Tool: HackRFTransfer, Args: []string{"-t", "/tmp/x", "-n", "10", "-H"}}},
		{"tx force range", RoleTransmit, Cmd{Tool: HackRFTransfer, Args: []string{"-t", "/tmp/x", "-n", "10", "-F"}}},
		{"none transfer", RoleProbe, Cmd{Tool: HackRFTransfer, Args: []string{"-r", "/tmp/x", "-n", "10"}}},
		{"git upload-pack", RoleProbe, Cmd{Tool: Git, Args: []string{"ls-remote", "--upload-pack=touch /tmp/pwn", "x"}}},
		{"git config injection", RoleProbe, Cmd{Tool: Git, Args: []string{"-c", "core.pager=sh", "log"}}},
		{"git forced refspec", RoleProbe, Cmd{Tool: Git, Args: []string{"fetch", "origin", "+refs/heads/a:refs/remotes/origin/a"}}},
		{"git force push", RoleProbe, Cmd{Tool: Git, Args: []string{"push", "--force", "origin", "HEAD:refs/heads/x"}}},
		{"git unknown subcommand", RoleProbe, Cmd{Tool: Git, Args: []string{"filter-branch"}}},
		{"git rev-list output file", RoleProbe, Cmd{Tool: Git, Args: []string{"rev-list", "--output=/tmp/pwn", "HEAD"}}},
		{"git mirror fetch forced", RoleCapture, Cmd{Tool: Git, Args: []string{"fetch", "--refetch", "--filter=blob:limit=65537", "origin", "+refs/heads/a:refs/remotes/origin/a"}}},
		{"info extra arg", RoleCapture, Cmd{Tool: HackRFInfo, Args: []string{"-x"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, logPath := newStack(t, tc.role, os.Environ())
			_, err := s.Run(context.Background(), tc.cmd)
			var de *deniedError
			if !errors.As(err, &de) {
				t.Fatalf("got %v, want *deniedError", err)
			}
			entries, err := ReadAuditTail(logPath, 0)
			if err != nil {
				t.Fatal(err)
			}
			if len(entries) != 1 || entries[0].Event != EventRefused || entries[0].Reason == "" {
				t.Fatalf("audit = %+v, want one refused line with a reason", entries)
			}
		})
	}
}

// The mirror's own calls pass the git rules (the presence check, the
// blobless and the bounded fetch).
func TestGitAllowsMirrorArgs(t *testing.T) {
	for _, args := range [][]string{
		{"rev-list", "--objects", "--missing=print", "--end-of-options", "0123456789abcdef0123456789abcdef01234567"},
		{"fetch", "--no-tags", "--filter=blob:none", "--end-of-options", "origin", "refs/heads/a:refs/remotes/origin/a"},
		{"fetch", "--refetch", "--filter=blob:limit=65537", "--end-of-options", "origin", "0123456789abcdef0123456789abcdef01234567"},
		{"init", "--quiet", "--bare", "--end-of-options", "/state/mirror-rx.git.tmp-1"},
	} {
		if r := checkArgs(RoleCapture, Git, args); r != "" {
			t.Errorf("%v refused: %s", args, r)
		}
	}
}

func TestRXAllowsBoundedReceiveArgs(t *testing.T) {
	if r := checkArgs(RoleCapture, HackRFTransfer, []string{"-r", "/x.ci8", "-f", "433920000", "-s", "2000000", "-l", "16", "-g", "20", "-a", "0", "-n", "240000000", "-B"}); r != "" {
		t.Fatalf("bounded receive refused: %s", r)
	}
	if r := checkArgs(RoleCapture, HackRFTransfer, []string{"-r", "/x.ci8", "-f", "433920000", "-s", "2000000", "-n", "240000000", "-B", "-H"}); r != "" {
		t.Fatalf("bounded receive on the trigger's edge refused: %s", r)
	}
	if r := checkArgs(RoleTransmit, HackRFTransfer, []string{"-t", "/x.iq", "-f", "433920000", "-s", "2000000", "-x", "0", "-a", "0", "-n", "20000000"}); r != "" {
		t.Fatalf("bounded transmit refused: %s", r)
	}
}

func TestRelativePinnedPathRefused(t *testing.T) {
	s, _ := newStack(t, RoleProbe, os.Environ(), func(o *Options) { o.Tools[Git] = "git" })
	_, err := s.Run(context.Background(), Cmd{Tool: Git, Args: []string{"version"}})
	var ni *notInstalledError
	if !errors.As(err, &ni) {
		t.Fatalf("got %v, want *notInstalledError", err)
	}
}

func TestRelativePATHEntryNotUsed(t *testing.T) {
	dir := helperDir(t)
	t.Chdir(dir)
	// "." on PATH would find ./hackrf_info; it must not be used.
	s, _ := newStack(t, RoleProbe, []string{"PATH=."}, func(o *Options) { delete(o.Tools, HackRFInfo) })
	if _, ok := s.Paths()[HackRFInfo]; ok {
		t.Fatalf("hackrf_info resolved through a relative PATH entry: %v", s.Paths())
	}
}

func TestChildEnvironmentIsBuilt(t *testing.T) {
	parent := []string{
		"PATH=/usr/bin:/bin", "HOME=/home/op", "SSH_AUTH_SOCK=/run/agent.sock",
		"XDG_CONFIG_HOME=/home/op/.config", "HACKRF_SIM=noclock", "HACKRF_SIM_PPS_OFFSET_NS=-250000000",
		"GIT_DIR=/evil", "GIT_WORK_TREE=/evil", "GIT_CONFIG_GLOBAL=/evil/cfg",
		"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=core.pager", "GIT_EXEC_PATH=/evil",
		"GIT_ASKPASS=/evil/askpass", "GIT_SSH_COMMAND=evil", "LD_PRELOAD=/evil.so",
		"LANG=de_DE.UTF-8", "RANDOM_SECRET=x",
	}
	s, _ := newStack(t, RoleProbe, parent)
	res, err := s.Run(context.Background(), Cmd{Tool: HackRFInfo, Args: []string{"-d", "printenv"}, Env: []string{"GIT_AUTHOR_NAME=rfhandoff"}})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(string(res.Stdout)), "\n") {
		k, v, _ := strings.Cut(l, "=")
		got[k] = v
	}
	want := map[string]string{
		"HOME": "/home/op", "SSH_AUTH_SOCK": "/run/agent.sock", "XDG_CONFIG_HOME": "/home/op/.config",
		"HACKRF_SIM": "noclock", "HACKRF_SIM_PPS_OFFSET_NS": "-250000000", "LC_ALL": "C", "GIT_TERMINAL_PROMPT": "0", "GIT_AUTHOR_NAME": "rfhandoff",
		"PATH": "/usr/bin:/bin",
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
	for _, k := range []string{"GIT_DIR", "GIT_WORK_TREE", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_COUNT", "GIT_CONFIG_KEY_0", "GIT_EXEC_PATH", "GIT_ASKPASS", "GIT_SSH_COMMAND", "LD_PRELOAD", "LANG", "RANDOM_SECRET"} {
		if _, ok := got[k]; ok {
			t.Errorf("%s leaked into the child", k)
		}
	}
}

func TestExitErrorCarriesArgvCodeAndStderr(t *testing.T) {
	s, _ := newStack(t, RoleProbe, os.Environ())
	_, err := s.Run(context.Background(), Cmd{Tool: HackRFInfo, Args: []string{"-d", "exit=7"}})
	var ee *ExitError
	if !errors.As(err, &ee) {
		t.Fatalf("got %v, want *ExitError", err)
	}
	if ee.Code != 7 || ee.Tool != HackRFInfo || !strings.Contains(ee.StderrTail, "failing on purpose") || ee.Argv[len(ee.Argv)-1] != "exit=7" {
		t.Fatalf("ExitError = %+v", ee)
	}
}

func TestTimeoutKillsStubbornProcessAndItsChildren(t *testing.T) {
	s, _ := newStack(t, RoleProbe, os.Environ())
	pidFile := filepath.Join(helperDirOf(t, s), "grandchild.pid")
	timeout := 1500 * time.Millisecond
	res, err := s.Run(context.Background(), Cmd{Tool: HackRFInfo, Args: []string{"-d", "stubborn=" + pidFile}, Timeout: timeout})
	var te *timeoutError
	if !errors.As(err, &te) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("got %v (%+v), want *timeoutError", err, res)
	}
	if res.Duration < timeout {
		t.Errorf("a call that timed out reports %v, less than its timeout %v", res.Duration, timeout)
	}
	data, rerr := os.ReadFile(pidFile)
	if rerr != nil {
		t.Fatalf("grandchild never started: %v", rerr)
	}
	pid, _ := strconv.Atoi(string(data))
	deadline := time.Now().Add(10 * time.Second)
	for {
		if processGone(pid) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("grandchild %d still alive after the group was killed", pid)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func helperDirOf(t *testing.T, s *Stack) string {
	return filepath.Dir(s.Paths()[HackRFInfo])
}

func TestOutputCap(t *testing.T) {
	s, _ := newStack(t, RoleProbe, os.Environ())
	_, err := s.Run(context.Background(), Cmd{Tool: HackRFInfo, Args: []string{"-d", "flood"}, MaxOutput: 4096})
	var oe *outputLimitError
	if !errors.As(err, &oe) || oe.Limit != 4096 {
		t.Fatalf("got %v, want *outputLimitError", err)
	}
}

func TestStartInterruptWait(t *testing.T) {
	s, logPath := newStack(t, RoleProbe, os.Environ())
	var out lockedBuffer
	p, err := s.Start(context.Background(), Cmd{Tool: HackRFInfo, Args: []string{"-d", "sigint-clean"}, Stdout: &out})
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(out.String(), "ready") && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if err := p.Interrupt(); err != nil {
		t.Fatal(err)
	}
	res, err := p.Wait()
	if err != nil || res.ExitCode != 0 || !strings.Contains(string(res.Stderr), "Caught signal") {
		t.Fatalf("res=%+v err=%v", res, err)
	}
	entries, _ := ReadAuditTail(logPath, 0)
	if len(entries) != 2 || entries[0].Event != EventStart || entries[1].Event != EventEnd || entries[1].Pid != p.Pid() || entries[0].ID != entries[1].ID {
		t.Fatalf("audit entries = %+v", entries)
	}
}

// lockedBuffer lets a test read what a child writes while it writes.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// A log that is replaced, after it was opened, by what records nothing (a
// symlink to /dev/full or /dev/null) fails every later append: nothing runs.
func TestFailClosedAuditLog(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no /dev/full; symlinks need privileges")
	}
	for _, dev := range []string{"/dev/full", os.DevNull} {
		dir := helperDir(t)
		path := filepath.Join(t.TempDir(), "audit.jsonl")
		log, err := OpenAuditLog(path)
		if err != nil {
			t.Fatal(err)
		}
		s, err := New(Options{Role: RoleProbe, Audit: log, Tools: map[Tool]string{HackRFInfo: filepath.Join(dir, helperExe)}})
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Remove(path); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(dev, path); err != nil {
			t.Fatal(err)
		}
		marker := filepath.Join(t.TempDir(), "ran")
		_, err = s.Run(context.Background(), Cmd{Tool: HackRFInfo, Args: []string{"-d", "touch=" + marker}})
		var ae *auditError
		if !errors.As(err, &ae) || !errors.Is(err, errNotRegular) {
			t.Fatalf("%s: got %v, want an *auditError: not a regular file", dev, err)
		}
		if _, err := os.Stat(marker); !os.IsNotExist(err) {
			t.Fatalf("%s: the process ran although its audit line could not be written", dev)
		}
	}
}

func TestGitHardeningFlagsReachGit(t *testing.T) {
	s, logPath := newStack(t, RoleProbe, os.Environ(), func(o *Options) { o.GitProtocols = []string{"file"} })
	if _, ok := s.Paths()[Git]; !ok {
		t.Skip("git not installed")
	}
	for key, want := range map[string]string{
		"core.fsmonitor": "false", "transfer.fsckobjects": "true", "protocol.allow": "never",
		"protocol.file.allow": "always", "submodule.recurse": "false",
	} {
		res, err := s.Run(context.Background(), Cmd{Tool: Git, Args: []string{"config", "--get", key}, Dir: t.TempDir()})
		if err != nil || strings.TrimSpace(string(res.Stdout)) != want {
			t.Errorf("git config %s = %q (%v), want %q", key, res.Stdout, err, want)
		}
	}
	res, err := s.Run(context.Background(), Cmd{Tool: Git, Args: []string{"config", "--get", "core.hooksPath"}, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	hooks := strings.TrimSpace(string(res.Stdout))
	if entries, err := os.ReadDir(hooks); err != nil || len(entries) != 0 {
		t.Fatalf("hooks path %q is not an empty directory: %v", hooks, err)
	}
	if _, err := VerifyAuditLog(logPath); err != nil {
		t.Fatal(err)
	}
}

func TestCredentialsRedacted(t *testing.T) {
	s, logPath := newStack(t, RoleProbe, os.Environ(), func(o *Options) { o.GitProtocols = []string{"http"} })
	if _, ok := s.Paths()[Git]; !ok {
		t.Skip("git not installed")
	}
	url := "http://operator:s3cretPassw0rd@127.0.0.1:1/repo.git"
	_, err := s.Run(context.Background(), Cmd{Tool: Git, Args: []string{"ls-remote", "--end-of-options", url}, Dir: t.TempDir(), Timeout: 20 * time.Second})
	if err == nil {
		t.Fatal("ls-remote to a closed port succeeded")
	}
	if strings.Contains(err.Error(), "s3cretPassw0rd") {
		t.Fatalf("password in error: %v", err)
	}
	data, _ := os.ReadFile(logPath)
	if strings.Contains(string(data), "s3cretPassw0rd") {
		t.Fatalf("password in audit log:\n%s", data)
	}
	if !strings.Contains(string(data), "operator:"+Redacted+"@127.0.0.1") {
		t.Fatalf("redacted URL missing from the audit log:\n%s", data)
	}
}

func TestRedact(t *testing.T) {
	cases := map[string]string{
		"https://u:p@host/x":               "https://u:REDACTED@host/x",
		"ssh://git@host/x":                 "ssh://git@host/x",
		"git@host:x":                       "git@host:x",
		"x https://a:b@h/ y http://c:d@e/": "x https://a:REDACTED@h/ y http://c:REDACTED@e/",
	}
	for in, want := range cases {
		if got := redactString(in, nil); got != want {
			t.Errorf("redact(%q) = %q, want %q", in, got, want)
		}
	}
	if got := redactString("token=abc123", []string{"abc123"}); got != "token=REDACTED" {
		t.Errorf("secret not redacted: %q", got)
	}
}

func TestProtocolOf(t *testing.T) {
	for in, want := range map[string]string{
		"/srv/git/x.git": "file", "file:///srv/x": "file", "https://h/x": "https",
		"git@github.com:o/r.git": "ssh", "ssh://h/x": "ssh", "git://127.0.0.1/x": "git", "../x.git": "file",
	} {
		if got := ProtocolOf(in); got != want {
			t.Errorf("ProtocolOf(%q) = %q, want %q", in, got, want)
		}
	}
}

// The keys that make git start a program are pinned over every config
// file (PROTOCOL#subprocesses): a repository's own values lose, and the policy's
// ssh command and credential helper are the ones git reads.
func TestGitProgramPinsWinOverTheRepository(t *testing.T) {
	s, _ := newStack(t, RoleProbe, os.Environ(), func(o *Options) {
		o.GitProtocols = []string{"file"}
		o.SSHCommand = "ssh -F /policy/ssh_config"
		o.CredentialHelper = "/policy/helper"
	})
	if _, ok := s.Paths()[Git]; !ok {
		t.Skip("git not installed")
	}
	repo := t.TempDir()
	git := func(args ...string) (string, error) {
		res, err := s.Run(context.Background(), Cmd{Tool: Git, Args: args, Dir: repo, Env: []string{"GIT_DIR=" + repo}})
		return strings.TrimSpace(string(res.Stdout)), err
	}
	if _, err := git("init", "--bare", "--quiet", repo); err != nil {
		t.Fatal(err)
	}
	for _, kv := range [][2]string{
		{"core.sshCommand", "/repo/evil"}, {"credential.helper", "/repo/evil"},
		{"credential.https://example.com.helper", "/repo/evil"}, {"core.askPass", "/repo/evil"},
		{"core.alternateRefsCommand", "/repo/evil"}, {"core.gitProxy", "/repo/evil"},
		{"core.pager", "/repo/evil"}, {"commit.gpgSign", "true"}, {"push.gpgSign", "true"},
		{"fetch.fsckObjects", "false"}, {"transfer.fsckObjects", "false"},
	} {
		if _, err := git("config", kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
	}
	for key, want := range map[string]string{
		"core.sshCommand": "ssh -F /policy/ssh_config", "core.askPass": "", "core.alternateRefsCommand": "",
		"core.gitProxy": "", "core.pager": "cat", "commit.gpgSign": "false", "push.gpgSign": "false",
		"fetch.fsckObjects": "true", "transfer.fsckObjects": "true",
	} {
		if got, err := git("config", "--get", key); err != nil || got != want {
			t.Errorf("git config %s = %q (%v), want %q", key, got, err, want)
		}
	}
	// The helper settings in the order git reads them: the empty value
	// resets the list, so only what follows it counts.
	got, err := git("config", "--get-regexp", `^credential\..*helper$`)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(got, "\n")
	if len(lines) < 3 || lines[len(lines)-2] != "credential.helper " || lines[len(lines)-1] != "credential.helper /policy/helper" {
		t.Errorf("credential helper settings %q, want the repository's, then \"\", then /policy/helper", lines)
	}
}

// What a commit ID names is what git reads (PROTOCOL#subprocesses): a repository
// turning replace refs on in its config (core.useReplaceRefs, which git
// reads after GIT_NO_REPLACE_OBJECTS) and a grafts file change nothing:
// cat-file shows the blob itself, rev-list the commit's own parents, and
// the pins that keep it so are what git reads.
func TestGitHistoryPinsWinOverTheRepository(t *testing.T) {
	s, _ := newStack(t, RoleProbe, os.Environ(), func(o *Options) { o.GitProtocols = []string{"file"} })
	if _, ok := s.Paths()[Git]; !ok {
		t.Skip("git not installed")
	}
	repo := t.TempDir()
	git := func(stdin string, args ...string) string {
		t.Helper()
		res, err := s.Run(context.Background(), Cmd{Tool: Git, Args: args, Dir: repo, Env: []string{"GIT_DIR=" + repo},
			Stdin: strings.NewReader(stdin)})
		if err != nil {
			t.Fatalf("git %v: %v", args, err)
		}
		return strings.TrimSpace(string(res.Stdout))
	}
	git("", "init", "--bare", "--quiet", repo)
	signed := git("signed bytes\n", "hash-object", "-w", "--stdin")
	forged := git("forged bytes\n", "hash-object", "-w", "--stdin")
	raw, err := hex.DecodeString(signed)
	if err != nil {
		t.Fatal(err)
	}
	tree := git("100644 f\x00"+string(raw), "hash-object", "-t", "tree", "-w", "--stdin")
	env := []string{"GIT_DIR=" + repo, "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t"}
	commit := func(msg string, parents ...string) string {
		t.Helper()
		args := []string{"commit-tree"}
		for _, p := range parents {
			args = append(args, "-p", p)
		}
		res, err := s.Run(context.Background(), Cmd{Tool: Git, Args: append(args, "-m", msg, "--end-of-options", tree), Dir: repo, Env: env})
		if err != nil {
			t.Fatalf("commit-tree: %v", err)
		}
		return strings.TrimSpace(string(res.Stdout))
	}
	base, other := commit("base"), commit("other")
	tip := commit("tip", base)
	git("", "update-ref", "refs/replace/"+signed, forged)
	git("", "config", "core.useReplaceRefs", "true")
	if err := os.WriteFile(filepath.Join(repo, "info", "grafts"), []byte(tip+" "+other+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := git("", "cat-file", "blob", signed); got != "signed bytes" {
		t.Errorf("cat-file blob %s = %q: the replace ref was honoured", signed, got)
	}
	res, err := s.Run(context.Background(), Cmd{Tool: Git, Args: []string{"rev-list", "--parents", "-n", "1", tip}, Dir: repo, Env: []string{"GIT_DIR=" + repo}})
	if got := strings.TrimSpace(string(res.Stdout)); err != nil || got != tip+" "+base {
		t.Errorf("rev-list --parents %s = %q (%v), want its own parent %s: the grafts file was honoured", tip, got, err, base)
	}
	if len(res.Stderr) != 0 {
		t.Errorf("rev-list wrote to stderr (parsers read it): %s", res.Stderr)
	}
	for key, want := range map[string]string{"core.useReplaceRefs": "false", "core.commitGraph": "false", "core.unsetEnvVars": "PERL5LIB", "maintenance.auto": "false"} {
		if got := git("", "config", "--get", key); got != want {
			t.Errorf("git config %s = %q, want %q", key, got, want)
		}
	}
}

// A git call's remote URL is on its audit line, credentials redacted.
func TestRemoteURLOnAuditLine(t *testing.T) {
	s, logPath := newStack(t, RoleProbe, os.Environ())
	if _, ok := s.Paths()[Git]; !ok {
		t.Skip("git not installed")
	}
	if _, err := s.Run(context.Background(), Cmd{Tool: Git, Args: []string{"version"}, Dir: t.TempDir(),
		Remote: "https://operator:s3cret@example.invalid/lab.git"}); err != nil {
		t.Fatal(err)
	}
	es, err := ReadAuditTail(logPath, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(es) == 0 || es[0].Event != EventStart || es[0].Remote != "https://operator:"+Redacted+"@example.invalid/lab.git" {
		t.Fatalf("audit lines %+v: want a start line naming the redacted remote URL", es)
	}
}

// The remote's upload-pack and receive-pack, which git takes from the
// first config file that names them, are given on the command line.
func TestGitRemotePinsInArgv(t *testing.T) {
	s, _ := newStack(t, RoleProbe, os.Environ(), argvOnlyGit(t))
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"fetch", "--end-of-options", "origin"}, "--upload-pack=git-upload-pack"},
		{[]string{"ls-remote", "--end-of-options", "origin"}, "--upload-pack=git-upload-pack"},
		{[]string{"clone", "--end-of-options", "/x", "/y"}, "--upload-pack=git-upload-pack"},
		{[]string{"push", "--end-of-options", "origin", "HEAD:refs/heads/x"}, "--receive-pack=git-receive-pack"},
	} {
		_, args, err := s.prepare(Cmd{Tool: Git, Args: c.args})
		if err != nil {
			t.Fatal(err)
		}
		i := slices.Index(args, c.args[0])
		if i < 0 || i+1 >= len(args) || args[i+1] != c.want {
			t.Errorf("git %s: argv %q, want %s right after the subcommand", c.args[0], args, c.want)
		}
	}
}

// Only a blobless fetch may run without git's own object check, and it
// then still carries the levels for the caller's fsck.
func TestDeferObjectCheckOnlyForABloblessFetch(t *testing.T) {
	s, _ := newStack(t, RoleProbe, os.Environ(), argvOnlyGit(t))
	for _, args := range [][]string{
		{"fetch", "--end-of-options", "origin", "--filter=blob:none"},
		{"fetch", "--end-of-options", "origin"},
		{"clone", "--filter=blob:none", "--end-of-options", "/x", "/y"},
		{"log", "--filter=blob:none"},
	} {
		if _, _, err := s.prepare(Cmd{Tool: Git, Args: args, DeferObjectCheck: true}); err == nil {
			t.Errorf("git %q with DeferObjectCheck was allowed", args)
		}
	}
	_, args, err := s.prepare(Cmd{Tool: Git, Args: []string{"fetch", "--filter=blob:none", "--end-of-options", "origin"}, DeferObjectCheck: true})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(args, "fetch.fsckObjects=false") || !slices.Contains(args, "fetch.fsck.badDate=warn") {
		t.Errorf("argv %q", args)
	}
	_, args, _ = s.prepare(Cmd{Tool: Git, Args: []string{"fetch", "--filter=blob:none", "--end-of-options", "origin"}})
	if slices.Contains(args, "fetch.fsckObjects=false") || !slices.Contains(args, "fetch.fsck.hasDotgit=error") {
		t.Errorf("argv without DeferObjectCheck %q", args)
	}
}

// argvOnlyGit pins git to a stand-in that is never run: the tests using it
// assert argv only, so they need no git installed (Wine has none).
func argvOnlyGit(t *testing.T) func(*Options) {
	git := fakeProgram(t, t.TempDir(), "git")
	return func(o *Options) {
		o.GitProtocols = []string{"file"}
		o.Tools = map[Tool]string{Git: git}
	}
}

// Each role starts what it is named for and nothing else (PROTOCOL#subprocesses):
// every allowlisted tool with arguments its rules accept, judged for every
// role against the table written out here.
func TestRolesStartOnlyWhatTheyPermit(t *testing.T) {
	receive := []string{"-r", "/x.cs8", "-f", "433920000", "-s", "2000000", "-n", "2000000"}
	transmit := []string{"-t", "/x.iq", "-f", "433920000", "-s", "2000000", "-x", "0", "-n", "2000000"}
	calls := []struct {
		name string
		tool Tool
		args []string
	}{
		{"git", Git, []string{"version"}},
		{"clock query", Timedatectl, TimedatectlArgs},
		{"clock query (Windows)", W32tm, W32tmArgs},
		{"clock report", Chronyc, ChronycArgs},
		{"hackrf_info", HackRFInfo, nil},
		{"hackrf_clock", HackRFClock, []string{"-i"}},
		{"receive", HackRFTransfer, receive},
		{"transmit", HackRFTransfer, transmit},
		{"notify", Notify, []string{"{event}"}},
	}
	may := map[Role][]string{
		RoleGit:      {"git", "clock query", "clock query (Windows)"},
		RoleProbe:    {"git", "clock query", "clock query (Windows)", "clock report", "hackrf_info", "hackrf_clock"},
		RoleCapture:  {"git", "clock query", "clock query (Windows)", "clock report", "hackrf_info", "hackrf_clock", "receive"},
		RoleTransmit: {"git", "clock query", "clock query (Windows)", "transmit"},
		RoleNotify:   {"notify"},
	}
	for role, allowed := range may {
		for _, c := range calls {
			reason := checkArgs(role, c.tool, c.args)
			if want := slices.Contains(allowed, c.name); want != (reason == "") {
				t.Errorf("role %s, %s %v: refused %q, want allowed %v", role, c.tool, c.args, reason, want)
			}
		}
	}
	if _, err := New(Options{Role: "rx", Audit: NewPendingAuditLog()}); err == nil {
		t.Error("a stack of an unknown role was built")
	}
}

// WithGitProtocols allows exactly the transports it is given: a stack
// narrowed to file and then to http allows http alone, never both.
func TestWithGitProtocolsNarrowsExactly(t *testing.T) {
	base, _ := newStack(t, RoleProbe, os.Environ())
	if _, ok := base.Paths()[Git]; !ok {
		t.Skip("git not installed")
	}
	get := func(s *Stack, key string) string {
		res, _ := s.Run(context.Background(), Cmd{Tool: Git, Args: []string{"config", "--get", key}, Dir: t.TempDir()})
		return strings.TrimSpace(string(res.Stdout))
	}
	file, err := base.WithGitProtocols([]string{"file"})
	if err != nil {
		t.Fatal(err)
	}
	http, err := file.WithGitProtocols([]string{"http"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		s          *Stack
		file, http string
	}{{base, "", ""}, {file, "always", ""}, {http, "", "always"}} {
		if f, h := get(c.s, "protocol.file.allow"), get(c.s, "protocol.http.allow"); f != c.file || h != c.http {
			t.Errorf("protocol.file.allow=%q protocol.http.allow=%q, want %q and %q", f, h, c.file, c.http)
		}
	}
	if _, err := base.WithGitProtocols([]string{"ext"}); err == nil {
		t.Error("the ext transport was allowed")
	}
}
