//go:build unix

package security

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"rfhandoff/internal/faultkit"
	"rfhandoff/internal/gittest"
	"rfhandoff/internal/tasktest"
)

// programKeys are git config keys whose value is a program git starts
// (PROTOCOL#subprocesses), each set to a script that records its key.
var programKeys = []string{
	"remote.origin.uploadpack",
	"remote.origin.receivepack",
	"core.alternateRefsCommand",
	"core.sshCommand",
	"core.gitProxy",
	"core.askPass",
	"core.pager",
	"credential.helper",
	"gpg.program",
	"gpg.ssh.program",
}

// markerScripts writes, for each key, a script that appends the key to
// marker (and fails), and returns key -> script.
func markerScripts(t *testing.T, marker string, keys []string) map[string]string {
	t.Helper()
	dir := t.TempDir()
	out := map[string]string{}
	for _, k := range keys {
		p := filepath.Join(dir, strings.ReplaceAll(k, ".", "_"))
		script := "#!/bin/sh\necho '" + k + "' \"$@\" >> '" + marker + "'\nexit 1\n"
		gittest.WriteScript(t, p, script)
		out[k] = p
	}
	return out
}

// poison sets every key of scripts in the git config file file, plus what
// makes git reach for them where it can (signing on commit and push).
func poison(t *testing.T, lab *faultkit.Lab, file string, scripts map[string]string) {
	t.Helper()
	set := func(k, v string) { gittest.Git(t, lab.R, lab.Tmp, "config", "--file", file, "--end-of-options", k, v) }
	for k, p := range scripts {
		set(k, p)
	}
	set("commit.gpgSign", "true")
	set("push.gpgSign", "true")
	set("log.showSignature", "true")
}

func checkNoMarker(t *testing.T, marker, when string) {
	t.Helper()
	if data, err := os.ReadFile(marker); err == nil {
		t.Fatalf("%s: a program from git's config ran:\n%s", when, data)
	}
}

// Invariant: no program named in a git config file runs (PROTOCOL#subprocesses).
// Every key of programKeys is set in both checkouts' .git/config, in both
// mirrors' config (with an alternate object store, so that fetch lists its
// refs; a mirror whose config is not rfhandoff's is rebuilt, PROTOCOL#mirror, so
// there the pins are a second line) and in the lab's global config; tx
// watch, task new, rx check, rx capture and rx publish-result all work
// and none of the scripts runs.
func TestSecurityGitConfigProgramsNeverRun(t *testing.T) {
	t.Parallel()
	lab := faultkit.NewLab(t)
	for _, side := range []*faultkit.Side{lab.RX, lab.Main} {
		side.Policy.Limits.PlannedDurationS = 15 // the capture's length
		side.WritePolicy()
	}
	marker := filepath.Join(t.TempDir(), "ran")
	scripts := markerScripts(t, marker, programKeys)

	// The mirrors exist once each side has polled.
	if out := lab.RX.Run(faultkit.Wait, "rx", "check"); out.Code != 0 {
		t.Fatalf("rx check before the config was poisoned:\n%s", out)
	}
	if out := lab.Main.Run(faultkit.Wait, "tx", "status"); out.Code != 0 {
		t.Fatalf("tx status:\n%s", out)
	}
	for _, side := range []*faultkit.Side{lab.RX, lab.Main} {
		poison(t, lab, filepath.Join(side.Dir, ".git", "config"), scripts)
	}
	// The operator's global config too, with the keys only the calling
	// git reads: a file:// remote's own upload-pack and receive-pack read
	// it as any server reads its config (git clears the -c options for
	// them), which is the remote's business, not the checkout's.
	global := map[string]string{}
	for k, p := range scripts {
		if k != "core.alternateRefsCommand" && k != "core.pager" {
			global[k] = p
		}
	}
	poison(t, lab, filepath.Join(lab.Home, ".gitconfig"), global)
	poisonMirror := func(side *faultkit.Side) {
		t.Helper()
		m := side.Mirror()
		if _, err := os.Stat(m); err != nil {
			t.Fatalf("%s mirror: %v", side.Name, err)
		}
		poison(t, lab, filepath.Join(m, "config"), scripts)
		if err := os.WriteFile(filepath.Join(m, "objects", "info", "alternates"), []byte(filepath.Join(lab.Remote.Dir, "objects")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	poisonMirror(lab.RX)

	commit, data := lab.PushTask(tasktest.Capture("CFG_PROG_0001"))
	out := lab.RX.Run(faultkit.Wait, "rx", "check")
	checkNoMarker(t, marker, "rx check")
	if out.Code != 10 || !strings.Contains(out.Stdout, commit) {
		t.Fatalf("rx check: want exit 10 offering %s\n%s", commit, out)
	}

	lab.Approve("CFG_PROG_0001", data, commit)
	before := lab.Tip(tasktest.ResultBranch)
	out = lab.RX.Run(3*faultkit.Wait, "rx", "capture", "CFG_PROG_0001")
	checkNoMarker(t, marker, "rx capture")
	if out.Code != 0 {
		t.Fatalf("rx capture:\n%s", out)
	}
	if lab.Tip(tasktest.ResultBranch) == before {
		t.Fatal("rx capture published nothing")
	}
	// The READY results below must stay fresh until tx watch reads
	// them: 15 s from the capture's start was too little on a loaded
	// machine (the unchanged code failed here with 4.8 s left).
	for _, side := range []*faultkit.Side{lab.RX, lab.Main} {
		side.Policy.Limits.PlannedDurationS = 90
		side.WritePolicy()
	}

	// The READY below must stay fresh however slow the machine: a window
	// longer than the 15 s capture's (the policies must agree on it).
	for _, side := range []*faultkit.Side{lab.RX, lab.Main} {
		side.Policy.Limits.PlannedDurationS = 900
		side.WritePolicy()
	}
	commit2, data2 := lab.PushTask(tasktest.Capture("CFG_PROG_0002"))
	lab.Approve("CFG_PROG_0002", data2, commit2)
	out = lab.RX.Run(faultkit.Wait, "rx", "publish-result", lab.WriteResult(lab.Encode(lab.Ready("CFG_PROG_0002"))))
	checkNoMarker(t, marker, "rx publish-result")
	if out.Code != 0 {
		t.Fatalf("rx publish-result:\n%s", out)
	}

	// The MAIN mirror is created by tx watch.
	w := lab.Main.Start("tx", "watch")
	w.Stdout.WaitForText("awaits authorization, but there is no terminal here", faultkit.Wait)
	w.Signal(syscall.SIGTERM)
	if st := w.Wait(faultkit.Wait); st.ExitCode() != 0 {
		t.Fatalf("tx watch: exit %d\n%s", st.ExitCode(), w.Stderr.String())
	}
	checkNoMarker(t, marker, "tx watch")
	poisonMirror(lab.Main)
	lab.PushResult(lab.Encode(lab.Ready("CFG_PROG_0002"))) // a result not yet reported
	w = lab.Main.Start("tx", "watch")
	w.Stdout.WaitForText("awaits authorization, but there is no terminal here", faultkit.Wait)
	w.Signal(syscall.SIGTERM)
	if st := w.Wait(faultkit.Wait); st.ExitCode() != 0 {
		t.Fatalf("tx watch with a poisoned mirror: exit %d\n%s", st.ExitCode(), w.Stderr.String())
	}
	checkNoMarker(t, marker, "tx watch (poisoned mirror)")

	// --force: CFG_PROG_0002's READY above has no COMPLETE, which task new
	// otherwise reads as a capture still running.
	out = lab.Main.Run(faultkit.Wait, "task", "new", "CFG_PROG_0003", "--title", "After the poison", "--force")
	checkNoMarker(t, marker, "task new")
	if out.Code != 0 {
		t.Fatalf("task new:\n%s", out)
	}

	// What the audit log shows is what ran: every call that talks to the
	// remote names the upload-pack or receive-pack it was given.
	for _, sub := range []string{"fetch", "ls-remote", "push", "clone"} {
		for _, side := range []*faultkit.Side{lab.RX, lab.Main} {
			for _, e := range faultkit.GitStarts(faultkit.AuditEntries(t, side.AuditPath()), sub) {
				want := "--upload-pack=git-upload-pack"
				if sub == "push" {
					want = "--receive-pack=git-receive-pack"
				}
				if !strings.Contains(strings.Join(e.Argv, " "), want) {
					t.Errorf("%s: git %s without %s: %q", side.Name, sub, want, e.Argv)
				}
			}
		}
	}

	// A config's protocol.<name>.allow does not open a transport, and no
	// rewrite of the remote is used: the mirror's config rewriting the
	// remote to ext:: (a command) is never read (the mirror is rebuilt
	// and the task offered); the same rewrite in the global config is
	// refused before git talks to the remote, naming it. The command never
	// runs.
	ext := markerScripts(t, marker, []string{"ext"})["ext"]
	for _, cfg := range []string{filepath.Join(lab.RX.Mirror(), "config"), filepath.Join(lab.Home, ".gitconfig")} {
		gittest.Git(t, lab.R, lab.Tmp, "config", "--file", cfg, "protocol.ext.allow", "always")
		gittest.Git(t, lab.R, lab.Tmp, "config", "--file", cfg, "url.ext::"+ext+" .insteadOf", "file://")
		if strings.HasSuffix(cfg, ".gitconfig") {
			out = lab.RX.Run(faultkit.Wait, "rx", "check")
			checkNoMarker(t, marker, "rx check with the remote rewritten to ext:: in the global config")
			if out.Code != 1 || !strings.Contains(out.Stderr, "url.ext::"+ext+" .insteadOf = file://") {
				t.Fatalf("rx check with the remote rewritten to ext:: in the global config: want exit 1 naming the rewrite\n%s", out)
			}
			continue
		}
		lab.PushTask(tasktest.Capture("CFG_PROG_0004"))
		out = lab.RX.Run(faultkit.Wait, "rx", "check")
		checkNoMarker(t, marker, "rx check with the remote rewritten to ext:: in the mirror")
		if out.Code != 10 || !strings.Contains(out.Stdout, "CFG_PROG_0004") {
			t.Fatalf("rx check with the remote rewritten to ext:: in the mirror: want exit 10 offering the task\n%s", out)
		}
	}
}

// Invariant (PROTOCOL#subprocesses): over ssh, git runs the ssh command the policy
// names (tools.ssh_command) and no other: a core.sshCommand in the RX
// checkout's and the mirror's config never runs, and the audit log names
// the command each fetch ran with.
func TestSecuritySSHCommandFromPolicyOnly(t *testing.T) {
	t.Parallel()
	l := faultkit.NewSSHLab(t)
	marker := filepath.Join(t.TempDir(), "ran")
	script := markerScripts(t, marker, []string{"core.sshCommand"})["core.sshCommand"]
	gittest.Git(t, l.R, l.RX.Dir, "config", "core.sshCommand", script)
	l.PushTask(tasktest.Capture("SSH_CMD_0001"))
	run := func(id string) {
		t.Helper()
		out := faultkit.Run(t, faultkit.SSHEnv(l.RX, l.Agent.Sock), l.RX.Dir, faultkit.Wait, "", "rx", "check")
		checkNoMarker(t, marker, "rx check over ssh")
		if out.Code != 10 || !strings.Contains(out.Stdout, id) {
			t.Fatalf("rx check over ssh: want exit 10 offering the task\n%s\nsshd log:\n%s", out, l.SSHD.Log())
		}
	}
	run("SSH_CMD_0001")
	gittest.Git(t, l.R, l.RX.Mirror(), "config", "core.sshCommand", script)
	l.PushTask(tasktest.Capture("SSH_CMD_0002"))
	run("SSH_CMD_0002")
	fetches := faultkit.GitStarts(faultkit.AuditEntries(t, l.RX.AuditPath()), "fetch")
	if len(fetches) == 0 {
		t.Fatal("no fetch in the audit log")
	}
	for _, e := range fetches {
		if !slices.Contains(e.Argv, "core.sshCommand="+l.SSHD.SSHCommand()) {
			t.Errorf("fetch without the policy's ssh command on record: %q", e.Argv)
		}
	}
}

// Invariant (PROTOCOL#subprocesses): over https git asks the credential helper the
// policy names (tools.git_credential_helper) and no other: a helper in the
// global, the RX checkout's or the mirror's config never runs, the policy's does, and the audit
// log names it on each call that may ask.
func TestSecurityCredentialHelperFromPolicyOnly(t *testing.T) {
	t.Parallel()
	lab := faultkit.NewLab(t)
	h := faultkit.StartHTTP(t, lab.Srv, "rxop", "s3cret-token")
	lab.UseURL(h.AnonymousURL("remote.git"))
	marker := filepath.Join(t.TempDir(), "ran")
	evil := markerScripts(t, marker, []string{"credential.helper"})["credential.helper"]
	gittest.Git(t, lab.R, lab.RX.Dir, "config", "credential.helper", evil)
	gittest.Git(t, lab.R, lab.Tmp, "config", "--file", filepath.Join(lab.Home, ".gitconfig"), "credential.helper", evil)

	asked := filepath.Join(t.TempDir(), "asked")
	helper := filepath.Join(t.TempDir(), "helper")
	script := "#!/bin/sh\necho \"$1\" >> '" + asked + "'\n[ \"$1\" = get ] && printf 'username=rxop\\npassword=s3cret-token\\n'\nexit 0\n"
	gittest.WriteScript(t, helper, script)
	lab.RX.Policy.Tools.GitCredentialHelper = helper
	lab.RX.WritePolicy()

	for i, id := range []string{"CRED_HELPER_0001", "CRED_HELPER_0002"} {
		if i == 1 { // the mirror exists now
			gittest.Git(t, lab.R, lab.RX.Mirror(), "config", "credential.helper", evil)
		}
		lab.PushTask(tasktest.Capture(id))
		out := lab.RX.Run(faultkit.Wait, "rx", "check")
		checkNoMarker(t, marker, "rx check over https")
		if out.Code != 10 || !strings.Contains(out.Stdout, id) {
			t.Fatalf("rx check over https with the policy's helper: want exit 10 offering %s\n%s\nhttp-backend:\n%s", id, out, h.BackendStderr())
		}
	}
	if data, err := os.ReadFile(asked); err != nil || !strings.Contains(string(data), "get") {
		t.Fatalf("the policy's helper was not asked: %q, %v", data, err)
	}
	for _, e := range faultkit.GitStarts(faultkit.AuditEntries(t, lab.RX.AuditPath()), "fetch") {
		if !slices.Contains(e.Argv, "credential.helper="+helper) {
			t.Errorf("fetch without the policy's helper on record: %q", e.Argv)
		}
	}

	// Without a helper in the policy git has no password: it asks no
	// helper and no askpass program (core.askPass in any config), and
	// the fetch fails at once naming the cause.
	askpass := markerScripts(t, marker, []string{"core.askPass"})["core.askPass"]
	for _, file := range []string{filepath.Join(lab.RX.Dir, ".git", "config"), filepath.Join(lab.Home, ".gitconfig"), filepath.Join(lab.RX.Mirror(), "config")} {
		gittest.Git(t, lab.R, lab.Tmp, "config", "--file", file, "core.askPass", askpass)
	}
	lab.RX.Policy.Tools.GitCredentialHelper = ""
	lab.RX.WritePolicy()
	lab.PushTask(tasktest.Capture("CRED_HELPER_0003"))
	out := lab.RX.Run(faultkit.Wait, "rx", "check")
	checkNoMarker(t, marker, "rx check over https without a helper")
	if out.Code != 1 || !strings.Contains(out.Stderr, "authentication refused") {
		t.Fatalf("rx check over https without a helper: want exit 1, authentication refused\n%s", out)
	}
}
