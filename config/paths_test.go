package config

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestPathHelpers(t *testing.T) {
	p := Default()
	p.Repo.Path = abs("/srv/rx")
	if got, want := p.StatePath("rx_agent_state.json"), abs("/srv/rx/.local/rx_agent_state.json"); got != want {
		t.Errorf("StatePath = %q, want %q", got, want)
	}
	if got, want := p.StatePath(), abs("/srv/rx/.local"); got != want {
		t.Errorf("StatePath() = %q, want %q", got, want)
	}
	if got, want := p.StatePath("rx_agent_outbox", "T_1", "TASK.md"), abs("/srv/rx/.local/rx_agent_outbox/T_1/TASK.md"); got != want {
		t.Errorf("StatePath(outbox) = %q, want %q", got, want)
	}
	if got, want := p.AuditPath(), abs("/srv/rx/.local/audit.jsonl"); got != want {
		t.Errorf("AuditPath = %q, want %q", got, want)
	}
	if got, want := p.CaptureDir(), abs("/srv/rx/.local/captures"); got != want {
		t.Errorf("CaptureDir = %q, want %q", got, want)
	}
	if got := p.IQFilePath(); got != "" {
		t.Errorf("IQFilePath with none set = %q, want empty", got)
	}

	// Absolute paths are kept; relative repo.path stays relative.
	p.Repo.StateDir = abs("/var/lib/rfhandoff")
	p.Audit.Path = abs("/var/log/rfhandoff/audit.jsonl")
	p.TX.IQFile = "iq/burst.ci8"
	p.Repo.Path = "."
	if got, want := p.StatePath("x"), abs("/var/lib/rfhandoff/x"); got != want {
		t.Errorf("StatePath abs = %q, want %q", got, want)
	}
	if got, want := p.AuditPath(), abs("/var/log/rfhandoff/audit.jsonl"); got != want {
		t.Errorf("AuditPath abs = %q, want %q", got, want)
	}
	if got, want := p.IQFilePath(), filepath.Join("iq", "burst.ci8"); got != want {
		t.Errorf("IQFilePath = %q, want %q", got, want)
	}
	if got, want := p.CaptureDir(), filepath.Join(".local", "captures"); got != want {
		t.Errorf("CaptureDir relative = %q, want %q", got, want)
	}
}

// TestLoadMakesPathsAbsolute is the first-capture failure of a new lab: the
// example's repo.path = "." left every derived path relative, and the
// capture parameters refuse relative paths (PROTOCOL#policy-keys).
func TestLoadMakesPathsAbsolute(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll("keys", 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join("keys", "rx.allowed"), []byte("rx@lab namespaces=\"git\" ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGJlbWdkdW1teWtleWZvcnRlc3RzMDEyMzQ1Njc4OQ==\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, repoPath, want string }{
		{"dot", ".", wd},
		{"subdirectory", "lab/rx", filepath.Join(wd, "lab", "rx")},
		{"unclean", "lab/./rx/", filepath.Join(wd, "lab", "rx")},
	} {
		t.Run(c.name, func(t *testing.T) {
			file := filepath.Join(dir, c.name+".toml")
			policy := "[repo]\npath = " + strconv.Quote(c.repoPath) + "\n[tx]\niq_file = \"iq/burst.ci8\"\n"
			if c.repoPath == "." {
				policy += "[trust]\ntask_signers = \"keys/rx.allowed\"\n"
			}
			if err := os.WriteFile(file, []byte(policy), 0o600); err != nil {
				t.Fatal(err)
			}
			p, err := Load(file)
			if err != nil {
				t.Fatal(err)
			}
			if p.Repo.Path != c.want {
				t.Errorf("repo.path = %q, want %q", p.Repo.Path, c.want)
			}
			for _, kv := range p.ResolvedPaths() {
				if !filepath.IsAbs(kv[1]) {
					t.Errorf("%s = %q is not absolute", kv[0], kv[1])
				}
			}
			if got, want := p.CaptureDir(), filepath.Join(c.want, ".local", "captures"); got != want {
				t.Errorf("CaptureDir = %q, want %q", got, want)
			}
		})
	}
	p, err := LoadLocated("")
	if err != nil || p.Repo.Path != wd || !filepath.IsAbs(p.AuditPath()) {
		t.Errorf("built-in defaults: repo.path %q audit %q (%v), want both absolute under %q", p.Repo.Path, p.AuditPath(), err, wd)
	}
}

func TestShown(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	wd, _ := os.Getwd()
	for _, c := range []struct{ in, want string }{
		{filepath.Join(wd, "docs", "task.md"), filepath.Join("docs", "task.md")},
		{wd, "."},
		{filepath.Dir(wd), filepath.Dir(wd)},
		{filepath.Join(filepath.Dir(wd), "..x"), filepath.Join(filepath.Dir(wd), "..x")},
	} {
		if got := Shown(c.in); got != c.want {
			t.Errorf("Shown(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// PROTOCOL#policy-keys: a repo.path inside a checkout stands for the checkout, as
// for git: run from docs/handoff/, rfhandoff works at the checkout's top
// (a .git directory, or a linked worktree's .git file), so .local is the
// checkout's. One that does not exist, or lies in no checkout, is kept
// and refused by InCheckout, with what to do.
func TestRepoPathIsTheCheckoutsTop(t *testing.T) {
	base := t.TempDir()
	t.Chdir(base)
	co := filepath.Join(base, "co")
	wt := filepath.Join(base, "wt")
	for _, d := range []string{filepath.Join(co, ".git"), filepath.Join(co, "docs", "handoff"), filepath.Join(wt, "sub"), filepath.Join(base, "plain")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(wt, ".git"), []byte("gitdir: "+filepath.Join(co, ".git", "worktrees", "wt")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, repoPath, want string
		refused              string // InCheckout's refusal holds this; "" passes
	}{
		{"top", "co", co, ""},
		{"subdirectory", "co/docs/handoff", co, ""},
		{"linked worktree's subdirectory", "wt/sub", wt, ""},
		{"missing below a checkout", "co/nope", filepath.Join(co, "nope"), "does not exist"},
		{"no checkout", "plain", filepath.Join(base, "plain"), "is not inside a git checkout"},
	} {
		t.Run(c.name, func(t *testing.T) {
			file := filepath.Join(base, "policy.toml")
			if err := os.WriteFile(file, []byte("[repo]\npath = "+strconv.Quote(c.repoPath)+"\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			p, err := Load(file)
			if err != nil {
				t.Fatal(err)
			}
			if p.Repo.Path != c.want || p.StatePath() != filepath.Join(c.want, ".local") {
				t.Errorf("repo.path %q, state %q; want %q", p.Repo.Path, p.StatePath(), c.want)
			}
			err = p.InCheckout()
			switch {
			case c.refused == "" && err != nil:
				t.Errorf("InCheckout: %v", err)
			case c.refused != "" && (err == nil || !strings.Contains(err.Error(), c.refused) || !strings.Contains(err.Error(), "nothing was written")):
				t.Errorf("InCheckout: %v; want a refusal saying %q", err, c.refused)
			}
		})
	}
}

// A [trust] file read relative to a repo.path in no checkout is missing
// because of where the command ran: the refusal says that too, first.
func TestTrustFileOutsideACheckoutSaysWhy(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	file := filepath.Join(dir, "policy.toml")
	if err := os.WriteFile(file, []byte("[trust]\ntask_signers = \".local/task_signers\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Load(file)
	if err == nil || !strings.Contains(err.Error(), "trust.task_signers") || !strings.Contains(err.Error(), dir+" is not inside a git checkout") {
		t.Errorf("Load = %v; want the missing file and that %s is in no checkout", err, dir)
	}
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o700); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(file); err == nil || strings.Contains(err.Error(), "not inside a git checkout") {
		t.Errorf("Load in a checkout = %v; want only the missing file", err)
	}
}
