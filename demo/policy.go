package demo

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/go-multierror"

	"rfhandoff/config"
	"rfhandoff/exec"
)

// Timing is the clock of one demo run, written into both policies. The
// publication age limit is the default's, the planned duration
// (PROTOCOL#main-pc): MAIN's window closes when the capture has less than
// TXDurationS + MinRemainingS left.
type Timing struct {
	PlannedS      int // limits.planned_duration_s: how long the capture runs
	MinRemainingS int // limits.min_remaining_s (the protocol minimum is 10)
	TXDurationS   int // tx.duration_s
}

// autoTiming is --auto's: a 60 s capture leaves 45 s for tx watch's
// phrase, its re-fetch and tx execute's, which three nodes' captures and
// pushes on a loaded two-core machine still meet.
var autoTiming = Timing{PlannedS: 60, MinRemainingS: 10, TXDurationS: 5}

// interactiveTiming is config.toml.example's: about 90 s for a person to
// type the phrase twice.
var interactiveTiming = Timing{PlannedS: 120, MinRemainingS: 10, TXDurationS: 10}

// policy is one side's policy: the defaults, the sandbox checkout, the
// simulator and git pinned, the demo's timing.
func (sb *Sandbox) policy(checkout string, t Timing) config.Policy {
	p := config.Default()
	p.Repo.Path = checkout
	p.Poll.RXInterval = config.Duration{Duration: time.Second}
	p.Poll.TXInterval = config.Duration{Duration: time.Second}
	p.Poll.GitTimeout = config.Duration{Duration: 30 * time.Second}
	p.Poll.MaxBackoff = config.Duration{Duration: 5 * time.Second}
	p.Limits.PlannedDurationS = t.PlannedS
	p.Limits.MinRemainingS = t.MinRemainingS
	p.TX.DurationS = t.TXDurationS
	p.TX.Enabled = false // the fake action needs no enabling; nothing real may run
	p.TX.Action = "fake"
	// Both sides read this one machine's clock: no skew between them.
	p.Clock.RequireSynchronized = false
	p.Tools = config.Tools{
		Git:            sb.GitPath,
		HackRFInfo:     sb.tool(exec.HackRFInfo),
		HackRFTransfer: sb.tool(exec.HackRFTransfer),
		HackRFClock:    sb.tool(exec.HackRFClock),
		// On purpose: the results say so, and the demo's MAIN accepts them.
		AllowSimulator: true,
	}
	if sb.NotifyURL != "" {
		p.Notify.WebhookURL = sb.NotifyURL
		p.Notify.WebhookSecretFile = sb.NotifySecret
	}
	return p
}

// writePolicies writes each RX node's policy and MAIN's, each loaded back
// as its child will load it and kept so for the demo's own reads.
func (sb *Sandbox) writePolicies(t Timing) (err error) {
	main := sb.policy(sb.Main, t)
	for _, n := range sb.nodes {
		rx := sb.policy(n.Dir, t)
		rx.Trust = config.Trust{TaskSigners: sb.TaskSigners, SigningKey: n.Key}
		if sb.Sync != "" {
			rx.Sync.MinLeadS = syncMinLeadS
			rx.Sync.MaxHostClockBoundS = syncMaxHostClockBoundS
		}
		if sb.multi() {
			rx.Repo.ResultBranch = n.Branch
			rx.Node = config.Node{Name: n.Name}
			main.Nodes = append(main.Nodes, config.MainNode{Name: n.Name, ResultBranch: n.Branch, ResultSigners: n.Signers})
		} else {
			main.Trust = config.Trust{ResultSigners: n.Signers}
		}
		if n.pol, err = sb.writePolicy(n.Policy, n.Who, rx); err != nil {
			return err
		}
	}
	sb.mainPol, err = sb.writePolicy(sb.MainPolicy, "MAIN PC", main)
	return err
}

func (sb *Sandbox) writePolicy(file, who string, pol config.Policy) (config.Policy, error) {
	header := fmt.Sprintf("# rfhandoff demo — the %s's policy, written by `rfhandoff demo`.\n"+
		"# Everything points into the sandbox %s; the HackRF tools are the simulator.\n\n", who, sb.Root)
	if err := os.WriteFile(file, []byte(header+pol.TOML()), 0o600); err != nil {
		return config.Policy{}, err
	}
	return sb.loadConfined(file)
}

func unconfined(policy string, err error) error {
	return fmt.Errorf("%s leads outside the sandbox; the demo acts only inside it: %w", policy, err)
}

// loadConfined loads the policy file (inside the sandbox) as a child will
// and checks that everything it lets that child touch is the sandbox's:
// paths inside it, its simulator and git, and only the fake TX action.
func (sb *Sandbox) loadConfined(file string) (config.Policy, error) {
	var errs *multierror.Error
	if !sb.inside(file) {
		return config.Policy{}, unconfined(file, fmt.Errorf("the policy file itself is not in %s", sb.Root))
	}
	p, err := config.Load(file)
	if err != nil {
		return config.Policy{}, err
	}
	for _, c := range []struct{ key, path string }{
		{"repo.path", p.Repo.Path},
		{"repo.state_dir", p.StatePath()},
		{"audit.path", p.AuditPath()},
		{"capture.dir", p.CaptureDir()},
		{"trust.task_signers", p.TaskSignersPath()},
		{"trust.result_signers", p.ResultSignersPath()},
		{"trust.signing_key", p.SigningKeyPath()},
		{"notify.webhook_secret_file", p.WebhookSecretPath()},
	} {
		if c.path == "" && (strings.HasPrefix(c.key, "trust.") || strings.HasPrefix(c.key, "notify.")) {
			continue // not set on this side
		}
		if !filepath.IsAbs(c.path) || !sb.inside(c.path) {
			errs = multierror.Append(errs, fmt.Errorf("%s = %q is not inside %s", c.key, c.path, sb.Root))
		}
	}
	if p.Repo.Path != sb.Main && !slices.ContainsFunc(sb.nodes, func(n *rxNode) bool { return n.Dir == p.Repo.Path }) {
		errs = multierror.Append(errs, fmt.Errorf("repo.path = %q is neither sandbox checkout (MAIN's or an RX node's)", p.Repo.Path))
	}
	for i, n := range p.Nodes {
		if s := p.NodeResultSignersPath(n); s != "" && !sb.inside(s) {
			errs = multierror.Append(errs, fmt.Errorf("nodes[%d].result_signers = %q is not inside %s", i, s, sb.Root))
		}
	}
	if n := p.Notify; n.WebhookURL != sb.NotifyURL || n.NtfyURL != "" || len(n.Command) > 0 {
		errs = multierror.Append(errs, fmt.Errorf("[notify] may send only to the demo's own receiver %q (webhook_url %q, ntfy_url %q, command %q)",
			sb.NotifyURL, n.WebhookURL, n.NtfyURL, n.Command))
	}
	if p.TX.IQFile != "" {
		errs = multierror.Append(errs, fmt.Errorf("tx.iq_file = %q: the demo transmits nothing", p.TX.IQFile))
	}
	if p.TX.Enabled || p.TX.Action != "fake" {
		errs = multierror.Append(errs, fmt.Errorf("tx.enabled = %v, tx.action = %q: only the fake action may run in the demo", p.TX.Enabled, p.TX.Action))
	}
	if p.Tools.Git != sb.GitPath {
		errs = multierror.Append(errs, fmt.Errorf("tools.git = %q, not the git the sandbox was made with (%s)", p.Tools.Git, sb.GitPath))
	}
	pinned := map[exec.Tool]string{
		exec.HackRFInfo: p.Tools.HackRFInfo, exec.HackRFTransfer: p.Tools.HackRFTransfer, exec.HackRFClock: p.Tools.HackRFClock,
	}
	for _, t := range simTools {
		got := pinned[t]
		if got != sb.tool(t) {
			errs = multierror.Append(errs, fmt.Errorf("tools.%s = %q is not the sandbox's simulator %s", t, got, sb.tool(t)))
		} else if err := checkSimTool(got, sb.Exe); err != nil {
			errs = multierror.Append(errs, fmt.Errorf("tools.%s = %q is not the sandbox's simulator (the rfhandoff binary %s): %w", t, got, sb.Exe, err))
		}
	}
	if err := errs.ErrorOrNil(); err != nil {
		return config.Policy{}, unconfined(file, err)
	}
	return p, nil
}
