package demo

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cli/safeexec"

	"rfhandoff/exec"
	"rfhandoff/gitcli"
)

// newSandbox makes a real sandbox (real git) in a TMPDIR of the test's.
func newSandbox(t *testing.T) *Sandbox {
	t.Helper()
	if _, err := safeexec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	skipWithoutShell(t)
	t.Setenv("TMPDIR", t.TempDir())
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	sb, err := NewSandbox(context.Background(), Options{Exe: exe, Timing: autoTiming, Environ: os.Environ()}, "", "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sb.remove() })
	return sb
}

func TestNewSandbox(t *testing.T) {
	sb := newSandbox(t)
	ctx := context.Background()
	if !strings.HasPrefix(sb.Root, os.Getenv("TMPDIR")) && !strings.HasPrefix(sb.Root, resolveExisting(os.Getenv("TMPDIR"))) {
		t.Errorf("sandbox %s is not in TMPDIR %s", sb.Root, os.Getenv("TMPDIR"))
	}
	remote := &gitcli.Client{R: sb.Setup, Dir: sb.Remote}
	if tip, err := remote.ResolveCommit(ctx, "refs/heads/"+taskBranch); err != nil || tip != sb.BaseCommit {
		t.Errorf("task branch tip %s (%v), want the base commit %s", tip, err, sb.BaseCommit)
	}
	if _, err := remote.ResolveCommit(ctx, "refs/heads/"+resultBranch); err != nil {
		t.Errorf("the result branch must exist before anything is published: %v", err)
	}
	for _, dir := range []string{sb.nodes[0].Dir, sb.Main} {
		g := &gitcli.Client{R: sb.Setup, Dir: dir}
		if head, err := g.Head(ctx); err != nil || head != sb.BaseCommit {
			t.Errorf("%s: HEAD %s (%v), want %s", dir, head, err, sb.BaseCommit)
		}
		if ign, err := g.CheckIgnored(ctx, ".local/rx_agent_state.json"); err != nil || !ign {
			t.Errorf("%s: .local/ not ignored (%v, %v)", dir, ign, err)
		}
	}
	for _, tool := range simTools {
		if err := checkSimTool(sb.tool(tool), sb.Exe); err != nil {
			t.Errorf("%s is not the simulator %s: %v", sb.tool(tool), sb.Exe, err)
		}
	}
	for _, f := range []string{sb.nodes[0].Policy, sb.MainPolicy} {
		p, err := sb.loadConfined(f)
		if err != nil {
			t.Fatal(err)
		}
		if p.Limits.PlannedDurationS != autoTiming.PlannedS || p.TX.DurationS != autoTiming.TXDurationS || p.TX.Action != "fake" || p.TX.Enabled {
			t.Errorf("%s: timing or TX not as written: %+v %+v", f, p.Limits, p.TX)
		}
	}
	root := sb.Root
	if err := sb.remove(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(root); !os.IsNotExist(err) {
		t.Errorf("%s still exists after Remove", root)
	}
}

func TestLoadConfinedRefusesAnythingOutside(t *testing.T) {
	sb := newSandbox(t)
	outside := t.TempDir()
	policy := `[repo]
path = "` + outside + `"
state_dir = "` + filepath.Join(outside, "state") + `"
[audit]
path = "/var/tmp/audit.jsonl"
[capture]
dir = "/var/tmp/captures"
[tools]
git = "` + sb.GitPath + `"
hackrf_info = "` + sb.tool(exec.HackRFInfo) + `"
hackrf_transfer = "` + sb.Exe + `"
hackrf_clock = "` + sb.tool(exec.HackRFClock) + `"
[tx]
enabled = true
action = "hackrf_transfer"
iq_file = "` + filepath.Join(outside, "burst.iq") + `"
[notify]
ntfy_url = "https://ntfy.example.org/lab-rf-7f3k"
webhook_url = "https://hooks.example.org/rfhandoff"
webhook_secret_file = "` + filepath.Join(outside, "hook.secret") + `"
`
	if err := os.WriteFile(filepath.Join(outside, "hook.secret"), []byte("s3cret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(sb.Root, "evil.toml")
	if err := os.WriteFile(file, []byte(policy), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := sb.loadConfined(file)
	if err == nil || !strings.HasPrefix(err.Error(), file+" leads outside the sandbox; the demo acts only inside it: ") {
		t.Fatalf("LoadConfined = %v, want %s refused as leading outside the sandbox", err, file)
	}
	for _, want := range []string{"repo.path", "repo.state_dir", "audit.path", "capture.dir", "neither sandbox checkout",
		"tools.hackrf_transfer", "tx.iq_file", "tx.enabled = true", "only the fake action",
		"notify.webhook_secret_file", "[notify] may send only to the demo's own receiver", "ntfy.example.org"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}

	// The policy file itself must be the sandbox's.
	data, err := os.ReadFile(sb.nodes[0].Policy)
	if err != nil {
		t.Fatal(err)
	}
	copied := filepath.Join(outside, "rx.toml")
	if err := os.WriteFile(copied, data, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := sb.loadConfined(copied); err == nil || !strings.HasPrefix(err.Error(), copied+" leads outside the sandbox; ") ||
		!strings.Contains(err.Error(), "the policy file itself is not in "+sb.Root) {
		t.Errorf("a policy file outside the sandbox: %v, want it refused as outside the sandbox", err)
	}
}

func TestInside(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(base, "rfhandoff-demo-1")
	sb := &Sandbox{Root: root}
	for p, want := range map[string]bool{
		root:                                true,
		filepath.Join(root, "rx", ".local"): true,
		root + string(filepath.Separator) + filepath.Join("..", "etc"): false,
		filepath.Join(base, "rfhandoff-demo-10", "rx"):                 false,
		filepath.Join(base, "etc", "passwd"):                           false,
		"rx":                                                           false,
	} {
		if got := sb.inside(p); got != want {
			t.Errorf("Inside(%q) = %v, want %v", p, got, want)
		}
	}
}

// The throw-away keys are real OpenSSH keys: git's ssh-keygen signs with
// the RX laptop's, and MAIN's allowed signers accept it while the RX side's
// (MAIN's key only) do not.
func TestSandboxKeys(t *testing.T) {
	sb := newSandbox(t)
	if _, err := sb.Setup.SSHKeygen(); err != nil {
		t.Skipf("ssh-keygen is not installed: %v", err)
	}
	ctx := context.Background()
	work := filepath.Join(sb.Root, "keytest")
	if _, err := sb.git(ctx, sb.Root, "init", "--quiet", work); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(work, "f"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rx := sb.nodes[0]
	g := &gitcli.Client{R: sb.Setup, Dir: work, Identity: rx.identity(), SigningKey: rx.Key}
	if err := g.Add(ctx, "f"); err != nil {
		t.Fatal(err)
	}
	id, err := g.Commit(ctx, "signed", nil)
	if err != nil {
		t.Fatalf("signing with the demo's RX key: %v", err)
	}
	if sig, err := g.VerifyLastChange(ctx, id, "f", rx.Signers); err != nil || sig.Principal != "rx@demo" {
		t.Errorf("MAIN's allowed signers: %+v, %v; want rx@demo", sig, err)
	}
	var se *gitcli.SignatureError
	if _, err := g.VerifyLastChange(ctx, id, "f", sb.TaskSigners); !errors.As(err, &se) {
		t.Errorf("the RX side's allowed signers accepted the RX key: %v", err)
	}
}
