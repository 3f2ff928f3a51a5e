package e2e

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"rfhandoff/config"
	"rfhandoff/gate"
	"rfhandoff/internal/faultkit"
	"rfhandoff/internal/gittest"
	"rfhandoff/internal/publishtest"
	"rfhandoff/internal/rxtest"
	"rfhandoff/internal/tasktest"
	"rfhandoff/internal/txtest"
	"rfhandoff/state"
	"rfhandoff/txwatch"
)

// The ownership boundary (issue 29; PROTOCOL#rx-state, PROTOCOL#policy-file, PROTOCOL#local-files; OPERATIONS#threat-model):
// what rfhandoff trusts on the local disk — the state directory and what
// is in it, the policy, the trust files — must be changeable by the
// account running it alone, and the policy must come from where the
// operator put it, never from a branch. Each attack below is what the
// issue found working: an agent as a second OS account (faultkit.Account,
// root on Linux only), or git pull bringing a branch's files into the
// checkout. Each is refused before anything is captured, published or
// run, naming the path and the fix.

// forgedApproval is the RX state an agent writes to approve the fixture
// task without any terminal: last_approved_task_id and the approval with
// the task file's digest (finding 10).
func forgedApproval(t *testing.T, f *publishtest.Fixture) []byte {
	t.Helper()
	sum := hex.EncodeToString(func() []byte { s := sha256.Sum256(f.TaskData); return s[:] }())
	dir := t.TempDir()
	st := state.RX{
		LastSeenTaskID: publishtest.TaskID, LastSeenTaskCommit: f.TaskCommit, LastApprovedTaskID: publishtest.TaskID,
		Approval:        &state.Approval{TaskID: publishtest.TaskID, TaskSHA256: sum, Commit: f.TaskCommit, ApprovedAt: time.Now().UTC().Truncate(time.Second)},
		SeenTaskDigests: map[string]string{publishtest.TaskID: sum},
	}
	if err := state.SaveRX(dir, st); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, state.RXStateFile))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// refusedWithForgedApproval runs what a forged approval would let
// through — rx publish-result of a READY (its check 4 reads the approval)
// and rx capture of the fixture task — and checks that each was refused
// naming each of wants, with nothing captured or published.
func refusedWithForgedApproval(t *testing.T, s *captureSide, wants ...string) {
	t.Helper()
	base := s.f.ResultTip(t)
	p := s.f.Policy
	p.Limits.PlannedDurationS = 15 // s's policy
	head := strings.TrimSpace(gittest.Git(t, s.f.Runner, s.f.Checkout, "rev-parse", "HEAD"))
	ready := filepath.Join(t.TempDir(), "RX_RESULT.json")
	if err := os.WriteFile(ready, publishtest.Encode(t, tasktest.Ready(publishtest.TaskID, head, p, time.Now().UTC().Truncate(time.Millisecond), 2*time.Second)), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"--config", s.policy, "rx", "publish-result", ready}, s.args(publishtest.TaskID)} {
		out := faultkit.Run(t, s.env, s.f.Checkout, 3*time.Minute, "", args...)
		if out.Code != 1 {
			t.Errorf("rfhandoff %s with a forged approval: want exit 1, refused\n%s", strings.Join(args[2:], " "), out)
		}
		for _, w := range wants {
			if !strings.Contains(out.Stderr, w) {
				t.Errorf("rfhandoff %s: the refusal does not say %q:\n%s", strings.Join(args[2:], " "), w, out.Stderr)
			}
		}
	}
	if tip := s.f.ResultTip(t); tip != base {
		t.Errorf("the result branch moved to %s: something was published", tip)
	}
	if _, err := os.Stat(s.dataPath()); !os.IsNotExist(err) {
		t.Errorf("%s: %v; want no capture", s.dataPath(), err)
	}
}

// shareTree lets a's group write dir itself (not what is in it): a lab's
// working tree an agent works in, where it may create and rename entries.
func shareTree(t *testing.T, a *faultkit.Account, dir string) {
	t.Helper()
	faultkit.LetReach(t, filepath.Join(dir, "x"))
	if err := os.Chown(dir, -1, a.GID); err != nil {
		t.Fatal(err)
	}
	faultkit.Chmod(t, dir, 0o775)
}

// Finding 10, the state directory renamed away: an agent that may write
// the working tree moves .local aside, makes its own and writes an
// approval into it. rx capture refuses the directory another account
// owns, naming it, its owner and what to do, before it reads the forged
// state; nothing is captured or published.
func TestOwnerAgentRecreatesStateDir(t *testing.T) {
	t.Parallel()
	a := faultkit.NewAccount(t)
	s := newCaptureSideWith(t, "", nil, publishtest.Options{NoApproval: true}, "")
	shareTree(t, a, s.f.Checkout)
	if o := a.Run(t, s.f.Checkout, nil, string(forgedApproval(t, s.f)), "/bin/sh", "-c",
		"mv .local .local.gone && mkdir .local && cat > .local/rx_agent_state.json"); o.Code != 0 {
		t.Fatalf("the agent's rename and forged state: %s", o)
	}
	refusedWithForgedApproval(t, s, "state directory", s.f.StateDir,
		fmt.Sprintf("owned by uid %d (%s), not by you", a.UID, a.Name), "cannot be trusted")
}

// Finding 10, a state directory its group may write: the agent, in that
// group, replaces rx_agent_state.json with an approval. rx capture refuses
// the directory, naming the group and the chmod that fixes it.
func TestOwnerAgentWritesApprovalIntoGroupWritableStateDir(t *testing.T) {
	t.Parallel()
	a := faultkit.NewAccount(t)
	s := newCaptureSideWith(t, "", nil, publishtest.Options{NoApproval: true}, "")
	faultkit.LetReach(t, filepath.Join(s.f.StateDir, "x"))
	if err := os.Chown(s.f.StateDir, -1, a.GID); err != nil {
		t.Fatal(err)
	}
	faultkit.Chmod(t, s.f.StateDir, 0o770)
	if o := a.Run(t, s.f.StateDir, nil, string(forgedApproval(t, s.f)), "/bin/sh", "-c",
		"cat > forged && mv -f forged rx_agent_state.json"); o.Code != 0 {
		t.Fatalf("the agent's forged state: %s", o)
	}
	refusedWithForgedApproval(t, s, "state directory", s.f.StateDir,
		fmt.Sprintf("writable by the group %s (gid %d) (mode 0770)", a.Name, a.GID), "`chmod go-w "+s.f.StateDir+"`")
}

// The state directory a symlink to a directory holding an approval
// nobody gave at a terminal: refused as a link rfhandoff never follows,
// whether it is .local in the checkout or a state_dir outside it (where
// git is not asked about it).
func TestOwnerStateDirSymlinkRefused(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("a directory symlink needs privileges on Windows; the Unix check covers the rule")
	}
	for _, outside := range []bool{false, true} {
		s := newCaptureSideWith(t, "", nil, publishtest.Options{NoApproval: true}, "")
		elsewhere := filepath.Join(t.TempDir(), "state")
		if err := os.Mkdir(elsewhere, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(elsewhere, state.RXStateFile), forgedApproval(t, s.f), 0o600); err != nil {
			t.Fatal(err)
		}
		link := s.f.StateDir
		if outside {
			link = filepath.Join(t.TempDir(), "rx-state")
			s.policy = rewritePolicy(t, s.policy, fmt.Sprintf("state_dir = %q\n", link))
		} else if err := os.Remove(link); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(elsewhere, link); err != nil {
			t.Fatal(err)
		}
		refusedWithForgedApproval(t, s, "state directory", link, "a symlink", "never follows a link")
	}
}

// rewritePolicy writes a copy of the policy at path with line added to
// its [repo] table and returns the copy's path.
func rewritePolicy(t *testing.T, path, line string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(data), "[repo]\n", "[repo]\n"+line, 1)
	if text == string(data) {
		t.Fatalf("%s has no [repo] table", path)
	}
	out := filepath.Join(t.TempDir(), "policy.toml")
	if err := os.WriteFile(out, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return out
}

// One account, git pull: a commit on the task branch holding
// .local/rx_agent_state.json replaces the ignored state file in the
// checkout (git treats ignored files as its to overwrite). rx capture
// refuses, naming the tracked file and how to find the commit.
func TestOwnerPulledStateFileRefused(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/bin/sh"); runtime.GOOS == "windows" || err != nil {
		t.Skip("the pull runs through /bin/sh (on Windows the policy's location is judged by config.Load's tests)")
	}
	s := newCaptureSideWith(t, "", nil, publishtest.Options{NoApproval: true}, "")
	// Someone with push rights and no key: a commit that force-adds the
	// state file over the branch's own .gitignore.
	home := gittest.Home(t)
	env := gittest.Environ(home, config.EnvVar)
	work := t.TempDir()
	if err := os.WriteFile(filepath.Join(work, "forged.json"), forgedApproval(t, s.f), 0o600); err != nil {
		t.Fatal(err)
	}
	shIn(t, work, env, "git clone -q --branch video-development "+s.f.Remote.URL+" push && cd push && mkdir .local && cp ../forged.json .local/rx_agent_state.json"+
		" && git add -f .local/rx_agent_state.json && git commit -q -m 'results tooling' && git push -q origin HEAD:refs/heads/video-development")
	// The RX operator pulls, as README's first run says to.
	shIn(t, s.f.Checkout, env, "git pull -q")
	if data, err := os.ReadFile(filepath.Join(s.f.StateDir, state.RXStateFile)); err != nil || !strings.Contains(string(data), `"last_approved_task_id": "`+publishtest.TaskID) {
		t.Fatalf("the pull did not bring the state file in (%v): the attack was not tried", err)
	}
	refusedWithForgedApproval(t, s, "git tracks .local/rx_agent_state.json in "+s.f.Checkout, "cannot be trusted", "git log --stat -- .local/rx_agent_state.json")
}

// Finding 2: a policy committed to the task branch arrives with git pull;
// with no --config the lookup finds ./rfhandoff.toml in the checkout. It
// is refused, named, before it is read: its [notify] command does not run
// at the next rx check. So is the same file named with --config.
func TestOwnerPolicyFromTaskBranchNotLoaded(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/bin/sh"); runtime.GOOS == "windows" || err != nil {
		t.Skip("the pull runs through /bin/sh (on Windows the policy's location is judged by config.Load's tests)")
	}
	touch := "/usr/bin/touch"
	if _, err := os.Stat(touch); err != nil {
		t.Skipf("%s: %v", touch, err)
	}
	rx := rxtest.New(t, rxtest.Options{})
	marker := filepath.Join(t.TempDir(), "pwned")
	env := gittest.Environ(rx.Home, config.EnvVar)
	shIn(t, rx.Dir, env, "git checkout -q video-development")
	rx.PushTask(tasktest.TaskSpec{ID: "OWNER_POLICY_1", HardwareAccess: true, RFRX: true})
	evil := fmt.Sprintf("[notify]\ncommand = [%q, %q]\nevents = [\"approval_needed\"]\n", touch, marker)
	gittest.Seed(t, rx.Remote, tasktest.TaskBranch, map[string]string{config.DefaultFile: evil})
	shIn(t, rx.Dir, env, "git pull -q")
	if _, err := os.Stat(filepath.Join(rx.Dir, config.DefaultFile)); err != nil {
		t.Fatalf("the pull did not bring %s in: %v", config.DefaultFile, err)
	}
	for _, args := range [][]string{{"rx", "check"}, {"--config", config.DefaultFile, "rx", "check"}} {
		out := faultkit.Run(t, env, rx.Dir, rxWait, "", args...)
		// Named as found (./rfhandoff.toml) or as kong made --config absolute.
		want := config.DefaultFile + ": lies inside the git working tree " + rx.Dir
		if out.Code != 1 || !strings.Contains(out.Stderr, want) || !strings.Contains(out.Stderr, "--config or $"+config.EnvVar) {
			t.Errorf("rfhandoff %s with a pulled policy: want exit 1 and %q\n%s", strings.Join(args, " "), want, out)
		}
		if _, err := os.Stat(marker); !os.IsNotExist(err) {
			t.Fatalf("%s exists: the pulled policy's [notify] command ran", marker)
		}
	}
	if _, err := os.Stat(rx.StateFile()); !os.IsNotExist(err) {
		t.Errorf("rx check recorded something with a refused policy: %v", err)
	}
}

// A policy or a trust file another account may write is refused, naming
// the file, its key and the chmod that fixes it; with the mode fixed the
// same files load.
func TestOwnerWritablePolicyOrTrustFileRefused(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("mode bits: Windows' access lists are judged in localfile/private/private_windows.go")
	}
	rx := rxtest.New(t, rxtest.Options{})
	key := faultkit.NewSSHKey(t, "main")
	signers := filepath.Join(t.TempDir(), "task_signers")
	faultkit.WriteAllowedSigners(t, signers, faultkit.SignerLine("main@lab", key, ""))
	rx.Policy.Trust.TaskSigners = signers
	rx.WritePolicy()
	check := func(what string, code int, wants ...string) {
		t.Helper()
		out := faultkit.Run(t, rx.Environ(), rx.Dir, rxWait, "", "rx", "check")
		if out.Code != code {
			t.Fatalf("%s: exit %d, want %d\n%s", what, out.Code, code, out)
		}
		for _, w := range wants {
			if !strings.Contains(out.Stderr, w) {
				t.Errorf("%s: stderr lacks %q:\n%s", what, w, out.Stderr)
			}
		}
	}
	check("private files", 0)

	faultkit.Chmod(t, rx.PolicyFile, 0o646)
	check("world-writable policy", 1, "policy "+rx.PolicyFile+": ", "writable by every account (mode 0646)", "`chmod go-w "+rx.PolicyFile+"`")
	faultkit.Chmod(t, rx.PolicyFile, 0o600)

	faultkit.Chmod(t, signers, 0o666)
	check("world-writable task_signers", 1, "trust.task_signers", "file "+signers+": writable by every account (mode 0666)")
	faultkit.Chmod(t, signers, 0o644)
	check("fixed", 0)

	t.Run("writable by another account's group", func(t *testing.T) {
		a := faultkit.NewAccount(t)
		for _, f := range []string{rx.PolicyFile, signers} {
			if err := os.Chown(f, -1, a.GID); err != nil {
				t.Fatal(err)
			}
			faultkit.Chmod(t, f, 0o664)
		}
		out := faultkit.Run(t, rx.Environ(), rx.Dir, rxWait, "", "rx", "check")
		if want := "writable by the group " + a.Name + " (gid " + strconv.Itoa(a.GID) + ")"; out.Code != 1 || !strings.Contains(out.Stderr, want) {
			t.Errorf("group-writable policy: want exit 1 and %q\n%s", want, out)
		}
	})
}

// twoAccountRX is the layout OPERATIONS#threat-model recommends: an RX
// checkout its agent's account a may write (group-writable, setgid), and
// the state directory, audit log and captures under private, the
// operator's alone (reachable by a, never writable).
func twoAccountRX(t *testing.T) (*faultkit.Account, *rxtest.RX, string) {
	t.Helper()
	a := faultkit.NewAccount(t)
	rx := rxtest.New(t, rxtest.Options{})
	private := filepath.Join(t.TempDir(), "rfhandoff") // as ~/.local/state/rfhandoff
	if err := os.Mkdir(private, 0o755); err != nil {
		t.Fatal(err)
	}
	rx.Policy.Repo.StateDir = filepath.Join(private, "rx")
	rx.Policy.Audit.Path = filepath.Join(private, "rx", "audit.jsonl")
	rx.Policy.Capture.Dir = filepath.Join(private, "captures")
	rx.WritePolicy()
	// The working tree is shared with the agent's group (setgid
	// directories, group-writable files), as OPERATIONS#threat-model sets it up.
	if err := filepath.WalkDir(rx.Dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if err := os.Lchown(p, -1, a.GID); err != nil {
			return err
		}
		mode := fs.FileMode(0o664)
		if d.IsDir() {
			mode = 0o775 | fs.ModeSetgid
		}
		return os.Chmod(p, mode)
	}); err != nil {
		t.Fatal(err)
	}
	faultkit.LetReach(t, filepath.Join(rx.Dir, "x"))
	faultkit.LetReach(t, filepath.Join(private, "x")) // reachable, never writable: the boundary is the modes, not a hidden path
	return a, rx, private
}

// The supported way to let an agent work on the RX laptop
// (OPERATIONS#threat-model): the agent's account may write the working tree; the state
// directory, the audit log and the policy live outside it, the operator's
// alone. The agent can change the tree but cannot write, rename or replace
// the state directory or the policy, and rx check works for the operator
// as it does with one account.
func TestOwnerTwoAccountRecipe(t *testing.T) {
	t.Parallel()
	a, rx, _ := twoAccountRX(t)
	rx.PushTask(tasktest.TaskSpec{ID: "OWNER_RECIPE_1", HardwareAccess: true, RFRX: true})
	if out := faultkit.Run(t, rx.Environ(), rx.Dir, rxWait, "", "rx", "check"); out.Code != 10 {
		t.Fatalf("rx check of the operator in the two-account layout: %s", out)
	}
	if o := a.Sh(t, rx.Dir, "echo 'a plan' > plan.md && echo more >> README.md && mv plan.md notes.md"); o.Code != 0 {
		t.Fatalf("the agent cannot work in the tree it was given: %s", o)
	}
	stateDir := rx.Policy.StatePath()
	for _, script := range []string{
		"echo '{}' > " + stateDir + "/rx_agent_state.json",
		"touch " + stateDir + "/forged",
		"mv " + stateDir + " " + stateDir + ".gone",
		"rm -f " + filepath.Join(stateDir, "audit.jsonl"),
		"mv " + rx.PolicyFile + " " + rx.PolicyFile + ".gone",
		"echo '[notify]' >> " + rx.PolicyFile,
	} {
		if o := a.Sh(t, "/", script); o.Code == 0 {
			t.Errorf("the agent could: %s", script)
		}
	}
	if out := faultkit.Run(t, rx.Environ(), rx.Dir, rxWait, "", "rx", "check"); out.Code != 10 {
		t.Fatalf("rx check after the agent's attempts: %s", out)
	}
	if st := loadRX(t, rx); st.LastSeenTaskID != "OWNER_RECIPE_1" {
		t.Errorf("the operator's state: %+v", st)
	}
}

// Findings 7 and 8 as the agent of the recipe above: its own account may
// write the shared checkout, and so its .git/config. It turns on replace
// refs, names programs of its own for the keys git runs (fsmonitor,
// hooks, ssh) and redirects the remote to a copy it controls (a task only
// the copy holds). The operator's rx check refuses the redirect, naming
// the setting, the file and the fix, and offers nothing of the copy; with
// the fix ([repo] url) it offers the remote's task. None of the agent's
// programs ever ran as the operator.
func TestOwnerAgentGitConfigInSharedCheckout(t *testing.T) {
	t.Parallel()
	a, rx, _ := twoAccountRX(t)
	const real, copied = "OWNER_GITCFG_REAL", "OWNER_GITCFG_COPY"
	rx.PushTask(tasktest.TaskSpec{ID: real, HardwareAccess: true, RFRX: true})
	origin := strings.TrimSpace(gittest.Git(t, rx.Remote.R, rx.Dir, "config", "--get", "remote.origin.url"))
	dir := filepath.Join(t.TempDir(), "copy.git")
	gittest.Git(t, rx.Remote.R, filepath.Dir(dir), "clone", "--quiet", "--bare", "--end-of-options", rx.Remote.URL, dir)
	cp := &gittest.Remote{Dir: dir, URL: gittest.ServeURL(t, dir), R: rx.Remote.R}
	gittest.Rewrite(t, cp, tasktest.TaskBranch, map[string]string{tasktest.TaskPath: tasktest.TaskFile(tasktest.TaskSpec{ID: copied, ExpectedHead: rx.Base, HardwareAccess: true, RFRX: true})})

	marker := filepath.Join(a.Home, "ran")
	prog := filepath.Join(a.Home, "prog")
	script := "printf '#!/bin/sh\\necho \"$0 $*\" >> " + marker + "\\n' > " + prog + " && chmod 755 " + prog +
		" && mkdir -p hooks && for h in pre-push post-checkout post-merge reference-transaction fsmonitor-watchman; do ln -s " + prog + " hooks/$h; done" +
		" && printf '[core]\\n\\tuseReplaceRefs = true\\n\\tfsmonitor = " + prog + "\\n\\thooksPath = " + filepath.Join(a.Home, "hooks") +
		"\\n\\tsshCommand = " + prog + "\\n[url \"" + cp.URL + "\"]\\n\\tinsteadOf = " + origin + "\\n' >> " + filepath.Join(rx.Dir, ".git", "config")
	if o := a.Sh(t, a.Home, script); o.Code != 0 {
		t.Fatalf("the agent cannot write the shared checkout's config: %s", o)
	}
	if _, err := os.Stat(prog); err != nil {
		t.Fatalf("the agent's program: %v", err)
	}

	out := faultkit.Run(t, rx.Environ(), rx.Dir, rxWait, "", "rx", "check")
	if out.Code != 1 || strings.Contains(out.All(), copied) {
		t.Fatalf("rx check with the agent's redirect: want exit 1, the copy's task never shown\n%s", out)
	}
	t.Logf("rx check refuses:\n%s", out.Stderr)
	for _, w := range []string{"insteadOf", cp.URL, filepath.Join(rx.Dir, ".git", "config"), "[repo] url"} {
		if !strings.Contains(out.Stderr, w) {
			t.Errorf("the refusal does not name %q:\n%s", w, out.Stderr)
		}
	}
	rx.Policy.Repo.URL = rx.Remote.URL // the fix the refusal names
	rx.WritePolicy()
	out = faultkit.Run(t, rx.Environ(), rx.Dir, rxWait, "", "rx", "check")
	if out.Code != 10 || !strings.Contains(out.Stdout, real) || strings.Contains(out.All(), copied) {
		t.Fatalf("rx check with [repo] url: want exit 10 offering %s only\n%s", real, out)
	}
	if data, err := os.ReadFile(marker); !os.IsNotExist(err) {
		t.Fatalf("a program the agent named ran as the operator (%v):\n%s", err, data)
	}
	// The check above could fail: the agent's program, run, leaves its mark.
	if o := a.Sh(t, a.Home, prog+" probe"); o.Code != 0 {
		t.Fatalf("the agent's program does not run: %s", o)
	}
	if data, err := os.ReadFile(marker); err != nil || !strings.Contains(string(data), "probe") {
		t.Fatalf("the agent's program left no mark (%v): %q", err, data)
	}
}

// Finding 9/10 on the MAIN PC: an agent in a group that may write the
// authorization directory deletes a used record's outcome, hoping the
// record runs a second time (its use is kept in the list of issued
// records, which the agent cannot reach). tx execute refuses the record, named
// with the directory and the fix, before it asks for the phrase; the
// fake action runs once.
func TestOwnerAgentDeletesUsedOutcome(t *testing.T) {
	t.Parallel()
	a := faultkit.NewAccount(t)
	s := newTxSide(t, "")
	s.f.Publish(t, txtest.Ready(time.Now()))
	record := s.watchAndAuthorize(t)
	x := s.start(t, "tx", "execute", record)
	x.WaitForText("Type exactly: AUTHORIZE RF TX", txWait)
	x.Send(gate.TXPhrase)
	if code := exitStatus(t, x.Wait(txWait)); code != 0 {
		t.Fatalf("the first tx execute: exit %d\n%s", code, x.Stderr)
	}
	dir := s.authDir()
	name := filepath.Base(record)
	outcome := txwatch.OutcomeName(name)
	if _, err := os.Stat(filepath.Join(dir, outcome)); err != nil {
		t.Fatalf("the first run left no outcome %s: %v", outcome, err)
	}
	faultkit.LetReach(t, filepath.Join(dir, "x"))
	if err := os.Chown(dir, -1, a.GID); err != nil {
		t.Fatal(err)
	}
	faultkit.Chmod(t, dir, 0o770)
	if o := a.Sh(t, dir, "rm -- "+outcome); o.Code != 0 {
		t.Fatalf("the agent's rm: %s", o)
	}
	again := s.start(t, "tx", "execute", record)
	faultkit.Eventually(t, txWait, "tx execute to end or ask for the phrase", func() bool {
		return again.Exited() || strings.Contains(again.TTY.String(), "Type exactly")
	})
	asked := !again.Exited()
	if asked {
		again.Send(gate.TXPhrase) // as the operator at the terminal would
	}
	code := exitStatus(t, again.Wait(txWait))
	if asked || code != 1 {
		t.Fatalf("the record ran again after its outcome was deleted (asked for the phrase: %v, exit %d)\n%s", asked, code, again.Stderr)
	}
	for _, want := range []string{record, "the directory " + dir + " above it is writable by the group " + a.Name, "`chmod go-w " + dir + "`"} {
		if !strings.Contains(again.Stderr.String(), want) {
			t.Errorf("the refusal lacks %q:\n%s", want, again.Stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, outcome)); !os.IsNotExist(err) {
		t.Errorf("an outcome was written again: %v", err)
	}
}

// Finding 9's other half: the audit log itself, not only its directory,
// must be one only this account can change. One writable by others, or
// owned by another account, is refused before any git call, naming it and
// the fix; not a byte is added to it and the RX state stays as it was.
// Fixed, the same log is used again.
func TestOwnerAuditLogOthersMayChangeRefused(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name  string
		spoil func(t *testing.T, path string)
		fix   func(t *testing.T, path string)
		want  []string
	}{
		{"writable by others", func(t *testing.T, p string) { faultkit.Chmod(t, p, 0o646) }, func(t *testing.T, p string) { faultkit.Chmod(t, p, 0o600) },
			[]string{"writable by", "(mode 0646)", "`chmod go-w "}},
		{"owned by another account", func(t *testing.T, p string) {
			a := faultkit.NewAccount(t)
			if err := os.Lchown(p, a.UID, -1); err != nil {
				t.Fatal(err)
			}
		}, func(t *testing.T, p string) {
			if err := os.Lchown(p, os.Geteuid(), -1); err != nil {
				t.Fatal(err)
			}
		}, []string{"owned by", "not by you", "`chown "}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if runtime.GOOS == "windows" && strings.HasPrefix(c.name, "writable") {
				t.Skip("mode bits: Windows' access lists are judged in localfile/private/private_windows.go")
			}
			rx := rxtest.New(t, rxtest.Options{})
			rx.PushTask(tasktest.TaskSpec{ID: "OWNER_AUDIT_1", HardwareAccess: true, RFRX: true})
			if out := faultkit.Run(t, rx.Environ(), rx.Dir, rxWait, "", "rx", "check"); out.Code != 10 {
				t.Fatalf("rx check: %s", out)
			}
			rx.PushTask(tasktest.TaskSpec{ID: "OWNER_AUDIT_2", HardwareAccess: true, RFRX: true})
			path := rx.Policy.AuditPath()
			c.spoil(t, path)
			before, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			out := faultkit.Run(t, rx.Environ(), rx.Dir, rxWait, "", "rx", "check")
			if out.Code != 1 || strings.Contains(out.Stdout, "OWNER_AUDIT_2") {
				t.Fatalf("rx check with an audit log %s: want exit 1, nothing read\n%s", c.name, out)
			}
			for _, w := range append(c.want, "audit log", path) {
				if !strings.Contains(out.Stderr, w) {
					t.Errorf("the refusal does not name %q:\n%s", w, out.Stderr)
				}
			}
			if after, _ := os.ReadFile(path); string(after) != string(before) {
				t.Errorf("the refused audit log was written to (%d bytes, was %d)", len(after), len(before))
			}
			if st := loadRX(t, rx); st.LastSeenTaskID != "OWNER_AUDIT_1" {
				t.Errorf("the RX state moved on: %+v", st)
			}
			c.fix(t, path)
			if out := faultkit.Run(t, rx.Environ(), rx.Dir, rxWait, "", "rx", "check"); out.Code != 10 || !strings.Contains(out.Stdout, "OWNER_AUDIT_2") {
				t.Fatalf("rx check with the audit log fixed: %s", out)
			}
		})
	}
}
