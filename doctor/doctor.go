// Package doctor checks, from where the operator stands, whether one side
// of a lab (the RX laptop or the MAIN PC) can work, and reports every
// problem at once, each with what to do. It changes nothing: no state
// directory, audit log or mirror is made, nothing is fetched into the
// checkout; the remote is asked once, with git ls-remote, from an empty
// directory of the caller's (Deps.Scratch).
package doctor

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"rfhandoff/captureplan"
	"rfhandoff/config"
	"rfhandoff/exec"
	"rfhandoff/gitcli"
	"rfhandoff/hackrfcli"
	"rfhandoff/hostclock"
	"rfhandoff/localfile"
	"rfhandoff/localfile/private"
	"rfhandoff/mirror"
)

type Side string

const (
	RX   Side = "rx"
	Main Side = "main"
)

// Status is a finding's weight: only a Problem makes the run fail.
type Status int

const (
	OK Status = iota
	Note
	Problem
)

func (s Status) String() string {
	switch s {
	case Problem:
		return "PROBLEM"
	case Note:
		return "note"
	}
	return "ok"
}

// Finding is one line of the report; a problem's Text says what to do.
type Finding struct {
	Check  string
	Status Status
	Text   string
}

type Report struct {
	Side     Side
	Findings []Finding
}

func (r *Report) Problems() int {
	n := 0
	for _, f := range r.Findings {
		if f.Status == Problem {
			n++
		}
	}
	return n
}

func (r *Report) add(check string, s Status, format string, args ...any) {
	r.Findings = append(r.Findings, Finding{Check: check, Status: s, Text: fmt.Sprintf(format, args...)})
}

func (r *Report) failed(check string, err error) bool {
	if err != nil {
		r.add(check, Problem, "%v", err)
	}
	return err != nil
}

func (r *Report) Write(w io.Writer) error {
	for _, f := range r.Findings {
		text := strings.ReplaceAll(strings.TrimRight(f.Text, "\n"), "\n", "\n           ")
		if _, err := fmt.Fprintf(w, "%-9s  %s: %s\n", f.Status, f.Check, text); err != nil {
			return err
		}
	}
	return nil
}

type Deps struct {
	Side       Side
	Policy     config.Policy
	PolicyFile string // "" when the built-in defaults are in force
	// Stack builds the audited runner, allowing the given git transports
	// (none: local only); its audit log is the caller's decision (the
	// DESIGN log, area "The host clock and doctor").
	Stack func(protocols []string) (*exec.Stack, error)
	// Scratch is an empty private directory outside the checkout, where
	// git asks the remote (no repository there or above it is read).
	Scratch     string
	IsSimulator func(path string) bool
	Environ     []string // what children are built from
}

const boardTimeout = 20 * time.Second // hackrf_info and hackrf_clock

// Run fails only when the runner cannot be built at all.
func Run(ctx context.Context, d Deps) (*Report, error) {
	rep := &Report{Side: d.Side}
	local, err := d.Stack(nil)
	if err != nil {
		return nil, err
	}
	p := d.Policy
	checkPolicy(rep, d)
	git := &gitcli.Client{R: local, Dir: p.Repo.Path, Timeout: p.Poll.GitTimeout.Duration}
	inCheckout := checkCheckout(ctx, rep, git, p)
	if inCheckout {
		checkIgnored(ctx, rep, git, d)
	} else {
		rep.add("state directory", Note, "not checked: it needs a checkout")
	}
	if inCheckout || p.Repo.URL != "" {
		checkRemote(ctx, rep, git, d) // without a checkout, the policy names it: no checkout read
	} else {
		rep.add("remote", Note, "not checked: without [repo] url the remote's URL is read from the checkout")
	}
	checkTrust(rep, local, d)
	checkTools(ctx, rep, local, d)
	if d.Side == RX {
		checkBoard(ctx, rep, local, d)
	}
	checkClock(ctx, rep, local, p)
	if d.Side == RX {
		checkSpace(rep, p)
	}
	return rep, nil
}

// checkPolicy: an invalid policy never gets here (the command line refuses
// it); the MAIN side adds what only tx watch and tx execute check.
func checkPolicy(rep *Report, d Deps) {
	if d.PolicyFile == "" {
		rep.add("policy", Note, "no policy file: the built-in defaults are in force; copy config.toml.example outside the checkout "+
			"(e.g. ~/.config/rfhandoff/rfhandoff.toml), adjust it and name it in $%s or --config", config.EnvVar)
	} else {
		rep.add("policy", OK, "%s is valid", d.PolicyFile)
	}
	if d.Side == Main {
		if err := d.Policy.ValidateMAIN(); err != nil {
			rep.add("policy", Problem, "tx watch and tx execute refuse it: %v; fix those keys in %s", err, cmp.Or(d.PolicyFile, "a policy file"))
		}
	}
}

func checkCheckout(ctx context.Context, rep *Report, git *gitcli.Client, p config.Policy) bool {
	if rep.failed("checkout", p.InCheckout()) || rep.failed("checkout", git.RequireTop(ctx)) {
		return false
	}
	rep.add("checkout", OK, "%s (the checkout's top)", p.Repo.Path)
	return true
}

// checkIgnored: git must ignore the local directories and track nothing
// rfhandoff trusts; the advice is the commands' own.
func checkIgnored(ctx context.Context, rep *Report, git *gitcli.Client, d Deps) {
	p := d.Policy
	dirs := p.LocalDirs()
	if d.Side == RX {
		dirs = append(dirs, config.PrivateDir{What: "capture directory", Dir: p.CaptureDir()})
	}
	for _, x := range dirs {
		if rep.failed(x.What, git.RequireIgnored(ctx, p.Repo.Path, x.Dir, x.What)) {
			continue
		}
		// As every command's first write checks them (PROTOCOL#rx-state).
		if _, err := os.Lstat(x.Dir); err == nil && x.What != "capture directory" && rep.failed(x.What, private.Check(x.Dir)) {
			continue
		}
		rep.add(x.What, OK, "%s is out of git's reach (ignored, or outside the checkout)", x.Dir)
	}
	rep.failed("tracked files", git.RequireUntracked(ctx, p.Repo.Path, p.TrustedPaths()...))
}

func branches(d Deps) (names []string, what map[string]string) {
	p := d.Policy
	what = map[string]string{}
	add := func(b, w string) {
		if _, ok := what[b]; !ok {
			what[b] = w
			names = append(names, b)
		}
	}
	add(p.Repo.TaskBranch, "task branch")
	add(p.Repo.ResultBranch, "result branch")
	if d.Side == Main {
		for _, n := range p.Nodes {
			add(n.ResultBranch, "result branch of node "+n.Name)
		}
	}
	return names, what
}

func checkRemote(ctx context.Context, rep *Report, git *gitcli.Client, d Deps) {
	p := d.Policy
	url, err := mirror.RemoteURL(ctx, git, p.Repo)
	if rep.failed("remote", err) {
		return
	}
	proto := exec.ProtocolOf(url)
	r, err := d.Stack([]string{proto})
	if err != nil {
		rep.add("remote", Problem, "%s: %v", exec.RedactURL(url), err)
		return
	}
	name := p.Repo.Remote
	remote := &gitcli.Client{
		R: r, Dir: d.Scratch, Timeout: p.Poll.GitTimeout.Duration, URL: url,
		Env: []string{
			// No repository is read: not the scratch directory's, not one above.
			"GIT_CEILING_DIRECTORIES=" + filepath.Dir(d.Scratch),
			"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=remote." + name + ".url", "GIT_CONFIG_VALUE_0=" + url,
		},
	}
	// As a mirror's open does: only the global and system config could
	// still send git elsewhere from here.
	if got, err := remote.RemoteURL(ctx, name); err != nil || got != url {
		if err == nil {
			err = fmt.Errorf("git would ask %s", exec.RedactURL(got))
		}
		rep.add("remote", Problem, "%s (%s): %v", name, exec.RedactURL(url), err)
		return
	}
	names, what := branches(d)
	found, err := remote.RemoteBranches(ctx, name, names)
	if err != nil {
		rep.add("remote", Problem, "%s (%s, transport %s) cannot be listed: %v", name, exec.RedactURL(url), proto, err)
		return
	}
	rep.add("remote", OK, "%s answers (%s, transport %s)", name, exec.RedactURL(url), proto)
	push := name
	if p.Repo.URL != "" {
		push = exec.RedactURL(url)
	}
	for _, b := range names {
		if id, ok := found[b]; ok {
			rep.add(what[b], OK, "%s is on the remote at %s", b, id)
			continue
		}
		rep.add(what[b], Problem, "%s does not exist on the remote (rfhandoff never creates a branch): create it once from the MAIN PC's checkout with\n"+
			"git push %s \"$(git rev-parse HEAD)\":refs/heads/%s", b, push, b)
	}
}

// checkTrust: the [trust] files were checked when the policy loaded; left
// is whether git can use them here (ssh-keygen, and ssh-agent for a public
// signing key).
func checkTrust(rep *Report, s *exec.Stack, d Deps) {
	p := d.Policy
	var used []string
	switch d.Side {
	case RX:
		if p.Trust.TaskSigners != "" {
			used = append(used, "trust.task_signers "+p.TaskSignersPath())
		} else {
			rep.add("trust", Note, "no trust.task_signers: tasks are not checked for a signature (PROTOCOL#trust)")
		}
		if p.Trust.SigningKey != "" {
			used = append(used, "trust.signing_key "+p.SigningKeyPath())
			data, err := private.Read(p.SigningKeyPath(), 1<<20)
			if err == nil && !strings.Contains(string(data), "PRIVATE KEY") && !hasEnv(d.Environ, "SSH_AUTH_SOCK") {
				rep.add("trust", Problem, "trust.signing_key %s is a public key, whose private half git asks ssh-agent for, and SSH_AUTH_SOCK is not set here: "+
					"start the agent and ssh-add the key in the session rfhandoff runs in", p.SigningKeyPath())
			}
		}
	case Main:
		if p.Trust.ResultSigners != "" {
			used = append(used, "trust.result_signers "+p.ResultSignersPath())
		}
		for i, n := range p.Nodes {
			if n.ResultSigners != "" {
				used = append(used, fmt.Sprintf("nodes[%d].result_signers %s", i, p.NodeResultSignersPath(n)))
			}
		}
		if len(used) == 0 {
			rep.add("trust", Note, "no trust.result_signers: results are not checked for a signature (PROTOCOL#trust)")
		}
	}
	if len(used) == 0 {
		return
	}
	if keygen, err := s.SSHKeygen(); err != nil {
		rep.add("trust", Problem, "%s set, but ssh-keygen, which git runs for every signature, is not found (%v): install OpenSSH's client, or pin it in [tools] ssh_keygen",
			strings.Join(used, ", "), err)
	} else {
		rep.add("trust", OK, "%s: read and well-formed; git signs and checks with %s", strings.Join(used, ", "), keygen)
	}
}

func checkTools(ctx context.Context, rep *Report, s *exec.Stack, d Deps) {
	paths, missing := s.Paths(), s.Missing()
	rx := d.Side == RX
	needed := map[exec.Tool]bool{exec.Git: true, exec.HackRFInfo: rx, exec.HackRFClock: rx,
		exec.HackRFTransfer: rx || d.Policy.TX.Enabled && d.Policy.TX.Action == config.TXActionHackRFTransfer}
	for _, t := range exec.Tools {
		path, ok := paths[t]
		switch {
		case !ok && needed[t]:
			rep.add(string(t), Problem, "not found (%v): install it (Debian: apt install %s), put it on PATH or pin it in [tools]", missing[t], pkgOf(t))
		case !ok && t == exec.ClockTool:
			rep.add(string(t), Note, "not found (%v): the operating system's clock report cannot be read here", missing[t])
		case !ok:
			rep.add(string(t), Note, "not found (%v); not needed on this side with this policy", missing[t])
		case t == exec.Git:
			git := &gitcli.Client{R: s, Dir: d.Scratch, Timeout: d.Policy.Poll.GitTimeout.Duration}
			if v, err := git.CheckVersion(ctx); err != nil {
				rep.add(string(t), Problem, "%s: %v; install a newer git (Debian: from backports, or the distribution's next release)", path, err)
			} else {
				rep.add(string(t), OK, "%s (git %s)", path, v)
			}
		case d.IsSimulator != nil && d.IsSimulator(path) && needed[t] && !d.Policy.Tools.AllowSimulator:
			rep.add(string(t), Problem, "%s is rfhandoff's own HackRF SIMULATOR, not a radio, and [tools] allow_simulator is false: "+
				"a capture through it is refused; for hardware, take the simulator's directory off PATH or pin the real tool in [tools] %s; "+
				"for a rehearsal, set [tools] allow_simulator = true", path, string(t))
		case d.IsSimulator != nil && d.IsSimulator(path):
			rep.add(string(t), Note, "%s is rfhandoff's own HackRF SIMULATOR, not a radio (allowed: [tools] allow_simulator = %t): captures through it are simulated noise, and say so; "+
				"for hardware, take the simulator's directory off PATH or pin the real tool in [tools] %s", path, d.Policy.Tools.AllowSimulator, string(t))
		default:
			rep.add(string(t), OK, "%s", path)
		}
	}
}

func checkBoard(ctx context.Context, rep *Report, r exec.Runner, d Deps) {
	serial := d.Policy.Capture.Serial
	hc := &hackrfcli.Client{R: r, Timeout: boardTimeout}
	info, err := hc.Info(ctx)
	switch {
	case errors.Is(err, hackrfcli.ErrNoDevice):
		rep.add("board", Note, "no HackRF attached: firmware and CLKIN not checked; rx capture needs one")
		return
	case errors.Is(err, exec.ErrNotInstalled):
		return // said under the tool
	case err != nil:
		rep.add("board", Problem, "hackrf_info failed: %v", err)
		return
	}
	b, ok := info.Find(serial)
	if !ok {
		rep.add("board", Problem, "no attached HackRF has the serial capture.serial = %q: attach it, or fix [capture] serial", serial)
		return
	}
	if !b.Opened() {
		rep.add("board", Problem, "HackRF %s could not be opened (%s): is another program using it, or is this account not allowed to (Debian: the plugdev group)?",
			cmp.Or(b.Serial, "(unknown)"), strings.Join(b.Messages, "; "))
		return
	}
	if len(info.Boards) > 1 && serial == "" {
		rep.add("board", Problem, "%d HackRFs attached: pin the one to capture with in [capture] serial", len(info.Boards))
	}
	rep.add("board", OK, "%s serial %s, firmware %s (USB API %s)", b.BoardName, cmp.Or(b.Serial, "(unknown)"), b.FirmwareVersion, b.APIVersion)
	hc.Serial = b.Serial
	st, err := hc.Clock(ctx)
	var fe *hackrfcli.FirmwareError
	switch {
	case errors.As(err, &fe):
		rep.add("CLKIN", Problem, "firmware %s is too old to report CLKIN (hackrf_clock -i needs %s): every capture is refused; updating the firmware is a RED task for a person (rfhandoff never flashes)",
			b.FirmwareVersion, cmp.Or(fe.NeedRelease, "(unknown)"))
	case err != nil:
		rep.add("CLKIN", Problem, "hackrf_clock -i failed: %v", err)
	case st == hackrfcli.ClockDetected:
		rep.add("CLKIN", OK, "clock signal detected")
	default:
		rep.add("CLKIN", Problem, "no clock signal detected: connect the shared 10 MHz reference to the HackRF's CLKIN; without it no capture starts")
	}
}

func checkClock(ctx context.Context, rep *Report, r exec.Runner, p config.Policy) {
	c := hostclock.Check(ctx, r)
	switch {
	case c.Sync == hostclock.Synced:
		rep.add("host clock", OK, "%s", c)
	case c.Sync == hostclock.NotSynced && p.Clock.RequireSynchronized:
		rep.add("host clock", Problem, "%s: this side refuses to publish, offer or execute until it is; wait for NTP (ask again with `%s`), "+
			"or set %s = false to run on a clock you checked yourself", c, c.Command, hostclock.WaiverKey)
	case c.Sync == hostclock.NotSynced:
		rep.add("host clock", Note, "%s; not refused: %s = false in the policy", c, hostclock.WaiverKey)
	default:
		rep.add("host clock", Note, "%s: nothing is refused for it; make sure yourself that NTP keeps this clock right (freshness checks compare it with the other machine's)", c)
	}
}

// checkSpace: one planned capture, with the margin, must fit.
func checkSpace(rep *Report, p config.Policy) {
	plan := p.CapturePlan()
	free, err := localfile.FreeBytes(plan.Dir)
	if err != nil {
		rep.add("free space", Problem, "reading the free space where captures go (capture.dir %s): %v", plan.Dir, err)
		return
	}
	if err := plan.CheckSpace(free); err != nil {
		rep.add("free space", Problem, "one planned capture needs %s (%d s at %d samples/s, 2 bytes each) plus the %s margin (capture.free_margin_mb) in %s, which has %s free: "+
			"free space there, or lower limits.planned_duration_s or capture.sample_rate_hz",
			captureplan.SizeText(plan.Bytes()), plan.PlannedDurationS, plan.SampleRateHz, captureplan.SizeText(plan.FreeMarginBytes), plan.Dir, captureplan.SizeText(free))
		return
	}
	rep.add("free space", OK, "%s free in %s; one planned capture needs %s plus the %s margin",
		captureplan.SizeText(free), plan.Dir, captureplan.SizeText(plan.Bytes()), captureplan.SizeText(plan.FreeMarginBytes))
}

func hasEnv(environ []string, key string) bool {
	return slices.ContainsFunc(environ, func(kv string) bool {
		v, ok := strings.CutPrefix(kv, key+"=")
		return ok && v != ""
	})
}

func pkgOf(t exec.Tool) string {
	switch t {
	case exec.Git:
		return "git"
	case exec.Timedatectl:
		return "systemd"
	}
	return "hackrf"
}
