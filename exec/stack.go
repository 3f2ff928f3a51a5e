package exec

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/cli/safeexec"

	"rfhandoff/backoff"
	"rfhandoff/errlist"
)

// Stack is the real Runner: every command is checked against the allowlist,
// written to the audit log (refused ones too), and only then started.
type Stack struct {
	role      Role
	paths     map[Tool]string
	missing   map[Tool]error
	audit     *AuditLog
	os        *osRunner
	startProc func(ctx context.Context, path string, c Cmd, timeout time.Duration) (*started, error)
	gitBase   []string // -c options of every git call, before the transports
	gitFlags  []string
	gitEnv    []string // after the caller's Env
	keygen    string   // or "" with keygenErr
	keygenErr error
}

var protocolName = regexp.MustCompile(`^[a-z][a-z0-9+.-]{0,15}$`)

// New resolves every tool once and builds the stack.
func New(o Options) (*Stack, error) {
	if o.Audit == nil {
		return nil, errors.New("exec: an audit log is required")
	}
	if _, ok := roleTools[o.Role]; !ok {
		return nil, fmt.Errorf("exec: unknown role %q", o.Role)
	}
	s := &Stack{
		role:  o.Role,
		audit: o.Audit,
		os: &osRunner{
			environ:   o.Environ,
			timeout:   positiveOr(o.DefaultTimeout, defaultTimeout),
			grace:     positiveOr(o.Grace, defaultGrace),
			maxOutput: positiveOr(o.MaxOutput, defaultMaxOutput),
		},
	}
	s.startProc = s.os.start
	if s.os.environ == nil {
		s.os.environ = os.Environ()
	}
	s.paths, s.missing = ResolveTools(o.Tools, s.os.environ)
	s.keygen, s.keygenErr = ResolveSSHKeygen(o.SSHKeygen, s.os.environ)
	s.resolveNotify(o.NotifyProgram)
	hooks := o.HooksDir
	if hooks == "" {
		var err error
		if hooks, err = emptyHooksDir(); err != nil {
			return nil, err
		}
	}
	pins, err := programPins(o.SSHCommand, o.CredentialHelper)
	if err != nil {
		return nil, err
	}
	s.gitBase = slices.Concat([]string{
		"-c", "core.hooksPath=" + hooks,
		"-c", "core.fsmonitor=false",
		"-c", "transfer.fsckObjects=true",
		"-c", "fetch.fsckObjects=true", // when set, it overrides transfer.fsckObjects
		"-c", "submodule.recurse=false",
		"-c", "protocol.allow=never",
		// Else every git log would start the signature program.
		"-c", "log.showSignature=false",
	}, historyPins, pins)
	return s.WithGitProtocols(o.GitProtocols)
}

// WithGitProtocols returns a copy of s whose git may use exactly the
// transports ps. A command reads the remote's URL with no transport
// allowed, then narrows git to that URL's.
func (s *Stack) WithGitProtocols(ps []string) (*Stack, error) {
	flags := slices.Clip(s.gitBase)
	for _, p := range ps {
		if !protocolName.MatchString(p) || p == "ext" {
			return nil, fmt.Errorf("exec: git protocol %q not allowed", p)
		}
		flags = append(flags, "-c", "protocol."+p+".allow=always")
	}
	c := *s
	c.gitFlags = flags
	// GIT_ALLOW_PROTOCOL overrides every config file's protocol.*.allow
	// (PROTOCOL#subprocesses); grafts would give a commit other parents.
	c.gitEnv = []string{
		"GIT_ALLOW_PROTOCOL=" + strings.Join(ps, ":"),
		"GIT_GRAFT_FILE=" + os.DevNull,
	}
	return &c, nil
}

// historyPins keep every git call reading the objects a commit ID names
// (PROTOCOL#subprocesses): config read after the environment must not undo it.
var historyPins = []string{
	// GIT_NO_REPLACE_OBJECTS yields to a file's core.useReplaceRefs=true,
	// and a replace ref swaps any object read by ID.
	"-c", "core.useReplaceRefs=false",
	// A commit-graph file answers parent lookups: it could rewire history.
	"-c", "core.commitGraph=false",
	// Else git warns about GIT_GRAFT_FILE on every call.
	"-c", "advice.graftFileDeprecated=false",
	// Windows: a listed GIT_CONFIG_PARAMETERS or GIT_ALLOW_PROTOCOL would be
	// removed from git's children. PERL5LIB is git's default.
	"-c", "core.unsetEnvVars=PERL5LIB",
}

// programPins override every config file's keys that make git start a
// program (PROTOCOL#subprocesses): git reads them last-one-wins, so the
// command line decides. First-one-wins keys are remotePins'.
func programPins(sshCommand, credentialHelper string) ([]string, error) {
	for _, v := range []struct{ key, val string }{{"ssh command", sshCommand}, {"credential helper", credentialHelper}} {
		if strings.ContainsAny(v.val, "\x00\r\n") {
			return nil, fmt.Errorf("exec: %s %q contains a line break or NUL", v.key, v.val)
		}
	}
	if sshCommand == "" {
		sshCommand = "ssh"
	}
	pins := []string{
		"-c", "core.sshCommand=" + sshCommand,
		"-c", "core.gitProxy=",
		"-c", "core.askPass=",
		"-c", "core.alternateRefsCommand=",
		// Signatures signs explicitly, with its own pinned program.
		"-c", "commit.gpgSign=false",
		"-c", "push.gpgSign=false",
		// Else a commit starts `git maintenance run --auto`, off the record.
		"-c", "maintenance.auto=false",
		"-c", "core.pager=cat", // git's "none"
		// Empty clears every helper configured before (credential.<url>.helper too).
		"-c", "credential.helper=",
	}
	if credentialHelper != "" {
		pins = append(pins, "-c", "credential.helper="+credentialHelper)
	}
	return pins, nil
}

// remotePins follow the subcommand's name: git takes the first
// uploadpack or receivepack of all config files, so only an option of the
// call overrides a repository's own.
func remotePins(sub string) []string {
	switch sub {
	case "fetch", "ls-remote", "clone":
		return []string{"--upload-pack=git-upload-pack"}
	case "push":
		return []string{"--receive-pack=git-receive-pack"}
	}
	return nil
}

// Paths returns the resolved absolute path of each tool found.
func (s *Stack) Paths() map[Tool]string { return maps.Clone(s.paths) }

// SSHKeygen is the ssh-keygen git is given for signatures, or why none
// was found.
func (s *Stack) SSHKeygen() (string, error) { return s.keygen, s.keygenErr }

// Missing returns why each unresolved tool could not be found.
func (s *Stack) Missing() map[Tool]error { return s.missing }

func (s *Stack) Role() Role { return s.role }

func (s *Stack) AuditLog() *AuditLog { return s.audit }

// ResolveTools resolves every allowlisted tool once: pinned paths must be
// absolute executables, the rest are looked up on environ's PATH.
func ResolveTools(pinned map[Tool]string, environ []string) (map[Tool]string, map[Tool]error) {
	paths, missing := map[Tool]string{}, map[Tool]error{}
	for _, t := range Tools {
		p, err := resolve(t, pinned[t], environ)
		if err != nil {
			missing[t] = err
			continue
		}
		paths[t] = p
	}
	return paths, missing
}

func resolve(t Tool, pinned string, environ []string) (string, error) {
	if pinned != "" {
		if !filepath.IsAbs(pinned) {
			return "", fmt.Errorf("pinned path %q is not absolute", pinned)
		}
		st, err := os.Stat(pinned)
		if err != nil {
			return "", err
		}
		if st.IsDir() || !executable(pinned, st.Mode()) {
			return "", fmt.Errorf("%s is not an executable file", pinned)
		}
		return pinned, nil
	}
	// A relative PATH entry could still yield a relative result.
	p, err := lookPath(string(t), environ)
	if err != nil {
		return "", err
	}
	if !filepath.IsAbs(p) {
		return "", fmt.Errorf("resolved to relative path %q", p)
	}
	return p, nil
}

func lookPath(name string, environ []string) (string, error) {
	path := ""
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok && envKey(k) == "PATH" {
			path = v
		}
	}
	if path == os.Getenv("PATH") {
		return safeexec.LookPath(name)
	}
	// A child PATH that differs from ours: scan it, skipping relative entries.
	for _, dir := range filepath.SplitList(path) {
		if !filepath.IsAbs(dir) {
			continue
		}
		for _, n := range exeNames(name) {
			p := filepath.Join(dir, n)
			if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && executable(p, st.Mode()) {
				return p, nil
			}
		}
	}
	return "", fmt.Errorf("%s: executable file not found in $PATH", name)
}

func emptyHooksDir() (string, error) {
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("rfhandoff-nohooks-%d", os.Getuid()))
	if err := os.Mkdir(dir, 0o700); err != nil && !os.IsExist(err) {
		return "", err
	}
	st, err := os.Lstat(dir)
	if err != nil {
		return "", err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", err
	}
	if !st.IsDir() || !privateMode(st.Mode()) || len(entries) != 0 {
		return "", fmt.Errorf("exec: %s must be an empty private directory to serve as git's hooks path", dir)
	}
	return dir, nil
}

// prepare returns the path and argv to run, or a refusal (already audited).
func (s *Stack) prepare(c Cmd) (string, []string, error) {
	args := c.Args
	path, ok := s.paths[c.Tool]
	// Rules before installation: a command that may not run is denied the
	// same way on every machine.
	reason := checkArgs(s.role, c.Tool, c.Args)
	missing, known := s.missing[c.Tool]
	if reason == "" && !ok && !known {
		reason = fmt.Sprintf("%q is not an allowlisted tool", c.Tool)
	}
	if reason == "" && c.Signatures != nil {
		if c.Tool != Git {
			reason = "signature options are only for git"
		} else {
			reason = c.Signatures.check(c.Args)
		}
	}
	if reason == "" && c.Tool == Git {
		reason = c.Signatures.signing(c.Args)
	}
	if reason == "" && c.DeferObjectCheck && (c.Tool != Git || !deferrable(c.Args)) {
		reason = "only a blobless git fetch may defer its object check"
	}
	if reason != "" {
		return "", nil, s.refuse(c, &deniedError{Tool: c.Tool, Reason: reason}, reason)
	}
	if !ok {
		return "", nil, s.refuse(c, &notInstalledError{Tool: c.Tool, Err: missing}, missing.Error())
	}
	if c.Signatures != nil && s.keygenErr != nil {
		return "", nil, s.refuse(c, &notInstalledError{Tool: SSHKeygen, Err: s.keygenErr}, s.keygenErr.Error())
	}
	if c.Tool == Git {
		flags := append([]string{}, s.gitFlags...)
		if c.Signatures != nil {
			flags = append(flags, c.Signatures.flags(s.keygen)...)
		}
		if c.DeferObjectCheck {
			flags = append(flags, "-c", "transfer.fsckObjects=false", "-c", "fetch.fsckObjects=false")
		}
		flags = append(flags, fsckPins(c.Args[0])...)
		args = append(append(append(flags, c.Args[0]), remotePins(c.Args[0])...), c.Args[1:]...)
	}
	return path, args, nil
}

// deferrable: a fetch with a filter (git then ignores fetch.fsck.* anyway).
func deferrable(args []string) bool {
	if len(args) == 0 || args[0] != "fetch" {
		return false
	}
	if i := slices.Index(args, "--end-of-options"); i >= 0 {
		args = args[:i]
	}
	return slices.ContainsFunc(args, func(a string) bool { return strings.HasPrefix(a, "--filter=") })
}

func (s *Stack) refuse(c Cmd, err error, reason string) error {
	_, aerr := s.audit.Append(Entry{
		Event: EventRefused, ID: newID(), Role: string(s.role), Tool: c.Tool,
		Argv: Redact(append([]string{string(c.Tool)}, c.Args...), c.Secrets),
		Dir:  c.Dir, Remote: remoteOf(c), Decision: "refused", Reason: reason,
	})
	return errlist.Join(err, aerr)
}

func (s *Stack) startEntry(id, path string, args []string, c Cmd) Entry {
	return Entry{
		Event: EventStart, ID: id, Role: string(s.role), Tool: c.Tool, Path: path,
		Argv: Redact(append([]string{path}, args...), c.Secrets),
		Dir:  c.Dir, Remote: remoteOf(c), Decision: "allowed",
	}
}

func remoteOf(c Cmd) string {
	if c.Remote == "" {
		return ""
	}
	return redactString(RedactURL(c.Remote), c.Secrets)
}

func (s *Stack) endEntry(id string, c Cmd, res Result, err error) Entry {
	code := res.ExitCode
	ms := res.Duration.Milliseconds()
	out := res.OutBytes
	e := Entry{Event: EventEnd, ID: id, Role: string(s.role), Tool: c.Tool, Pid: res.Pid,
		ExitCode: &code, Signal: res.Signal, DurationMS: &ms, OutBytes: &out}
	if err != nil {
		e.Error = redactString(err.Error(), c.Secrets)
	} else if c.Signatures != nil && c.Signatures.Describe != nil {
		e.Verified = redactString(c.Signatures.Describe(res.Stdout), c.Secrets)
	}
	return e
}

func (s *Stack) Run(ctx context.Context, c Cmd) (Result, error) {
	c.Timeout = positiveOr(c.Timeout, s.os.timeout)
	p, err := s.Start(ctx, c)
	if err != nil {
		return Result{}, err
	}
	return p.Wait()
}

func positiveOr[T int64 | time.Duration](v, d T) T {
	if v <= 0 {
		return d
	}
	return v
}

// A start the system refuses for a moment (transientStartError) is tried
// this often, pausing startPause, then twice that (PROTOCOL#subprocesses).
const startAttempts = 3

var startPause = 100 * time.Millisecond

// Start checks, audits and starts c; the end line is written by Wait.
func (s *Stack) Start(ctx context.Context, c Cmd) (Process, error) {
	path, args, err := s.prepare(c)
	if err != nil {
		return nil, err
	}
	c.Args = args
	if c.Tool == Git {
		c.Env = append(append([]string{}, c.Env...), s.gitEnv...)
	}
	// Each attempt has its own start and end line (PROTOCOL#subprocesses):
	// no process ran off the record, and none ran twice.
	for attempt := 1; ; attempt++ {
		id := newID()
		if _, err := s.audit.Append(s.startEntry(id, path, args, c)); err != nil {
			return nil, err // fail closed: no line, no process
		}
		st, err := s.startProc(ctx, path, c, c.Timeout)
		if err == nil {
			return &auditedProcess{started: st, stack: s, id: id, cmd: c}, nil
		}
		e := s.endEntry(id, c, Result{ExitCode: -1}, err)
		if _, aerr := s.audit.Append(e); aerr != nil {
			return nil, errlist.Join(err, aerr)
		}
		if attempt == startAttempts || !transientStartError(err) || !backoff.Sleep(ctx, time.Duration(attempt)*startPause) {
			return nil, err
		}
	}
}

type auditedProcess struct {
	*started
	stack *Stack
	id    string
	cmd   Cmd
	once  sync.Once
	res   Result
	err   error
}

func (p *auditedProcess) Wait() (Result, error) {
	p.once.Do(func() {
		p.res, p.err = p.started.Wait()
		if _, aerr := p.stack.audit.appendEnd(p.stack.endEntry(p.id, p.cmd, p.res, p.err)); aerr != nil {
			p.err = errlist.Join(p.err, aerr)
		}
	})
	return p.res, p.err
}

func newID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// ProtocolOf returns the git transport of a remote URL as git reads it:
// its scheme, "file" for a path (a drive path too), else "ssh" (scp-like).
func ProtocolOf(url string) string {
	if i := strings.Index(url, "://"); i > 0 {
		return strings.ToLower(url[:i])
	}
	if strings.HasPrefix(url, "/") || strings.HasPrefix(url, ".") || !strings.Contains(url, ":") || hasDrivePrefix(url) {
		return "file"
	}
	return "ssh"
}
