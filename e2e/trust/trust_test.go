package trust

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"github.com/cli/safeexec"

	"rfhandoff/gitcli"
	"rfhandoff/internal/faultkit"
	"rfhandoff/internal/tasktest"
	"rfhandoff/state"
	"rfhandoff/txwatch"
)

// trustLab is a lab whose RX side requires signed tasks and whose MAIN
// side requires signed results, with keys made by ssh-keygen: main (the
// MAIN PC, listed for tasks), rx (the RX laptop, listed for results),
// mallory (listed nowhere) and bob (listed for namespace "file" only).
type trustLab struct {
	*faultkit.Lab
	main, rx, mallory, bob faultkit.SSHKey
	taskSigners            string // the RX side's allowed-signers file
	resultSigners          string // the MAIN side's
}

func newTrustLab(t *testing.T) *trustLab {
	t.Helper()
	l := &trustLab{Lab: faultkit.NewLab(t),
		main: faultkit.NewSSHKey(t, "main"), rx: faultkit.NewSSHKey(t, "rx"),
		mallory: faultkit.NewSSHKey(t, "mallory"), bob: faultkit.NewSSHKey(t, "bob")}
	// Relative to the RX checkout, like the other policy paths.
	l.RX.Policy.Trust.TaskSigners = ".local/trust/task_signers"
	l.taskSigners = filepath.Join(l.RX.Dir, ".local", "trust", "task_signers")
	faultkit.WriteAllowedSigners(t, l.taskSigners,
		faultkit.SignerLine("main@lab", l.main, `namespaces="git"`),
		faultkit.SignerLine("bob@lab", l.bob, `namespaces="file"`))
	l.RX.WritePolicy()
	l.resultSigners = filepath.Join(t.TempDir(), "result_signers")
	faultkit.WriteAllowedSigners(t, l.resultSigners, faultkit.SignerLine("rx@lab", l.rx, `namespaces="git"`))
	l.Main.Policy.Trust.ResultSigners = l.resultSigners
	l.Main.WritePolicy()
	return l
}

// taskSpec is the lab's capture task id, written against its base commit.
func (l *trustLab) taskSpec(id string) tasktest.TaskSpec {
	s := tasktest.Capture(id)
	s.ExpectedHead = l.Base
	return s
}

// pushTask commits the task for id on the task branch signed with key
// ("" unsigned).
func (l *trustLab) pushTask(t *testing.T, id, key string) {
	t.Helper()
	faultkit.SignedSeed(t, l.Remote, tasktest.TaskBranch,
		map[string]string{tasktest.TaskPath: tasktest.TaskFile(l.taskSpec(id))}, key)
}

// pushResult commits a READY result for id on the result branch signed
// with key ("" unsigned); pid makes each result distinct.
func (l *trustLab) pushResult(t *testing.T, id string, pid int64, key string) string {
	t.Helper()
	r := l.Ready(id)
	r.CapturePID = pid
	return faultkit.SignedSeed(t, l.Remote, tasktest.ResultBranch, map[string]string{tasktest.ResultPath: string(l.Encode(r))}, key)
}

// The RX side offers only a task whose last change is signed by a listed
// key for namespace git, shows who signed it, and refuses every other one
// like an invalid task (exit 1) with the reason and the key, without
// reading its content.
func TestTrustSignedTasks(t *testing.T) {
	t.Parallel()
	l := newTrustLab(t)
	check := func(want int) faultkit.Output {
		t.Helper()
		out := l.RX.Run(faultkit.Wait, "rx", "check")
		if out.Code != want {
			t.Fatalf("rx check: exit %d, want %d\n%s", out.Code, want, out)
		}
		return out
	}
	signedBy := "signed:   main@lab " + l.main.Fingerprint

	// No task file yet: reported exactly as without [trust].
	withTrust := l.RX.Run(faultkit.Wait, "rx", "check")
	l.RX.Policy.Trust.TaskSigners = ""
	l.RX.WritePolicy()
	without := l.RX.Run(faultkit.Wait, "rx", "check")
	l.RX.Policy.Trust.TaskSigners = ".local/trust/task_signers"
	l.RX.WritePolicy()
	if withTrust != without {
		t.Fatalf("rx check before any task: with [trust]\n%s\nwithout\n%s", withTrust, without)
	}
	l.pushTask(t, "TRUST_TASK_0001", l.main.Private)
	if out := check(10); !strings.Contains(out.Stdout, signedBy) {
		t.Fatalf("rx check does not show the signer %q:\n%s", signedBy, out)
	}
	// An unsigned commit that leaves the task file alone changes nothing.
	l.PushFiles(tasktest.TaskBranch, map[string]string{"README.md": "a note\n"})
	if out := check(10); !strings.Contains(out.Stdout, signedBy) {
		t.Fatalf("after an unrelated unsigned commit:\n%s", out)
	}

	for _, c := range []struct {
		name, id, key string
		want          []string
	}{
		{"a later unsigned commit changing the task file", "TRUST_TASK_0002", "", []string{"last change of " + tasktest.TaskPath, "unsigned"}},
		{"signed by an unlisted key", "TRUST_TASK_0003", l.mallory.Private, []string{"not in the allowed signers", l.mallory.Fingerprint}},
		{"listed, but not for namespace git", "TRUST_TASK_0004", l.bob.Private, []string{"bad signature", `namespace "git"`, l.bob.Fingerprint}},
	} {
		l.pushTask(t, c.id, c.key)
		out := check(1)
		for _, w := range c.want {
			if !strings.Contains(out.Stderr, w) {
				t.Errorf("%s: stderr lacks %q:\n%s", c.name, w, out)
			}
		}
		if strings.Contains(out.All(), c.id) {
			t.Errorf("%s: the refused task's content (%s) was read and shown:\n%s", c.name, c.id, out)
		}
	}
	show := l.RX.Run(faultkit.Wait, "-v", "audit", "show") // -v: the whole argv
	for _, w := range []string{"[signature: good signature on", "main@lab " + l.main.Fingerprint, ": unsigned]", "gpg.ssh.program=/"} {
		if !strings.Contains(show.Stdout, w) {
			t.Errorf("audit show lacks %q:\n%s", w, show.Stdout)
		}
	}
}

// tools.ssh_keygen pins the program git runs to verify: the audit log's
// argv names the pinned copy, and a pinned path that is not there makes
// the check fail instead of falling back to PATH.
func TestTrustPinnedSSHKeygen(t *testing.T) {
	t.Parallel()
	l := newTrustLab(t)
	real, err := safeexec.LookPath("ssh-keygen")
	if err != nil {
		t.Skipf("ssh-keygen: %v", err)
	}
	pinned := filepath.Join(t.TempDir(), "ssh-keygen-pinned")
	if err := os.Symlink(real, pinned); err != nil {
		t.Fatal(err)
	}
	l.RX.Policy.Tools.SSHKeygen = pinned
	l.RX.WritePolicy()
	l.pushTask(t, "TRUST_PIN_0001", l.main.Private)
	if out := l.RX.Run(faultkit.Wait, "rx", "check"); out.Code != 10 {
		t.Fatalf("rx check with a pinned ssh-keygen: exit %d\n%s", out.Code, out)
	}
	if show := l.RX.Run(faultkit.Wait, "-v", "audit", "show"); !strings.Contains(show.Stdout, "gpg.ssh.program="+pinned+" ") {
		t.Errorf("audit show does not name the pinned ssh-keygen %s:\n%s", pinned, show.Stdout)
	}
	l.RX.Policy.Tools.SSHKeygen = filepath.Join(t.TempDir(), "gone", "ssh-keygen")
	l.RX.WritePolicy()
	if out := l.RX.Run(faultkit.Wait, "rx", "check"); out.Code != 1 || !strings.Contains(out.Stderr, "ssh-keygen not found") {
		t.Fatalf("rx check with a missing pinned ssh-keygen: want exit 1 naming it\n%s", out)
	}
}

// rx watch rejects an unsigned task once and offers the signed one that
// follows it.
func TestTrustRxWatch(t *testing.T) {
	t.Parallel()
	l := newTrustLab(t)
	l.pushTask(t, "TRUST_WATCH_0001", "")
	w := l.RX.StartTTY("rx", "watch")
	w.WaitForText("task rejected", faultkit.Wait)
	w.WaitForText("unsigned", faultkit.Wait)
	faultkit.MorePolls(t, l.RX, 5)
	if n := strings.Count(w.TTY.String(), "task rejected"); n != 1 {
		t.Errorf("the unsigned task was reported %d times, want once:\n%s", n, w.TTY.String())
	}
	if strings.Contains(w.TTY.String(), faultkit.ApprovalMenu) {
		t.Fatalf("the unsigned task was offered:\n%s", w.TTY.String())
	}
	l.pushTask(t, "TRUST_WATCH_0002", l.main.Private)
	w.WaitForText("Signed:  main@lab "+l.main.Fingerprint, faultkit.Wait)
	w.WaitForText(faultkit.ApprovalMenu, faultkit.Wait)
	w.Send("S")
	if st := w.Wait(faultkit.Wait); st.ExitCode() != 0 {
		t.Fatalf("rx watch after [S]: exit %d\n%s", st.ExitCode(), w.TTY.String())
	}
}

// The approval prompt shows the signer and the approval record keeps it;
// a later re-read verifies again against the allowed signers then in force.
func TestTrustApprovalKeepsSigner(t *testing.T) {
	t.Parallel()
	l := newTrustLab(t)
	l.pushTask(t, "TRUST_APPROVE_0001", l.main.Private)
	s := l.RX.StartTTY("rx", "approve", "TRUST_APPROVE_0001")
	s.WaitForText("Signed:  main@lab "+l.main.Fingerprint, faultkit.Wait)
	s.WaitForText(faultkit.ApprovalMenu, faultkit.Wait)
	s.Send("A")
	if st := s.Wait(faultkit.Wait); st.ExitCode() != 0 {
		t.Fatalf("rx approve: exit %d\n%s", st.ExitCode(), s.TTY.String())
	}
	st, err := state.LoadRX(l.RX.StateDir())
	if err != nil {
		t.Fatal(err)
	}
	want := state.Signer{Principal: "main@lab", Fingerprint: l.main.Fingerprint}
	if st.Approval == nil || st.Approval.Signer == nil || *st.Approval.Signer != want {
		t.Fatalf("approval %+v, want signer %+v", st.Approval, want)
	}

	if out := l.RX.Run(faultkit.Wait, "rx", "status"); !strings.Contains(out.Stdout, "signed by:     main@lab "+l.main.Fingerprint) {
		t.Errorf("rx status does not name the approval's signer:\n%s", out)
	}

	// The MAIN key is withdrawn: the approved task no longer verifies, so
	// nothing can be published for it.
	faultkit.WriteAllowedSigners(t, l.taskSigners, faultkit.SignerLine("bob@lab", l.bob, ""))
	before := l.Tip(tasktest.ResultBranch)
	out := l.RX.Run(faultkit.Wait, "rx", "publish-result", l.WriteResult(l.Encode(l.Ready("TRUST_APPROVE_0001"))))
	if out.Code != 1 || !strings.Contains(out.Stderr, "not in the allowed signers") {
		t.Fatalf("publish after the signer was withdrawn: want exit 1 naming the signature\n%s", out)
	}
	if out := l.RX.Run(faultkit.Wait, "rx", "capture"); out.Code == 0 || !strings.Contains(out.Stderr, "not in the allowed signers") {
		t.Fatalf("rx capture after the signer was withdrawn: want a refusal naming the signature\n%s", out)
	}
	if show := l.RX.Run(faultkit.Wait, "audit", "show"); strings.Contains(show.Stdout, "hackrf_transfer") {
		t.Errorf("the refused capture started hackrf_transfer:\n%s", show.Stdout)
	}
	if after := l.Tip(tasktest.ResultBranch); after != before {
		t.Fatalf("result branch moved %s -> %s", before, after)
	}
}

// MAIN offers only results signed by a listed key; an unsigned READY
// pushed by someone else after a signed one is reported once and never
// offered; the record keeps the signer, and tx execute refuses when the
// key was removed from result_signers since the authorization.
func TestTrustSignedResults(t *testing.T) {
	t.Parallel()
	l := newTrustLab(t)
	const id = "TRUST_RESULT_0001"
	l.PushTask(tasktest.Capture(id))
	l.pushResult(t, id, 1001, l.rx.Private)
	unsigned := l.pushResult(t, id, 1002, "")

	w := l.Main.StartTTY("tx", "watch")
	w.WaitForText("refused, not offered for authorization", faultkit.Wait)
	w.WaitForText("unsigned", faultkit.Wait)
	faultkit.MorePolls(t, l.Main, 5)
	if n := strings.Count(w.TTY.String(), "refused, not offered"); n != 1 {
		t.Errorf("the unsigned READY was reported %d times, want once:\n%s", n, w.TTY.String())
	}
	if strings.Contains(w.TTY.String(), "Type exactly") {
		t.Fatalf("the unsigned READY %s was offered for authorization:\n%s", unsigned, w.TTY.String())
	}

	l.pushResult(t, id, 1003, l.rx.Private)
	w.WaitForText("signed by rx@lab "+l.rx.Fingerprint, faultkit.Wait)
	faultkit.TypePhrase(t, w)
	m := w.WaitFor(faultkit.ReAuthorized, faultkit.Wait)
	w.Signal(syscall.SIGTERM)
	w.Wait(faultkit.Wait)
	record := m[1]
	data, err := os.ReadFile(record)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := txwatch.ParseRecord(data)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Nodes[0].ResultSigner != l.rx.Fingerprint {
		t.Fatalf("record result_signer %q, want %s", rec.Nodes[0].ResultSigner, l.rx.Fingerprint)
	}

	// The RX key is removed from result_signers before tx execute.
	faultkit.WriteAllowedSigners(t, l.resultSigners, faultkit.SignerLine("mallory@lab", l.mallory, ""))
	x := l.Main.StartTTY("tx", "execute", record)
	faultkit.TypePhrase(t, x)
	if st := x.Wait(faultkit.Wait); st.ExitCode() != 1 {
		t.Fatalf("tx execute: exit %d, want 1\n%s", st.ExitCode(), x.TTY.String())
	}
	if got := x.TTY.String(); !strings.Contains(got, "result signature") || !strings.Contains(got, "not in the allowed signers") {
		t.Errorf("tx execute does not say the signature failed:\n%s", got)
	}
	if recordUsed(t, l.Main, record) {
		t.Error("the refused execution used the record")
	}
}

// With trust.signing_key, rx publish-result signs the result commit with
// the key in the agent; with the agent gone it fails and pushes nothing.
func TestTrustPublishSigns(t *testing.T) {
	t.Parallel()
	l := newTrustLab(t)
	agent := faultkit.StartAgent(t)
	agent.Add(l.rx)
	l.RX.Policy.Trust.SigningKey = l.rx.PublicOnly(t)
	l.RX.WritePolicy()
	const id = "TRUST_PUBLISH_0001"
	l.pushTask(t, id, l.main.Private)
	l.Approve(id, []byte(tasktest.TaskFile(l.taskSpec(id))), l.Tip(tasktest.TaskBranch))
	publish := func(pid int64) faultkit.Output {
		t.Helper()
		r := l.Ready(id)
		r.CapturePID = pid
		return faultkit.Run(t, l.RX.Env(agent.Env()), l.RX.Dir, faultkit.Wait, "", "rx", "publish-result", l.WriteResult(l.Encode(r)))
	}
	if out := publish(2001); out.Code != 0 {
		t.Fatalf("signed publish: exit %d\n%s", out.Code, out)
	}
	tip := l.Tip(tasktest.ResultBranch)
	bare := &gitcli.Client{R: l.R, Dir: l.Remote.Dir}
	sig, err := bare.VerifyLastChange(t.Context(), tip, tasktest.ResultPath, l.resultSigners)
	if err != nil || sig.Commit != tip || sig.Fingerprint != l.rx.Fingerprint {
		t.Fatalf("published commit %s: signature %+v, %v; want rx@lab %s", tip, sig, err, l.rx.Fingerprint)
	}

	agent.Stop()
	out := publish(2002)
	if out.Code != 1 || !strings.Contains(out.Stderr, "signing with "+l.RX.Policy.Trust.SigningKey) {
		t.Fatalf("publish with the agent gone: want exit 1 naming the signing failure\n%s", out)
	}
	if now := l.Tip(tasktest.ResultBranch); now != tip {
		t.Fatalf("result branch moved %s -> %s after a failed signing", tip, now)
	}
}

// A [trust] file that is missing or malformed is a policy error naming it;
// `version` names the ssh-keygen git is given.
func TestTrustPolicyFiles(t *testing.T) {
	t.Parallel()
	l := faultkit.NewLab(t)
	faultkit.NewSSHKey(t, "probe") // skips without ssh-keygen
	if v := l.RX.Run(faultkit.Wait, "version"); !regexp.MustCompile(`(?m)^ssh-keygen +/\S*ssh-keygen \(for git's signatures\)$`).MatchString(v.Stdout) {
		t.Errorf("version does not name ssh-keygen:\n%s", v)
	}
	bad := filepath.Join(t.TempDir(), "bad_signers")
	if err := os.WriteFile(bad, []byte("main@lab ssh-ed25519 AAAA\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	l.RX.Policy.Trust.TaskSigners = ".local/missing_signers"
	l.RX.Policy.Trust.ResultSigners = bad
	l.RX.WritePolicy()
	out := l.RX.Run(faultkit.Wait, "config", "check")
	if out.Code != 1 {
		t.Fatalf("config check: exit %d, want 1\n%s", out.Code, out)
	}
	for _, w := range []string{"trust.task_signers", filepath.Join(l.RX.Dir, ".local", "missing_signers"), "trust.result_signers", bad + ": line 1"} {
		if !strings.Contains(out.Stderr, w) {
			t.Errorf("config check stderr lacks %q:\n%s", w, out.Stderr)
		}
	}
}
