package e2e

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"rfhandoff/internal/faultkit"
	"rfhandoff/internal/gittest"
	"rfhandoff/internal/prompttest"
	"rfhandoff/internal/rxtest"
	"rfhandoff/state"
)

// setupLab is an RX fixture whose policy keeps the default repo.path
// "." (the checkout the command is run in), with a subdirectory of the
// checkout (docs/handoff, where the task file lives) and a directory in no
// checkout to run from.
type setupLab struct {
	rx      *rxtest.RX
	top     string // the checkout
	sub     string // docs/handoff inside it
	outside string // in no checkout
	status  string // git status --porcelain --ignored before anything ran
}

func newSetupLab(t *testing.T, o rxtest.Options) *setupLab {
	t.Helper()
	rx := rxtest.New(t, o)
	rx.Policy.Repo.Path = "."
	rx.WritePolicy()
	l := &setupLab{rx: rx, top: rx.Dir, sub: filepath.Join(rx.Dir, "docs", "handoff"), outside: t.TempDir()}
	if err := os.MkdirAll(l.sub, 0o755); err != nil {
		t.Fatal(err)
	}
	l.status = l.gitStatus(t)
	return l
}

// run runs rfhandoff in dir with the fixture's environment (its policy
// through RFHANDOFF_CONFIG), no terminal.
func (l *setupLab) run(t *testing.T, dir string, args ...string) faultkit.Output {
	t.Helper()
	return faultkit.Run(t, l.rx.Environ(), dir, rxWait, "", args...)
}

func (l *setupLab) gitStatus(t *testing.T) string {
	t.Helper()
	return gittest.Git(t, l.rx.Runner(), l.top, "status", "--porcelain", "--ignored", "--untracked-files=all")
}

// wroteNothingElse fails unless git status shows nothing new in the
// checkout but, when stateAllowed, the ignored state directory; and
// unless no .local appeared in the subdirectory or the outside directory.
func (l *setupLab) wroteNothingElse(t *testing.T, stateAllowed bool) {
	t.Helper()
	var extra []string
	for _, line := range strings.Split(l.gitStatus(t), "\n") {
		if line == "" || strings.Contains(l.status, line+"\n") {
			continue
		}
		if stateAllowed && strings.HasPrefix(line, "!! .local/") {
			continue
		}
		extra = append(extra, line)
	}
	if len(extra) > 0 {
		t.Errorf("git status shows what the commands wrote in the checkout: %q", extra)
	}
	if !stateAllowed {
		if _, err := os.Lstat(filepath.Join(l.top, ".local")); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s/.local exists: %v", l.top, err)
		}
	}
	for _, d := range []string{l.sub, l.outside} {
		if _, err := os.Lstat(filepath.Join(d, ".local")); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s/.local exists: %v", d, err)
		}
	}
	if des, err := os.ReadDir(l.outside); err != nil || len(des) != 0 {
		t.Errorf("the outside directory holds %v (%v)", des, err)
	}
}

// The commands an operator runs, as the table runs them.
type setupCmd struct {
	args []string
	// From the subdirectory: the exit status and what the output says
	// (the command worked on the checkout's top, or refused for a reason
	// of its own, not for where it was run).
	code int
	says string
}

func setupCommands(top, resultFile string) []setupCmd {
	local := filepath.Join(top, ".local")
	return []setupCmd{
		{[]string{"rx", "check"}, 0, "nothing to approve"},
		{[]string{"rx", "status"}, 0, "state file:      " + filepath.Join(local, "rx_agent_state.json")},
		{[]string{"rx", "mark-completed", "T_SETUP_DONE"}, 0, "task T_SETUP_DONE marked completed"},
		{[]string{"rx", "approve"}, 1, "no terminal"},
		{[]string{"rx", "capture"}, 1, "no task yet"},
		{[]string{"rx", "publish-result", resultFile}, 1, "check 1 (task ID)"},
		{[]string{"task", "new", "T_SETUP_NEW", "--title", "setup"}, 0, "git add"},
		{[]string{"tx", "execute"}, 1, "no unused, unexpired record in " + filepath.Join(local, "tx_records.json")},
		{[]string{"tx", "status"}, 0, "records:        0 in " + filepath.Join(local, "tx_authorizations")},
		{[]string{"audit", "show"}, 0, "git rev-parse"},
		{[]string{"audit", "verify"}, 0, "intact"},
		{[]string{"config", "check"}, 0, "[repo]\npath = " + strconv.Quote(top)},
	}
}

// TestEveryCommandFromASubdirectoryAndOutside (PROTOCOL#rx-state, PROTOCOL#policy-keys): run
// from docs/handoff inside the checkout, every command works on the
// checkout's top (its .local, its task file) as git would; run from a
// directory in no checkout, each refuses in one sentence saying so (no git
// command line), exit 1 (config check, the offline policy check, warns and
// exits 0), and writes nothing. Afterwards git status shows nothing new
// but the ignored state directory, and no .local appeared anywhere else.
func TestEveryCommandFromASubdirectoryAndOutside(t *testing.T) {
	t.Parallel()
	l := newSetupLab(t, rxtest.Options{})
	resultFile := filepath.Join(t.TempDir(), "RX_RESULT.json")
	if err := os.WriteFile(resultFile, []byte("{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cmds := setupCommands(l.top, resultFile)

	t.Run("outside any checkout", func(t *testing.T) {
		for _, c := range append(cmds, setupCmd{args: []string{"rx", "watch"}}, setupCmd{args: []string{"tx", "watch"}}) {
			o := l.run(t, l.outside, c.args...)
			name := strings.Join(c.args, " ")
			want := 1
			if name == "config check" {
				want = 0 // offline: a warning
			}
			if o.Code != want || !strings.Contains(o.Stderr, l.outside+" is not inside a git checkout") || !strings.Contains(o.Stderr, "cd into the checkout") {
				t.Errorf("%s: exit %d, stderr %q; want %d and the sentence that it is in no checkout", name, o.Code, o.Stderr, want)
			}
			if strings.Contains(o.Stderr, "core.hooksPath") || strings.Contains(o.Stderr, "fatal:") {
				t.Errorf("%s: git's command line or complaint in the refusal: %q", name, o.Stderr)
			}
		}
		l.wroteNothingElse(t, false)
	})

	t.Run("from a subdirectory", func(t *testing.T) {
		for _, c := range cmds {
			o := l.run(t, l.sub, c.args...)
			name := strings.Join(c.args, " ")
			if o.Code != c.code || !strings.Contains(o.Stdout+o.Stderr, c.says) {
				t.Errorf("%s: exit %d, want %d saying %q; stdout %q, stderr %q", name, o.Code, c.code, c.says, o.Stdout, o.Stderr)
			}
			if strings.Contains(o.Stderr, "not inside a git checkout") || strings.Contains(o.Stderr, "not ignored") {
				t.Errorf("%s: refused for where it ran: %q", name, o.Stderr)
			}
		}
		// The task file went to the checkout's task_file, not below the
		// subdirectory.
		task := filepath.Join(l.top, "docs", "handoff", "NEXT_RX_TASK.md")
		if data, err := os.ReadFile(task); err != nil || !strings.Contains(string(data), "T_SETUP_NEW") {
			t.Errorf("task new wrote no %s: %v", task, err)
		}
		if err := os.Remove(task); err != nil {
			t.Fatal(err)
		}
		if st, err := state.LoadRX(filepath.Join(l.top, ".local")); err != nil || !st.Completed("T_SETUP_DONE") {
			t.Errorf("the checkout's RX state: %+v, %v; want T_SETUP_DONE completed", st, err)
		}
		// The watchers start on the checkout's top and stop cleanly.
		local := filepath.Join(l.top, ".local")
		for _, w := range []struct {
			args    []string
			running func() (bool, error)
		}{
			{[]string{"rx", "watch"}, func() (bool, error) { st, err := state.LoadRX(local); return st.Running, err }},
			{[]string{"tx", "watch"}, func() (bool, error) { st, err := state.LoadTX(local); return st.Running, err }},
		} {
			name := strings.Join(w.args, " ")
			s := prompttest.StartDetached(t, faultkit.Bin(t), w.args, prompttest.Options{Dir: l.sub, Env: l.rx.Environ()})
			waitFor(t, name+" to record running in "+local, func() bool {
				running, err := w.running()
				return err == nil && running
			})
			s.Signal(syscall.SIGTERM)
			if code := exitOf(t, s); code != 0 {
				t.Errorf("%s: exit %d after SIGTERM, stderr:\n%s", name, code, s.Stderr)
			}
		}
		l.wroteNothingElse(t, true)
	})
}

// TestNotIgnoredStateRefusedWritesNothing (PROTOCOL#rx-state): in a checkout
// whose .local git does not ignore, every command that writes refuses
// before it writes anything (no .local, no audit log, no mirror, no task
// file), from the top, from a subdirectory and from a linked worktree,
// and its advice names the exclude file git really reads: the
// checkout's .git/info/exclude, the main repository's for a worktree
// (which has no .git directory of its own).
func TestNotIgnoredStateRefusedWritesNothing(t *testing.T) {
	t.Parallel()
	l := newSetupLab(t, rxtest.Options{NotIgnored: true})
	resultFile := filepath.Join(t.TempDir(), "RX_RESULT.json")
	if err := os.WriteFile(resultFile, []byte("{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	wt := linkedWorktree(t, l)
	exclude := filepath.Join(l.top, ".git", "info", "exclude")
	for _, c := range []struct {
		dir  string
		args []string
	}{
		{l.top, []string{"rx", "check"}},
		{l.sub, []string{"rx", "check"}},
		{l.sub, []string{"rx", "watch"}},
		{l.sub, []string{"rx", "mark-completed", "T_SETUP_DONE"}},
		{l.sub, []string{"rx", "capture"}},
		{l.sub, []string{"rx", "publish-result", resultFile}},
		{l.sub, []string{"task", "new", "T_SETUP_NEW", "--title", "setup"}},
		{l.sub, []string{"tx", "watch"}},
		{l.sub, []string{"tx", "execute"}},
		{l.sub, []string{"audit", "verify", "--remote"}},
		{filepath.Join(wt, "docs"), []string{"rx", "check"}},
		{wt, []string{"task", "new", "T_SETUP_NEW", "--title", "setup"}},
	} {
		o := l.run(t, c.dir, c.args...)
		top := l.top
		if strings.HasPrefix(c.dir, wt) {
			top = wt
		}
		want := "state directory " + filepath.Join(top, ".local") + " is not ignored by git in " + top
		if o.Code != 1 || !strings.Contains(o.Stderr, want) || !strings.Contains(o.Stderr, "add the line /.local/ to "+exclude+" ") {
			t.Errorf("%s in %s: exit %d, stderr %q; want 1, %q and the advice naming %s", strings.Join(c.args, " "), c.dir, o.Code, o.Stderr, want, exclude)
		}
		if _, err := os.Lstat(filepath.Join(wt, ".local")); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s: the worktree's .local exists: %v", strings.Join(c.args, " "), err)
		}
	}
	l.wroteNothingElse(t, false)
}

// linkedWorktree makes a linked worktree of the lab's checkout
// (gittest.LinkedWorktree), with a docs directory.
func linkedWorktree(t *testing.T, l *setupLab) string {
	t.Helper()
	wt := gittest.LinkedWorktree(t, l.rx.Runner(), l.top)
	if err := os.Mkdir(filepath.Join(wt, "docs"), 0o755); err != nil {
		t.Fatal(err)
	}
	return wt
}
