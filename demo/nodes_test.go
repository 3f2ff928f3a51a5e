package demo

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cli/safeexec"

	"rfhandoff/gitcli"
	"rfhandoff/hacksim"
)

// TestNewSandboxThreeNodes: with RXNodes 3 the sandbox is a three-node lab:
// a result branch per node on the remote, a checkout, policy ([node] name,
// its own branch and key) and on-air offset per node, and a MAIN policy
// listing each node with an allowed-signers file holding only that node's
// key.
func TestNewSandboxThreeNodes(t *testing.T) {
	if _, err := safeexec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	skipWithoutShell(t)
	t.Setenv("TMPDIR", t.TempDir())
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	sb, err := NewSandbox(ctx, Options{Exe: exe, Timing: autoTiming, Environ: os.Environ(), RXNodes: 3}, "", "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sb.remove() })
	if _, err := os.Stat(filepath.Join(sb.Root, "rx.toml")); len(sb.nodes) != 3 || !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("%d nodes, rx.toml: %v; want no single RX laptop and 3 nodes", len(sb.nodes), err)
	}
	remote := &gitcli.Client{R: sb.Setup, Dir: sb.Remote}
	mainPol, err := sb.loadConfined(sb.MainPolicy)
	if err != nil {
		t.Fatal(err)
	}
	if len(mainPol.Nodes) != 3 {
		t.Fatalf("MAIN lists %d nodes: %+v", len(mainPol.Nodes), mainPol.Nodes)
	}
	wantEnv := []string{"0:0:", "250:-6:", "500:-12:"}
	for i, n := range sb.nodes {
		name := []string{"rx-a", "rx-b", "rx-c"}[i]
		if n.Name != name || n.Branch != name || n.Dir != filepath.Join(sb.Root, name) {
			t.Errorf("node %d: %+v", i, n)
		}
		if _, err := remote.ResolveCommit(ctx, "refs/heads/"+name); err != nil {
			t.Errorf("the remote has no branch %s: %v", name, err)
		}
		if head, err := (&gitcli.Client{R: sb.Setup, Dir: n.Dir}).Head(ctx); err != nil || head != sb.BaseCommit {
			t.Errorf("%s: HEAD %s (%v), want %s", n.Dir, head, err, sb.BaseCommit)
		}
		p, err := sb.loadConfined(n.Policy)
		if err != nil {
			t.Fatal(err)
		}
		if p.Node.Name != name || p.Repo.ResultBranch != name || p.SigningKeyPath() != n.Key || p.TaskSignersPath() != sb.TaskSigners {
			t.Errorf("%s: node %q, result_branch %q, signing_key %q, task_signers %q", n.Policy, p.Node.Name, p.Repo.ResultBranch, p.SigningKeyPath(), p.TaskSignersPath())
		}
		if m := mainPol.Nodes[i]; m.Name != name || m.ResultBranch != name || mainPol.NodeResultSignersPath(m) != n.Signers {
			t.Errorf("MAIN's nodes[%d] = %+v, want %s with %s", i, m, name, n.Signers)
		}
		if got, want := sb.onAirEnv(n), hacksim.OnAirEnv+"="+wantEnv[i]+sb.OnAir; got != want {
			t.Errorf("%s: %s, want %s", name, got, want)
		}
	}
	if _, err := sb.Setup.SSHKeygen(); err != nil {
		t.Skipf("ssh-keygen is not installed: %v", err)
	}
	// A key listed for rx-a cannot speak for rx-b.
	work := filepath.Join(sb.Root, "keytest")
	if _, err := sb.git(ctx, sb.Root, "init", "--quiet", work); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(work, "f"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	a, b := sb.nodes[0], sb.nodes[1]
	g := &gitcli.Client{R: sb.Setup, Dir: work, Identity: a.identity(), SigningKey: a.Key}
	if err := g.Add(ctx, "f"); err != nil {
		t.Fatal(err)
	}
	id, err := g.Commit(ctx, "signed by rx-a", nil)
	if err != nil {
		t.Fatal(err)
	}
	if sig, err := g.VerifyLastChange(ctx, id, "f", a.Signers); err != nil || sig.Principal != "rx-a@demo" {
		t.Errorf("rx-a's allowed signers: %+v, %v; want rx-a@demo", sig, err)
	}
	var se *gitcli.SignatureError
	if _, err := g.VerifyLastChange(ctx, id, "f", b.Signers); !errors.As(err, &se) {
		t.Errorf("rx-b's allowed signers accepted rx-a's key: %v", err)
	}
}

// TestRXNodesRefusedBeforeAnything: Run and NewSandbox refuse a count
// outside 1..8, naming the flag and the value, and create nothing.
func TestRXNodesRefusedBeforeAnything(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{-1, 9, 100} {
		err := Run(context.Background(), Options{Exe: exe, Auto: true, RXNodes: n, Out: &strings.Builder{}})
		if err == nil || !strings.Contains(err.Error(), "--rx-nodes") || !strings.Contains(err.Error(), "1 to 8") {
			t.Errorf("Run with %d nodes: %v", n, err)
		}
		if _, err := NewSandbox(context.Background(), Options{Exe: exe, RXNodes: n}, "", ""); err == nil {
			t.Errorf("NewSandbox with %d nodes accepted", n)
		}
	}
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		t.Errorf("created: %v", left)
	}
	for _, n := range []int{1, 8} {
		if err := CheckRXNodes(n); err != nil {
			t.Errorf("CheckRXNodes(%d): %v", n, err)
		}
	}
}
