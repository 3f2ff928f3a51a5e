package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"rfhandoff/config"
	"rfhandoff/internal/faultkit"
	"rfhandoff/internal/gittest"
)

const doctorWait = 2 * time.Minute

// clockPath is a PATH whose first directory holds a timedatectl stand-in
// answering answer to its one query (the simulator's directory, which
// TestMain put first, comes next).
func clockPath(t *testing.T, answer string) string {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the clock stand-in is a shell script; Windows asks w32tm")
	}
	dir := t.TempDir()
	script := "#!/bin/sh\n[ \"$*\" = \"show -p NTPSynchronized --value\" ] || exit 9\necho " + answer + "\n"
	if err := os.WriteFile(filepath.Join(dir, "timedatectl"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return "PATH=" + dir + string(os.PathListSeparator) + os.Getenv("PATH")
}

// doctorPolicy writes p to a private file of its own and returns its path.
func doctorPolicy(t *testing.T, p config.Policy) string {
	t.Helper()
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "policy.toml")
	if err := os.WriteFile(path, []byte(p.TOML()), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// runDoctor runs `rfhandoff --config policy doctor side` in dir with the
// clock stand-in answering answer, and checks that it wrote nothing: the
// checkout's `git status --porcelain --ignored` is unchanged and no state
// directory appeared.
func runDoctor(t *testing.T, lab *faultkit.Lab, s *faultkit.Side, dir, policy, side, answer string) faultkit.Output {
	t.Helper()
	status := func() string { return gittest.Git(t, lab.R, s.Dir, "status", "--porcelain", "--ignored") }
	before := status()
	// The child keeps the first of two PATHs: this one replaces the side's.
	var env []string
	for _, kv := range s.Env() {
		if !strings.HasPrefix(kv, "PATH=") {
			env = append(env, kv)
		}
	}
	out := faultkit.Run(t, append(env, clockPath(t, answer)), dir, doctorWait, "", "--config", policy, "doctor", side)
	if after := status(); after != before {
		t.Errorf("git status changed:\n%s\nto\n%s", before, after)
	}
	for _, d := range []string{filepath.Join(s.Dir, ".local"), filepath.Join(dir, ".local")} {
		if _, err := os.Lstat(d); !os.IsNotExist(err) {
			t.Errorf("%s exists after doctor (%v)", d, err)
		}
	}
	return out
}

// A good lab: every check passes, exit 0, nothing written; the HackRF
// tools are named as the simulator.
func TestDoctorGoodLab(t *testing.T) {
	lab := faultkit.NewLab(t)
	for _, c := range []struct {
		side string
		s    *faultkit.Side
		want []string
	}{
		{"rx", lab.RX, []string{"ok         checkout: " + lab.RX.Dir, "ok         state directory:", "ok         remote: origin answers",
			"ok         task branch: video-development is on the remote", "ok         result branch: rx-node is on the remote",
			"ok         board: HackRF One serial", "ok         CLKIN: clock signal detected",
			"ok         host clock: synchronised (timedatectl show -p NTPSynchronized --value: yes)", "ok         free space:",
			"is rfhandoff's own HackRF SIMULATOR", "are NOT on record", "no problems found for the rx side"}},
		{"main", lab.Main, []string{"ok         checkout: " + lab.Main.Dir, "ok         result branch: rx-node is on the remote",
			"no problems found for the main side"}},
	} {
		t.Run(c.side, func(t *testing.T) {
			out := runDoctor(t, lab, c.s, c.s.Dir, c.s.PolicyFile, c.side, "yes")
			if out.Code != 0 {
				t.Fatalf("doctor %s in a good lab: %s", c.side, out)
			}
			for _, w := range c.want {
				if !strings.Contains(out.Stdout, w) {
					t.Errorf("stdout lacks %q:\n%s", w, out.Stdout)
				}
			}
		})
	}
}

// Each broken part on its own: exit 1, the line naming it, nothing
// written.
func TestDoctorBrokenParts(t *testing.T) {
	lab := faultkit.NewLab(t)
	outside := t.TempDir()
	for _, c := range []struct {
		name   string
		edit   func(p *config.Policy)
		dir    string // where it runs (default: the checkout)
		answer string
		want   []string
	}{
		{"not a checkout", func(p *config.Policy) { p.Repo.Path = "." }, outside, "yes",
			[]string{"PROBLEM    checkout: " + outside + " is not inside a git checkout"}},
		{"state not ignored", func(p *config.Policy) {
			p.Repo.StateDir, p.Audit.Path = "state", "state/audit.jsonl" // captures stay in the ignored .local
		}, "", "yes", []string{"PROBLEM    state directory: state directory " + filepath.Join(lab.RX.Dir, "state") + " is not ignored by git in", "add the line /state/ to"}},
		{"unreachable remote", func(p *config.Policy) { p.Repo.URL = "file://" + filepath.ToSlash(filepath.Join(outside, "gone.git")) }, "", "yes",
			[]string{"PROBLEM    remote: origin (file://", "cannot be listed"}},
		{"missing result branch", func(p *config.Policy) { p.Repo.ResultBranch = "rx-missing" }, "", "yes",
			[]string{"PROBLEM    result branch: rx-missing does not exist on the remote", `git push origin "$(git rev-parse HEAD)":refs/heads/rx-missing`}},
		{"clock not synchronised", func(p *config.Policy) {}, "", "no",
			[]string{"PROBLEM    host clock: NOT synchronised (timedatectl show -p NTPSynchronized --value: no)", "clock.require_synchronized = false"}},
		{"no space", func(p *config.Policy) { p.Capture.FreeMarginMB = 1 << 20 }, "", "yes",
			[]string{"PROBLEM    free space: one planned capture needs", "lower limits.planned_duration_s or capture.sample_rate_hz"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := lab.RX.Policy
			c.edit(&p)
			dir := c.dir
			if dir == "" {
				dir = lab.RX.Dir
			}
			out := runDoctor(t, lab, lab.RX, dir, doctorPolicy(t, p), "rx", c.answer)
			if out.Code != 1 {
				t.Fatalf("want exit 1: %s", out)
			}
			for _, w := range c.want {
				if !strings.Contains(out.Stdout, w) {
					t.Errorf("stdout lacks %q:\n%s", w, out.Stdout)
				}
			}
			if n := strings.Count(out.Stdout, "\nPROBLEM "); n != 1 {
				t.Errorf("%d problems, want this one alone:\n%s", n, out.Stdout)
			}
			if !strings.Contains(out.Stdout, "1 problem(s): fix each line marked PROBLEM") {
				t.Errorf("no summary:\n%s", out.Stdout)
			}
		})
	}
}

// The simulator on PATH is named for what it is, tool by tool, and the
// real tools it shadows are never taken for it: a problem unless the
// policy says simulation is intended ([tools] allow_simulator), a note
// when it does.
func TestDoctorNamesTheSimulator(t *testing.T) {
	for _, allowed := range []bool{false, true} {
		t.Run(fmt.Sprintf("allow_simulator=%t", allowed), func(t *testing.T) {
			lab := faultkit.NewLab(t)
			p := lab.RX.Policy
			p.Tools.HackRFInfo, p.Tools.HackRFTransfer, p.Tools.HackRFClock = "", "", "" // from PATH: the simulator comes first
			p.Tools.AllowSimulator = allowed
			out := runDoctor(t, lab, lab.RX, lab.RX.Dir, doctorPolicy(t, p), "rx", "yes")
			mark, code := "PROBLEM", 1
			if allowed {
				mark, code = "note", 0
			}
			if out.Code != code {
				t.Errorf("exit %d, want %d:\n%s", out.Code, code, out.Stdout)
			}
			for _, name := range simulatorNames {
				line := ""
				for _, l := range strings.Split(out.Stdout, "\n") {
					if strings.Contains(l, " "+name+": ") {
						line = l
					}
				}
				if !strings.Contains(line, "is rfhandoff's own HackRF SIMULATOR, not a radio") || !strings.HasPrefix(line, mark) ||
					!strings.Contains(line, "allow_simulator") {
					t.Errorf("%s: %q, want a %s naming the simulator and allow_simulator", name, line, mark)
				}
			}
			if !strings.Contains(out.Stdout, "ok         git: ") || strings.Contains(out.Stdout, "git: "+filepath.Dir(faultkit.Bin(t))) {
				t.Errorf("git is not named as itself:\n%s", out.Stdout)
			}
		})
	}
}

// A policy that does not load is the one problem, with every reason;
// nothing else is checked and nothing written.
func TestDoctorInvalidPolicy(t *testing.T) {
	lab := faultkit.NewLab(t)
	policy := filepath.Join(t.TempDir(), "policy.toml")
	body := "[repo]\npath = " + `"` + filepath.ToSlash(lab.RX.Dir) + `"` + "\n\n[limits]\nplanned_duration_s = 1\n\n[clock]\nrequire_synchronised = true\n"
	if err := os.WriteFile(policy, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	out := runDoctor(t, lab, lab.RX, lab.RX.Dir, policy, "rx", "yes")
	if out.Code != 1 {
		t.Fatalf("want exit 1: %s", out)
	}
	for _, w := range []string{"PROBLEM    policy: policy " + policy + ": 2 problems:", "limits.planned_duration_s = 1: must be 15 to 3600",
		"clock.require_synchronised", "1 problem(s): nothing else was checked"} {
		if !strings.Contains(out.Stdout, w) {
			t.Errorf("stdout lacks %q:\n%s", w, out.Stdout)
		}
	}
}
