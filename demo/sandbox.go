package demo

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"rfhandoff/config"
	"rfhandoff/exec"
	"rfhandoff/gitcli"
	"rfhandoff/hacksim"
)

// Branch names of the sandbox remote: the production defaults.
const (
	taskBranch   = "video-development"
	resultBranch = "rx-node"
)

// simTools are the HackRF tools the simulator stands in for (PROTOCOL#simulator).
var simTools = []exec.Tool{exec.HackRFInfo, exec.HackRFTransfer, exec.HackRFClock}

// Commit identities (an RX node's: rxNode.identity).
var (
	mainIdentity  = gitcli.Identity{Name: "MAIN PC (rfhandoff demo)", Email: "main@demo.rfhandoff.invalid"}
	setupIdentity = gitcli.Identity{Name: "rfhandoff demo setup", Email: "setup@demo.rfhandoff.invalid"}
)

// Sandbox is the demo's world, all of it under Root.
type Sandbox struct {
	Root       string // the temporary directory (symlinks resolved)
	Remote     string // bare repository
	RemoteURL  string // file:// URL of Remote
	Main       string // MAIN PC checkout
	Bin        string // hackrf_* symlinks to (Windows: copies of) the rfhandoff binary
	Home       string // HOME of every child: a git config of its own
	MainPolicy string // MAIN's policy (each RX node's is in nodes)
	BaseCommit string // the task branch's first commit (EXPECTED_HEAD)
	GitPath    string // the resolved git, pinned in both policies
	Exe        string // the rfhandoff binary

	// Throw-away signing keys (makeKeys); each side trusts only the other's.
	Keys        string // the directory holding them
	MainKey     string // MAIN's private key file ("" without ssh-keygen: nothing is signed)
	TaskSigners string // RX's trust.task_signers: MAIN's key

	OnAir string // the on-air file every node's simulator hears (onair.go)

	Setup      *exec.Stack // the demo's own git runner
	SetupAudit string

	// Both policies' notify.webhook_url (the demo's own receiver) and
	// webhook_secret_file; "" without.
	NotifyURL, NotifySecret string

	env     []string      // the children's environment (childEnv)
	mainPol config.Policy // MAIN's policy as loadConfined read it back

	// A scheduled demo's SYNC_MODE ("": none), and its chronyc stand-in's
	// directory (sync.go).
	Sync, Clock string

	nodes []*rxNode // one, or --rx-nodes of them
}

// NewSandbox creates the sandbox in a fresh temporary directory: the bare
// remote and its branches, the checkouts with .local/ ignored, the
// simulator links and the policies. notifyURL is the demo's own webhook
// receiver and notifySecret its secret ("": none). On error nothing is
// left behind.
func NewSandbox(ctx context.Context, o Options, notifyURL, notifySecret string) (sb *Sandbox, err error) {
	if o.RXNodes != 0 {
		if err := CheckRXNodes(o.RXNodes); err != nil {
			return nil, err
		}
	}
	tmp, err := os.MkdirTemp("", "rfhandoff-demo-")
	if err != nil {
		return nil, fmt.Errorf("creating the sandbox directory: %w", err)
	}
	defer func() {
		if err != nil {
			_ = os.RemoveAll(tmp)
		}
	}()
	root, err := filepath.EvalSymlinks(tmp)
	if err != nil {
		return nil, err
	}
	sb = &Sandbox{
		Root:       root,
		Remote:     filepath.Join(root, "remote.git"),
		Main:       filepath.Join(root, "main"),
		Bin:        filepath.Join(root, "bin"),
		Home:       filepath.Join(root, "home"),
		MainPolicy: filepath.Join(root, "main.toml"),
		SetupAudit: filepath.Join(root, "setup-audit.jsonl"),
		Keys:       filepath.Join(root, "keys"),
		OnAir:      filepath.Join(root, "on-air.json"),
		Exe:        o.Exe,
		Sync:       o.Sync,
	}
	sb.makeNodes(o.RXNodes)
	// A Windows path needs file://C:/... (AbsoluteURL knows how).
	if sb.RemoteURL, err = gitcli.AbsoluteURL(sb.Remote, root); err != nil {
		return nil, err
	}
	if err := gitcli.ValidURL(sb.RemoteURL); err != nil {
		return nil, fmt.Errorf("the sandbox path %s cannot be used as a git URL: %w", root, err)
	}
	if err := sb.makeHome(); err != nil {
		return nil, err
	}
	sb.env = sb.childEnv(o.Environ)
	if sb.Setup, err = sb.gitRunner(sb.SetupAudit, nil, 2*time.Minute); err != nil {
		return nil, err
	}
	if err := sb.Setup.Missing()[exec.Git]; err != nil {
		return nil, fmt.Errorf("the demo needs git: %w", err)
	}
	sb.GitPath = sb.Setup.Paths()[exec.Git]
	if err := sb.makeRemote(ctx); err != nil {
		return nil, err
	}
	for _, n := range sb.nodes {
		if err := sb.clone(ctx, n.Dir, n.identity()); err != nil {
			return nil, err
		}
	}
	if err := sb.clone(ctx, sb.Main, mainIdentity); err != nil {
		return nil, err
	}
	if err := sb.makeBin(); err != nil {
		return nil, err
	}
	if sb.Sync != "" {
		if err := sb.makeClocks(); err != nil {
			return nil, err
		}
	}
	// Without ssh-keygen git can neither sign nor verify: no [trust] then.
	if _, err := sb.Setup.SSHKeygen(); err == nil {
		if err := sb.makeKeys(); err != nil {
			return nil, err
		}
	}
	if notifyURL != "" {
		sb.NotifyURL, sb.NotifySecret = notifyURL, filepath.Join(root, "notify.secret")
		if err := os.WriteFile(sb.NotifySecret, []byte(notifySecret+"\n"), 0o600); err != nil {
			return nil, err
		}
	}
	if err := sb.writePolicies(o.Timing); err != nil {
		return nil, err
	}
	return sb, nil
}

func (sb *Sandbox) remove() error { return os.RemoveAll(sb.Root) }

// makeHome writes the children's git config: none of the operator's own
// applies inside the sandbox.
func (sb *Sandbox) makeHome() error {
	if err := os.MkdirAll(filepath.Join(sb.Home, ".config"), 0o700); err != nil {
		return err
	}
	cfg := "# rfhandoff demo sandbox: git configuration of every process the demo starts\n" +
		"[init]\n\tdefaultBranch = main\n[advice]\n\tdetachedHead = false\n"
	return os.WriteFile(filepath.Join(sb.Home, ".gitconfig"), []byte(cfg), 0o600)
}

// childEnv is environ with HOME and XDG_CONFIG_HOME in the sandbox, no
// policy file named, and no simulator scenario: the demo's HackRF is a
// healthy one and hears only the sandbox's own transmission.
func (sb *Sandbox) childEnv(environ []string) []string {
	var env []string
	for _, kv := range environ {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "HOME", "XDG_CONFIG_HOME", "RFHANDOFF_CONFIG", "HACKRF_SIM", hacksim.OnAirEnv,
			hacksim.TriggerEnv, hacksim.PPSOffsetEnv, hacksim.DelayEnv:
			continue
		}
		env = append(env, kv)
	}
	return append(env, "HOME="+sb.Home, "XDG_CONFIG_HOME="+filepath.Join(sb.Home, ".config"))
}

func (sb *Sandbox) git(ctx context.Context, dir string, args ...string) (string, error) {
	res, err := sb.Setup.Run(ctx, exec.Cmd{Tool: exec.Git, Dir: dir, Args: args})
	if err != nil {
		return "", fmt.Errorf("git %s (in %s): %w", strings.Join(args, " "), dir, err)
	}
	return string(res.Stdout), nil
}

func (sb *Sandbox) makeRemote(ctx context.Context) error {
	if _, err := sb.git(ctx, sb.Root, "init", "--quiet", "--bare", sb.Remote); err != nil {
		return err
	}
	// As GitHub and GitLab do: the sides' mirrors fetch blobless, and a
	// push starts no housekeeping the demo would wait for (git gc --auto
	// and git maintenance after every receive, on two cores).
	for _, kv := range [][2]string{
		{"uploadpack.allowFilter", "true"}, {"receive.autogc", "false"}, {"gc.auto", "0"}, {"maintenance.auto", "false"},
	} {
		if _, err := sb.git(ctx, sb.Remote, "config", "--local", "--end-of-options", kv[0], kv[1]); err != nil {
			return err
		}
	}
	base, err := sb.seed(ctx, "seed-task", taskBranch, "Sandbox task branch: base commit", map[string]string{
		"README.md": "# rfhandoff demo: task branch\n\nMAIN writes docs/handoff/NEXT_RX_TASK.md here; the RX laptop reads it.\n",
		// The watchers refuse a checkout where .local/ is not ignored (PROTOCOL#rx-state).
		".gitignore": "/.local/\n",
	})
	if err != nil {
		return err
	}
	sb.BaseCommit = base
	if _, err = sb.seed(ctx, "seed-result", resultBranch, "Result branch: initial commit", map[string]string{
		"README.md": "# rfhandoff demo: result branch\n\nThe RX laptop publishes docs/handoff/results/RX_RESULT.json here.\n",
	}); err != nil || !sb.multi() {
		return err
	}
	// The lab creates the nodes' branches, never rfhandoff (PROTOCOL#several-nodes).
	for _, n := range sb.nodes {
		if _, err := sb.seed(ctx, "seed-"+n.Name, n.Branch, "Result branch of "+n.Name+": initial commit", map[string]string{
			"README.md": "# rfhandoff demo: result branch of " + n.Name + "\n\nRX node " + n.Name + " publishes docs/handoff/results/RX_RESULT.json here.\n",
		}); err != nil {
			return err
		}
	}
	return nil
}

// seed commits top-level files in a scratch repository, removed again,
// and pushes the commit to branch; it returns the commit's ID.
func (sb *Sandbox) seed(ctx context.Context, name, branch, message string, files map[string]string) (string, error) {
	dir := filepath.Join(sb.Root, name)
	defer os.RemoveAll(dir)
	if _, err := sb.git(ctx, sb.Root, "init", "--quiet", dir); err != nil {
		return "", err
	}
	if _, err := sb.git(ctx, dir, "remote", "add", "origin", sb.RemoteURL); err != nil {
		return "", err
	}
	var paths []string
	for p, content := range files {
		if err := os.WriteFile(filepath.Join(dir, p), []byte(content), 0o644); err != nil {
			return "", err
		}
		paths = append(paths, p)
	}
	return commitPush(ctx, &gitcli.Client{R: sb.Setup, Dir: dir, Identity: setupIdentity}, message, branch, paths...)
}

func commitPush(ctx context.Context, g *gitcli.Client, message, branch string, paths ...string) (string, error) {
	if err := g.Add(ctx, paths...); err != nil {
		return "", err
	}
	id, err := g.Commit(ctx, message, nil)
	if err != nil {
		return "", err
	}
	return id, g.Push(ctx, "origin", "HEAD", branch)
}

// clone makes a full clone of the task branch, as each side's operator
// would, with the side's commit identity.
func (sb *Sandbox) clone(ctx context.Context, dir string, id gitcli.Identity) error {
	if _, err := sb.git(ctx, sb.Root, "clone", "--quiet", "--branch", taskBranch, "--end-of-options", sb.RemoteURL, dir); err != nil {
		return err
	}
	for _, kv := range [][2]string{{"user.name", id.Name}, {"user.email", id.Email}} {
		if _, err := sb.git(ctx, dir, "config", "--local", "--end-of-options", kv[0], kv[1]); err != nil {
			return err
		}
	}
	g := &gitcli.Client{R: sb.Setup, Dir: dir}
	if err := g.RequireIgnored(ctx, dir, filepath.Join(dir, ".local"), "state directory"); err != nil {
		return fmt.Errorf("after cloning: %w", err)
	}
	return nil
}

// makeBin links (Windows: copies) the HackRF tools' names to the rfhandoff
// binary, which is the simulator under those names.
func (sb *Sandbox) makeBin() error {
	if sb.Exe == "" || !filepath.IsAbs(sb.Exe) {
		return fmt.Errorf("the rfhandoff binary path %q is not absolute", sb.Exe)
	}
	if err := os.Mkdir(sb.Bin, 0o755); err != nil {
		return err
	}
	for _, t := range simTools {
		if err := linkSimTool(sb.Exe, sb.tool(t)); err != nil {
			return err
		}
	}
	return nil
}

func (sb *Sandbox) tool(t exec.Tool) string { return filepath.Join(sb.Bin, simToolFile(string(t))) }

// inside reports whether path lies inside the sandbox, symlinks resolved.
func (sb *Sandbox) inside(path string) bool {
	if !filepath.IsAbs(path) {
		return false
	}
	p := resolveExisting(filepath.Clean(path))
	rel, err := filepath.Rel(sb.Root, p)
	if err != nil {
		return false
	}
	return rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// resolveExisting resolves symlinks in the longest existing prefix of p.
func resolveExisting(p string) string {
	rest := ""
	for {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return filepath.Join(r, rest)
		} else if !errors.Is(err, os.ErrNotExist) {
			return p
		}
		parent := filepath.Dir(p)
		if parent == p {
			return filepath.Join(p, rest)
		}
		rest = filepath.Join(filepath.Base(p), rest)
		p = parent
	}
}
