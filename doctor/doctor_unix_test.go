//go:build !windows

package doctor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"rfhandoff/config"
	"rfhandoff/exec"
	"rfhandoff/internal/faultkit"
	"rfhandoff/internal/gittest"
)

// clockStandIn writes a timedatectl that answers answer (its query only)
// into a directory of its own and returns the environment that finds it
// first.
func clockStandIn(t *testing.T, answer string) []string {
	t.Helper()
	dir := t.TempDir()
	script := "#!/bin/sh\n[ \"$*\" = \"show -p NTPSynchronized --value\" ] || exit 9\necho " + answer + "\n"
	if err := os.WriteFile(filepath.Join(dir, "timedatectl"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PATH=") {
			env = append(env, kv)
		}
	}
	return append(env, "PATH="+dir+string(os.PathListSeparator)+os.Getenv("PATH"))
}

// run runs the checks of side with p, the clock stand-in answering
// answer, and returns the report and the checkout's `git status
// --porcelain --ignored` before and after.
func run(t *testing.T, lab *faultkit.Lab, side Side, p config.Policy, answer string) (rep *Report, before, after string) {
	t.Helper()
	env := clockStandIn(t, answer)
	scratch := t.TempDir()
	audit, err := exec.OpenAuditLog(filepath.Join(scratch, "audit.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	hooks := filepath.Join(scratch, "nohooks")
	remote := filepath.Join(scratch, "remote")
	for _, d := range []string{hooks, remote} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	tools := map[exec.Tool]string{exec.Git: p.Tools.Git, exec.HackRFInfo: p.Tools.HackRFInfo, exec.HackRFTransfer: p.Tools.HackRFTransfer, exec.HackRFClock: p.Tools.HackRFClock}
	stack := func(protocols []string) (*exec.Stack, error) {
		return exec.New(exec.Options{Role: exec.RoleProbe, Tools: tools, Audit: audit, Environ: env, HooksDir: hooks, GitProtocols: protocols})
	}
	status := func() string {
		if _, err := os.Stat(p.Repo.Path); err != nil {
			return "no directory"
		}
		return gittest.Git(t, lab.R, lab.Main.Dir, "status", "--porcelain", "--ignored")
	}
	before = status()
	rep, err = Run(t.Context(), Deps{Side: side, Policy: p, PolicyFile: "test.toml", Stack: stack, Scratch: remote, Environ: env})
	if err != nil {
		t.Fatal(err)
	}
	after = status()
	if _, err := os.Stat(p.StatePath()); !os.IsNotExist(err) {
		t.Errorf("the state directory %s exists after doctor: %v", p.StatePath(), err)
	}
	if entries, _ := os.ReadDir(remote); len(entries) != 0 {
		t.Errorf("git left %d entries where it asked the remote", len(entries))
	}
	return rep, before, after
}

// problems are the report's problem findings, by check.
func problems(rep *Report) map[string]string {
	out := map[string]string{}
	for _, f := range rep.Findings {
		if f.Status == Problem {
			out[f.Check] += f.Text
		}
	}
	return out
}

func TestMainSideGoodLab(t *testing.T) {
	t.Parallel()
	lab := faultkit.NewLab(t)
	rep, before, after := run(t, lab, Main, lab.Main.Policy, "yes")
	if n := rep.Problems(); n != 0 {
		t.Fatalf("%d problems in a good lab: %v", n, problems(rep))
	}
	if before != after {
		t.Errorf("git status changed:\n%s\nto\n%s", before, after)
	}
	var text strings.Builder
	_ = rep.Write(&text)
	for _, want := range []string{"ok         checkout: " + lab.Main.Dir, "ok         remote: origin answers", "ok         result branch: rx-node is on the remote at",
		"ok         host clock: synchronised (timedatectl show -p NTPSynchronized --value: yes)"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, text.String())
		}
	}
}

// Each broken part on its own is a problem naming it, with what to do,
// and nothing is written.
func TestMainSideBrokenParts(t *testing.T) {
	t.Parallel()
	lab := faultkit.NewLab(t)
	for _, c := range []struct {
		name   string
		edit   func(p *config.Policy)
		answer string
		check  string
		want   []string
	}{
		{"not a checkout", func(p *config.Policy) { p.Repo.Path = t.TempDir() }, "yes", "checkout", []string{"is not inside a git checkout", "nothing was written"}},
		{"state not ignored", func(p *config.Policy) { p.Repo.StateDir = "state"; p.Audit.Path = "state/audit.jsonl" }, "yes", "state directory",
			[]string{"is not ignored by git in", "add the line /state/ to " + filepath.Join(lab.Main.Dir, ".git", "info", "exclude")}},
		{"unreachable remote", func(p *config.Policy) { p.Repo.URL = "file://" + filepath.Join(t.TempDir(), "gone.git") }, "yes", "remote",
			[]string{"cannot be listed"}},
		{"missing result branch", func(p *config.Policy) { p.Repo.ResultBranch = "rx-missing" }, "yes", "result branch",
			[]string{"rx-missing does not exist on the remote", `git push origin "$(git rev-parse HEAD)":refs/heads/rx-missing`}},
		{"missing node branch", func(p *config.Policy) {
			p.Nodes = []config.MainNode{{Name: "rx-a", ResultBranch: "rx-a"}, {Name: "rx-b", ResultBranch: "rx-node"}}
		}, "yes", "result branch of node rx-a", []string{`refs/heads/rx-a`}},
		{"clock not synchronised", func(p *config.Policy) {}, "no", "host clock",
			[]string{"NOT synchronised (timedatectl show -p NTPSynchronized --value: no)", "clock.require_synchronized = false"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := lab.Main.Policy
			c.edit(&p)
			rep, before, after := run(t, lab, Main, p, c.answer)
			got := problems(rep)
			if len(got) != 1 || got[c.check] == "" {
				t.Fatalf("problems %v, want one, %s", got, c.check)
			}
			for _, w := range c.want {
				if !strings.Contains(got[c.check], w) {
					t.Errorf("%s: %q lacks %q", c.check, got[c.check], w)
				}
			}
			if before != after {
				t.Errorf("git status changed:\n%s\nto\n%s", before, after)
			}
		})
	}
}

// A clock the policy lets run unsynchronised is said, not a problem.
func TestClockWaived(t *testing.T) {
	t.Parallel()
	lab := faultkit.NewLab(t)
	p := lab.Main.Policy
	p.Clock.RequireSynchronized = false
	rep, _, _ := run(t, lab, Main, p, "no")
	if n := rep.Problems(); n != 0 {
		t.Fatalf("problems: %v", problems(rep))
	}
	for _, f := range rep.Findings {
		if f.Check == "host clock" && (f.Status != Note || !strings.Contains(f.Text, "NOT synchronised")) {
			t.Fatalf("host clock finding %+v", f)
		}
	}
}

// The RX side needs one planned capture's bytes and the margin free.
func TestRXSideNoSpace(t *testing.T) {
	t.Parallel()
	lab := faultkit.NewLab(t)
	p := lab.RX.Policy
	p.Capture.FreeMarginMB = 1 << 20 // 1 TiB beyond the capture
	rep, _, _ := run(t, lab, RX, p, "yes")
	got := problems(rep)
	if !strings.Contains(got["free space"], "plus the 1099.5 GB margin (capture.free_margin_mb)") || !strings.Contains(got["free space"], "lower limits.planned_duration_s") {
		t.Fatalf("free space: %q (all: %v)", got["free space"], got)
	}
}
