package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"rfhandoff/config"
	"rfhandoff/errlist"
	"rfhandoff/exec"
	"rfhandoff/gitcli"
	"rfhandoff/localfile/private"
	"rfhandoff/mirror"
	"rfhandoff/notify"
)

// Globals are the options every command takes.
type Globals struct {
	Config    string `help:"Policy file, kept outside every git working tree (default: $RFHANDOFF_CONFIG, else ./rfhandoff.toml when it exists, else built-in defaults)." type:"path" placeholder:"FILE"`
	LogFormat string `help:"Log format." enum:"text,json" default:"text" name:"log-format"`
	Verbose   bool   `short:"v" help:"Verbose (debug) logging; audit show prints each subprocess's whole argv."`
}

// App is what every command's Run receives.
type App struct {
	Ctx        context.Context
	Stdout     io.Writer
	Stderr     io.Writer
	Policy     config.Policy
	PolicyFile string // "" when the built-in defaults are in force
	Logger     *slog.Logger
	Environ    []string // what children's environments are built from
	Globals             // as given: CommandLine repeats only an explicit --config
	// LongRunning: the watchers run for days, so Git asks for the remote's
	// URL on every use.
	LongRunning bool

	mu      sync.Mutex
	remotes map[string]string // remote URLs read while building a runner (gitcli.Client.RemoteURLs)
	audit   *exec.AuditLog
	runners map[exec.Role]*exec.Stack
	// checkStack ran the checkout checks; Stack(RoleGit) narrows it.
	checkStack *exec.Stack
	ignored    gitcli.IgnoredDirs // what RequireIgnored confirmed in this process
	notifier   *notify.Dispatcher
	setupErr   error // why the checkout checks or the audit log refused (asked once)
}

func newApp(ctx context.Context, g *Globals, stdout, stderr io.Writer) (*App, error) {
	path, err := config.Locate(g.Config, os.Getenv, func(p string) error { _, err := os.Stat(p); return err })
	if err != nil {
		return nil, err
	}
	pol, err := config.LoadLocated(path)
	if err != nil {
		return nil, err
	}
	level := slog.LevelInfo
	if g.Verbose {
		level = slog.LevelDebug
	}
	opts := &slog.HandlerOptions{Level: level}
	var h slog.Handler = slog.NewTextHandler(stderr, opts)
	if g.LogFormat == "json" {
		h = slog.NewJSONHandler(stderr, opts)
	}
	return &App{
		Ctx: ctx, Stdout: stdout, Stderr: stderr,
		Policy: pol, PolicyFile: path, Logger: slog.New(h),
		Environ: os.Environ(), Globals: *g,
		runners: map[exec.Role]*exec.Stack{},
	}, nil
}

// Git is git on the checkout through r. It reuses the remote's URL read
// to build the runner, unless the command watches (LongRunning): a watcher
// then sees a remote the operator changed.
func (a *App) Git(r exec.Runner) *gitcli.Client {
	g := a.gitClient(r)
	if !a.LongRunning {
		a.mu.Lock()
		g.RemoteURLs = maps.Clone(a.remotes)
		a.mu.Unlock()
	}
	return g
}

// gitClient is git on the checkout through r, sharing a.ignored.
func (a *App) gitClient(r exec.Runner) *gitcli.Client {
	return &gitcli.Client{R: r, Dir: a.Policy.Repo.Path, Timeout: a.Policy.Poll.GitTimeout.Duration, Ignored: &a.ignored}
}

// work is a command's audited runner of its role, the audit log (a
// publisher puts its head into the commit trailer) and git through it.
type work struct {
	Runner exec.Runner
	Audit  *exec.AuditLog
	Git    *gitcli.Client
}

func (a *App) work(role exec.Role) (work, error) {
	r, err := a.Stack(role)
	if err != nil {
		return work{}, err
	}
	return work{Runner: r, Audit: a.audit, Git: a.Git(r)}, nil // Stack opened a.audit
}

// AuditLog opens the side's audit log once: nothing is written before the
// checkout checks pass, and their git calls are written first.
func (a *App) AuditLog() (*exec.AuditLog, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.audit == nil { // a later call gets the same answer
		a.audit = exec.NewPendingAuditLog()
		a.setupErr = a.openAudit()
	}
	if a.setupErr != nil {
		return nil, a.setupErr
	}
	return a.audit, nil
}

// openAudit runs the checkout checks, then creates the state and audit
// log directories private, or checks existing ones (and the log) are
// changeable by this account alone (PROTOCOL#rx-state): one another
// account could change is refused, never chmod'ed. The caller holds a.mu.
func (a *App) openAudit() error {
	if err := a.checkout(); err != nil {
		return err
	}
	if err := private.Mkdir(a.Policy.StatePath()); err != nil {
		return localError("state directory", err)
	}
	path := a.Policy.AuditPath()
	if err := private.Mkdir(filepath.Dir(path)); err != nil {
		return localError("audit log directory", err)
	}
	if err := privateIfThere("audit log", path); err != nil {
		return err
	}
	if err := a.audit.Open(path); err != nil {
		return err
	}
	if err := private.Check(path); err != nil { // made just now, or there before
		return localError("audit log", err)
	}
	return nil
}

// checkout is checked before any command writes (PROTOCOL#rx-state):
// repo.path is a checkout's top, git ignores the local directories in it
// and tracks nothing rfhandoff trusts. Its git calls go to the still
// pending audit log: a refusal writes nothing. The caller holds a.mu.
func (a *App) checkout() error {
	if err := a.Policy.InCheckout(); err != nil {
		return err
	}
	if err := a.existingLocal(); err != nil {
		return err
	}
	s, err := exec.New(a.stackOptions(exec.RoleGit, a.audit))
	if err != nil {
		return err
	}
	a.checkStack = s
	repo := a.Policy.Repo.Path
	git := a.gitClient(s)
	if err := git.RequireTop(a.Ctx); err != nil {
		return err
	}
	var errs []error
	for _, d := range a.Policy.LocalDirs() {
		if err := git.RequireIgnored(a.Ctx, repo, d.Dir, d.What); err != nil {
			errs = append(errs, err)
		}
	}
	// Before anything reads them: git may track none of what rfhandoff
	// trusts in the checkout (a pulled commit replaces such a file).
	if err := git.RequireUntracked(a.Ctx, repo, a.Policy.TrustedPaths()...); err != nil {
		errs = append(errs, err)
	}
	return errlist.List(errs...)
}

// existingLocal checks the local paths that exist, as openAudit does,
// before git is asked about them: a symlinked or foreign .local is refused
// as such (git would only say it cannot look through a link).
func (a *App) existingLocal() error {
	errs := []error{privateIfThere("state directory", a.Policy.StatePath())}
	if dir := filepath.Dir(a.Policy.AuditPath()); dir != a.Policy.StatePath() {
		errs = append(errs, privateIfThere("audit log directory", dir))
	}
	errs = append(errs, privateIfThere("audit log", a.Policy.AuditPath()))
	return errlist.List(errs...)
}

// privateIfThere is private.Check of path, unless nothing is there.
func privateIfThere(what, path string) error {
	if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err := private.Check(path); err != nil {
		return localError(what, err)
	}
	return nil
}

// localError names the path once: "state directory /x/.local: writable by ...".
func localError(what string, err error) error {
	if pe, ok := errors.AsType[*fs.PathError](err); ok {
		return fmt.Errorf("%s %s: %w", what, pe.Path, pe.Err)
	}
	return fmt.Errorf("%s: %w", what, err)
}

func (a *App) toolPaths() map[exec.Tool]string {
	t := a.Policy.Tools
	return map[exec.Tool]string{
		exec.Git: t.Git, exec.HackRFInfo: t.HackRFInfo,
		exec.HackRFTransfer: t.HackRFTransfer, exec.HackRFClock: t.HackRFClock,
	}
}

// Stack returns the audited runner for role, built once. The notifier's
// (exec.RoleNotify) can start the [notify] program and nothing else; git
// may use only the transport of the remote's URL (mirror.RemoteURL).
func (a *App) Stack(role exec.Role) (*exec.Stack, error) {
	log, err := a.AuditLog()
	if err != nil {
		return nil, err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if s := a.runners[role]; s != nil {
		return s, nil
	}
	s := a.checkStack
	if role != exec.RoleGit || s == nil {
		if s, err = exec.New(a.stackOptions(role, log)); err != nil {
			return nil, err
		}
	}
	// The notifier's runner starts no git: no git call builds it.
	if role != exec.RoleNotify {
		if proto := a.remoteProtocol(s); proto != "" {
			if s, err = s.WithGitProtocols([]string{proto}); err != nil {
				return nil, err
			}
		}
	}
	a.runners[role] = s
	return s, nil
}

func (a *App) stackOptions(role exec.Role, log *exec.AuditLog) exec.Options {
	o := exec.Options{
		Role: role, Tools: a.toolPaths(), Audit: log, Environ: a.Environ,
		SSHKeygen:      a.Policy.Tools.SSHKeygen, // never the notification program (exec.ResolveNotify)
		DefaultTimeout: a.Policy.Poll.GitTimeout.Duration,
	}
	if role == exec.RoleNotify {
		o.NotifyProgram = a.Policy.NotifyProgram()
	} else {
		o.SSHCommand = a.Policy.Tools.SSHCommand
		o.CredentialHelper = a.Policy.Tools.GitCredentialHelper
	}
	return o
}

// remoteProtocol reads the remote's URL (kept for Git; the caller holds
// a.mu) and returns its transport, "" when unusable (the command then
// fails on opening the mirror, naming why).
func (a *App) remoteProtocol(r exec.Runner) string {
	name := a.Policy.Repo.Remote
	url, err := mirror.RemoteURL(a.Ctx, a.gitClient(r), a.Policy.Repo)
	if err != nil {
		return ""
	}
	if a.Policy.Repo.URL == "" {
		if a.remotes == nil {
			a.remotes = map[string]string{}
		}
		a.remotes[name] = url // checked, made absolute: RemoteURL gives it as it is
	}
	return exec.ProtocolOf(url)
}

// CommandLine is a command line for the operator to run next.
func (a *App) CommandLine(args ...string) string {
	words := []string{"rfhandoff"}
	if a.Config != "" {
		words = append(words, "--config", shellWord(a.Config))
	}
	return strings.Join(append(words, args...), " ")
}

// shellWord quotes s for a shell unless it holds only plain characters.
func shellWord(s string) string {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-+:=,@\\", r)) {
			return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
		}
	}
	return s
}
