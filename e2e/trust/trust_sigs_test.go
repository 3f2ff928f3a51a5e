package trust

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"rfhandoff/exec"
	"rfhandoff/internal/faultkit"
	"rfhandoff/internal/gittest"
	"rfhandoff/internal/tasktest"
	"rfhandoff/state"
	"rfhandoff/txwatch"
)

// Signatures vouch for content, not for commit IDs (PROTOCOL#trust): these
// tests play someone with push rights and no key, who copies old signed
// commits under new IDs, and a lab whose signers hold SSH certificates.

// rewrapping is one way to give a signed commit a new ID that git still
// finds well signed: git leaves every header line that starts with
// "gpgsig" (and its continuation lines) out of what the signature covers
// (commit.c, parse_buffer_signed_by_header).
type rewrapping struct {
	name string
	edit func(raw string) string
}

// beforeSignature puts header lines just before the commit's gpgsig header.
func beforeSignature(h string) func(string) string {
	return func(raw string) string {
		i := strings.Index(raw, "\ngpgsig ") + 1
		return raw[:i] + h + raw[i:]
	}
}

// lastHeader puts header lines after the commit's last header (after the
// signature, which git writes last).
func lastHeader(h string) func(string) string {
	return func(raw string) string {
		i := strings.Index(raw, "\n\n") + 1
		return raw[:i] + h + raw[i:]
	}
}

var rewrappings = []rewrapping{
	{"a bogus gpgsig-sha256 header", beforeSignature("gpgsig-sha256 bogus\n")},
	{"a gpgsig-sha256 header with continuation lines, last", lastHeader("gpgsig-sha256 -----BEGIN SSH SIGNATURE-----\n AAAA\n -----END SSH SIGNATURE-----\n")},
	{"a header named gpgsigx", beforeSignature("gpgsigx anything\n")},
	{"a second gpgsig header after the signature", lastHeader("gpgsig bogus\n")},
}

// rewrap writes, in the remote, a copy of the signed commit with edit
// applied to its raw object, checks that git still finds the copy signed
// by a key of allowedSigners (or the test would prove nothing) and returns
// the copy's ID.
func (l *trustLab) rewrap(t *testing.T, commit, allowedSigners string, edit func(string) string) string {
	t.Helper()
	raw := gittest.Git(t, l.R, l.Remote.Dir, "cat-file", "commit", commit)
	f := filepath.Join(t.TempDir(), "commit")
	if err := os.WriteFile(f, []byte(edit(raw)), 0o600); err != nil {
		t.Fatal(err)
	}
	cp := strings.TrimSpace(gittest.Git(t, l.R, l.Remote.Dir, "hash-object", "-w", "-t", "commit", "--end-of-options", f))
	if cp == commit {
		t.Fatalf("the edit left commit %s as it was", commit)
	}
	res, err := l.R.Run(t.Context(), exec.Cmd{Tool: exec.Git, Dir: l.Remote.Dir,
		Args: []string{"log", "-1", "--format=%G?", cp}, Signatures: &exec.Signatures{AllowedSigners: allowedSigners}})
	if err != nil || strings.TrimSpace(string(res.Stdout)) != "G" {
		t.Fatalf("git does not find the copy %s of %s well signed (%q, %v): the test proves nothing", cp, commit, res.Stdout, err)
	}
	return cp
}

// wantRefusedReplay runs rx check twice and rx approve once on a tip that
// brings back task old, and wants each refused naming every one of want,
// without showing the old task, with the RX state as it was before.
func (l *trustLab) wantRefusedReplay(t *testing.T, old string, before state.RX, want ...string) {
	t.Helper()
	for run := range 2 { // the next run refuses it the same
		out := l.rxCheck(t, 1)
		if run == 0 {
			t.Logf("rx check refuses:\n%s", out.Stderr)
		}
		for _, w := range want {
			if !strings.Contains(out.Stderr, w) {
				t.Errorf("run %d: rx check stderr lacks %q:\n%s", run, w, out)
			}
		}
		if strings.Contains(out.All(), old) {
			t.Errorf("run %d: the old task's content (%s) was read and shown:\n%s", run, old, out)
		}
		l.wantStateKept(t, before)
	}
	a := l.RX.StartTTY("rx", "approve")
	if st := a.Wait(faultkit.Wait); st.ExitCode() != 1 {
		t.Fatalf("rx approve of the copied task: exit %d, want 1\n%s", st.ExitCode(), a.TTY.String())
	}
	if got := a.TTY.String(); strings.Contains(got, faultkit.ApprovalMenu) || !strings.Contains(got, "old task brought back") {
		t.Fatalf("rx approve offered the copied task or did not say why:\n%s", got)
	}
	l.wantStateKept(t, before)
}

// wantStateKept fails when the RX state moved on from before: the last
// task seen, the replaced TASK_IDs, the accepted tip, an approval.
func (l *trustLab) wantStateKept(t *testing.T, before state.RX) {
	t.Helper()
	after := l.rxState(t)
	if after.LastSeenTaskID != before.LastSeenTaskID || strings.Join(after.ReplacedTaskIDs, ",") != strings.Join(before.ReplacedTaskIDs, ",") ||
		(after.AcceptedTask == nil) != (before.AcceptedTask == nil) || after.AcceptedTask != nil && *after.AcceptedTask != *before.AcceptedTask ||
		after.Approval != nil || after.DeferredTaskID != "" {
		t.Fatalf("the refused tip changed the RX state:\n%+v\nwas\n%+v", after, before)
	}
}

// Finding 1 of issue 29: task 1 (S1) is replaced by task 2 before the RX
// side first looks. Someone without a key copies S1 under a new ID by
// adding a header git leaves out of the signed data, and merges the copy
// (first with the copy as the second parent, then as the first, once per
// kind of header). Each time the RX side refuses it on every read as the
// old task brought back, naming the copy and S1, shows nothing of it and
// keeps task 2 as it was: not replaced, still the accepted tip's. The
// next signed task on top is read as usual.
func TestTrustTaskRewrappedCopyRefused(t *testing.T) {
	t.Parallel()
	l := newTrustLab(t)
	const old, cur, next = "REWRAP_TASK_0001", "REWRAP_TASK_0002", "REWRAP_TASK_0003"
	l.pushTask(t, old, l.main.Private)
	s1 := l.Tip(tasktest.TaskBranch)
	l.pushTask(t, cur, l.main.Private)
	l.rxCheck(t, 10)
	before := l.rxState(t)
	if before.LastSeenTaskID != cur || len(before.ReplacedTaskIDs) != 0 {
		t.Fatalf("the RX side should have seen only task 2: %+v", before)
	}
	tip := l.Tip(tasktest.TaskBranch)
	for i, rw := range rewrappings {
		cp := l.rewrap(t, s1, l.taskSigners, rw.edit)
		parents := []string{cp, tip} // git log follows the first parent with the file
		if i == 0 {
			parents = []string{tip, cp}
		}
		tip = faultkit.CommitTree(t, l.Remote, tasktest.TaskBranch, s1+"^{tree}", parents, "")
		t.Logf("%s: copy %s, merge %s", rw.name, cp, tip)
		l.wantRefusedReplay(t, old, before, "old task brought back from commit "+cp, "the same signed content as commit "+s1, tip)
		if t.Failed() {
			t.FailNow()
		}
	}
	l.pushTask(t, next, l.main.Private)
	if out := l.rxCheck(t, 10); !strings.Contains(out.Stdout, "task:     "+next) {
		t.Fatalf("the signed task after the copies is not offered:\n%s", out)
	}
}

// The same after a withdrawal: the RX side saw task 1 and then its signed
// withdrawal; a merge of a copy of task 1's signed commit is refused as
// the withdrawn task brought back, and rx watch reports it once and
// offers nothing.
func TestTrustTaskRewrappedWithdrawnRefused(t *testing.T) {
	t.Parallel()
	l := newTrustLab(t)
	const id = "REWRAP_WITHDRAWN_0001"
	l.pushTask(t, id, l.main.Private)
	s1 := l.Tip(tasktest.TaskBranch)
	l.rxCheck(t, 10)
	withdrawn := faultkit.SignedSeed(t, l.Remote, tasktest.TaskBranch, map[string]string{tasktest.TaskPath: ""}, l.main.Private)
	if out := l.rxCheck(t, 0); !strings.Contains(out.Stdout, "no task yet") {
		t.Fatalf("rx check after the withdrawal:\n%s", out)
	}
	before := l.rxState(t)
	if a := before.AcceptedTask; a == nil || a.Commit != withdrawn || a.TaskSHA256 != "" {
		t.Fatalf("accepted tip after the withdrawal: %+v, want %s without a task file", a, withdrawn)
	}
	cp := l.rewrap(t, s1, l.taskSigners, rewrappings[0].edit)
	m := faultkit.CommitTree(t, l.Remote, tasktest.TaskBranch, s1+"^{tree}", []string{withdrawn, cp}, "")
	l.wantRefusedReplay(t, id, before, "old task brought back from commit "+cp, "the same signed content as commit "+s1, "no task file there")

	w := l.RX.StartTTY("rx", "watch")
	w.WaitForText("old task brought back from commit "+cp, faultkit.Wait)
	time.Sleep(5 * l.RX.Policy.Poll.RXInterval.Duration) // several polls
	w.Signal(syscall.SIGTERM)
	w.Wait(faultkit.Wait)
	if got := w.TTY.String(); strings.Count(got, "old task brought back") != 1 || strings.Contains(got, faultkit.ApprovalMenu) || strings.Contains(got, id) {
		t.Fatalf("rx watch over the copy of %s (merge %s): reported other than once, or offered it:\n%s", s1, m, got)
	}
	l.wantStateKept(t, before)
}

// Task bytes come back under another signed commit, an older one: the
// signer drafted task 1 on a branch of its own (signed) before committing
// it to the task branch and replacing it with task 2. A merge of the
// draft is refused as task 1 brought back, since its signature is not
// newer than task 2's. A signature of the same bytes made after task 2's
// (the signer's newer word) is read as a new change.
func TestTrustTaskOlderSignedSameBytesRefused(t *testing.T) {
	t.Parallel()
	l := newTrustLab(t)
	const old, cur = "OLDER_TASK_0001", "OLDER_TASK_0002"
	now := time.Now().UTC().Truncate(time.Second)
	at := func(d time.Duration) string { return "GIT_COMMITTER_DATE=" + now.Add(d).Format(time.RFC3339) }
	taskFile := map[string]string{tasktest.TaskPath: l.taskText(old)}
	gittest.Git(t, l.R, l.Remote.Dir, "update-ref", "--end-of-options", "refs/heads/draft", l.Base)
	draft := faultkit.SignedSeed(t, l.Remote, "draft", taskFile, l.main.Private, at(-3*time.Hour))
	s1 := faultkit.SignedSeed(t, l.Remote, tasktest.TaskBranch, taskFile, l.main.Private, at(-2*time.Hour))
	s2 := faultkit.SignedSeed(t, l.Remote, tasktest.TaskBranch, map[string]string{tasktest.TaskPath: l.taskText(cur)}, l.main.Private, at(-time.Hour))
	l.rxCheck(t, 10)
	before := l.rxState(t)

	m := faultkit.CommitTree(t, l.Remote, tasktest.TaskBranch, draft+"^{tree}", []string{s2, draft}, "")
	l.wantRefusedReplay(t, old, before, "old task brought back from commit "+draft, "the task file of commit "+s1, "not newer than", s2, m)

	// The signer signs task 1's bytes again, now, on another branch.
	gittest.Git(t, l.R, l.Remote.Dir, "update-ref", "--end-of-options", "refs/heads/redo", l.Base)
	redo := faultkit.SignedSeed(t, l.Remote, "redo", taskFile, l.main.Private)
	m2 := faultkit.CommitTree(t, l.Remote, tasktest.TaskBranch, redo+"^{tree}", []string{redo, m}, "")
	out := l.rxCheck(t, 10)
	for _, w := range []string{"task:     " + old, "commit:   " + m2} {
		if !strings.Contains(out.Stdout, w) {
			t.Errorf("the newer signature of task 1's bytes is not read (%q):\n%s", w, out)
		}
	}
}

// certLab is a roomy trustLab whose allowed signers trust a certificate
// authority instead of the keys: for main@lab in task_signers, for rx@lab
// in result_signers.
type certLab struct {
	*trustLab
	ca faultkit.SSHKey
}

func newCertLab(t *testing.T) *certLab {
	t.Helper()
	l := &certLab{trustLab: roomyTrustLab(t), ca: faultkit.NewSSHKey(t, "ca")}
	faultkit.WriteAllowedSigners(t, l.taskSigners, faultkit.SignerLine("main@lab", l.ca, `cert-authority,namespaces="git"`))
	faultkit.WriteAllowedSigners(t, l.resultSigners, faultkit.SignerLine("rx@lab", l.ca, `cert-authority,namespaces="git"`))
	return l
}

// utc is t as ssh-keygen -V's UTC form.
func utc(t time.Time) string { return t.UTC().Format("20060102150405") + "Z" }

// Finding 5 of issue 29, the task: a certificate that expired in 2021,
// and a task commit signed with it and dated 2020, inside its validity.
// git finds the signature good (it checks the certificate at the commit's
// date); the RX side refuses it, naming the certificate's validity. A
// valid certificate signs as the key would.
func TestTrustExpiredCertificateTask(t *testing.T) {
	t.Parallel()
	l := newCertLab(t)
	expired := faultkit.Certify(t, l.ca, l.main, "main@lab", "20200101Z:20210101Z")
	faultkit.SignedSeed(t, l.Remote, tasktest.TaskBranch,
		map[string]string{tasktest.TaskPath: l.taskText("CERT_OLD_0001")}, expired, "GIT_COMMITTER_DATE=2020-06-01T12:00:00Z")
	out := l.rxCheck(t, 1)
	t.Logf("rx check refuses:\n%s", out.Stderr)
	for _, w := range []string{"certificate", "for main@lab is outside its validity at now", "valid before 2021-01-01T00:00:00Z"} {
		if !strings.Contains(out.Stderr, w) {
			t.Errorf("rx check of a task signed by an expired certificate lacks %q:\n%s", w, out)
		}
	}
	if strings.Contains(out.All(), "CERT_OLD_0001") {
		t.Errorf("the refused task's content was read and shown:\n%s", out)
	}
	if show := l.RX.Run(faultkit.Wait, "audit", "show"); !strings.Contains(show.Stdout, "good signature on") {
		t.Errorf("git itself did not find the backdated signature good, so the test proves nothing:\n%s", show.Stdout)
	}

	valid := faultkit.Certify(t, l.ca, l.main, "main@lab", utc(time.Now().Add(-time.Hour))+":"+utc(time.Now().Add(time.Hour)))
	faultkit.SignedSeed(t, l.Remote, tasktest.TaskBranch, map[string]string{tasktest.TaskPath: l.taskText("CERT_NEW_0001")}, valid)
	out = l.rxCheck(t, 10)
	for _, w := range []string{"task:     CERT_NEW_0001", "signed:   main@lab " + l.main.Fingerprint} {
		if !strings.Contains(out.Stdout, w) {
			t.Errorf("rx check of a task signed by a valid certificate lacks %q:\n%s", w, out)
		}
	}
}

// Finding 5, the result: a READY published and committed while the RX
// key's certificate was valid, read after it expired, is refused by tx
// watch; so is a READY published before its certificate became valid
// (PROTOCOL#trust: at published_at too). A READY the RX publisher signed
// with a valid certificate, under a line for every principal at lab (a
// pattern), is offered, authorized and executed, and the record names the
// key.
func TestTrustExpiredCertificateResult(t *testing.T) {
	t.Parallel()
	l := newCertLab(t)
	now := time.Now().UTC().Truncate(time.Second)

	const lapsed = "CERT_RESULT_0001"
	l.PushTask(tasktest.Capture(lapsed))
	cert := faultkit.Certify(t, l.ca, l.rx, "rx@lab", utc(now.Add(-time.Hour))+":"+utc(now.Add(-30*time.Second)))
	r := l.Ready(lapsed)
	r.PublishedAt, r.CaptureStartedAt = now.Add(-time.Minute), now.Add(-time.Minute-time.Second)
	tip := l.publish(t, r, cert, "GIT_COMMITTER_DATE="+r.PublishedAt.Format(time.RFC3339))
	l.watchRefuses(t, tip, "for rx@lab is outside its validity at now", "valid before "+now.Add(-30*time.Second).Format(time.RFC3339))

	const early = "CERT_RESULT_0002"
	l.PushTask(tasktest.Capture(early))
	cert = faultkit.Certify(t, l.ca, l.rx, "rx@lab", utc(now.Add(-time.Minute))+":"+utc(now.Add(time.Hour)))
	r = l.Ready(early)
	r.PublishedAt, r.CaptureStartedAt = now.Add(-2*time.Minute), now.Add(-2*time.Minute-time.Second)
	tip = l.publish(t, r, cert, "GIT_COMMITTER_DATE="+now.Add(-30*time.Second).Format(time.RFC3339))
	w := l.Main.StartTTY("tx", "watch")
	w.WaitForText("at commit "+tip[:12]+" refused, not offered for authorization", faultkit.Wait)
	w.WaitForText("for rx@lab is outside its validity at the result's published_at", faultkit.Wait)
	w.Signal(syscall.SIGTERM)
	w.Wait(faultkit.Wait)
	if strings.Contains(w.TTY.String(), "Type exactly") {
		t.Fatalf("the READY published before its certificate was valid was offered:\n%s", w.TTY.String())
	}

	// The MAIN PC signs the task, the RX publisher the READY (policy
	// trust.signing_key), each with a valid certificate.
	const good = "CERT_RESULT_0003"
	faultkit.WriteAllowedSigners(t, l.resultSigners, faultkit.SignerLine("*@lab", l.ca, `cert-authority,namespaces="git"`))
	valid := utc(now.Add(-time.Hour)) + ":" + utc(now.Add(time.Hour))
	faultkit.SignedSeed(t, l.Remote, tasktest.TaskBranch, map[string]string{tasktest.TaskPath: l.taskText(good)}, faultkit.Certify(t, l.ca, l.main, "main@lab", valid))
	l.Approve(good, []byte(l.taskText(good)), l.Tip(tasktest.TaskBranch))
	l.RX.Policy.Trust.SigningKey = faultkit.Certify(t, l.ca, l.rx, "rx@lab", valid)
	l.RX.WritePolicy()
	if out := l.RX.Run(faultkit.Wait, "rx", "publish-result", l.WriteResult(l.Encode(l.Ready(good)))); out.Code != 0 {
		t.Fatalf("rx publish-result signing with a certificate: exit %d\n%s", out.Code, out)
	}
	record := l.authorizeTip(t)
	data, err := os.ReadFile(record)
	if err != nil {
		t.Fatal(err)
	}
	if rec, err := txwatch.ParseRecord(data); err != nil || rec.Nodes[0].ResultSigner != l.rx.Fingerprint {
		t.Fatalf("the record for the READY signed by a valid certificate does not name the key %s (%v):\n%s", l.rx.Fingerprint, err, data)
	}
	x := l.Main.StartTTY("tx", "execute", record)
	faultkit.TypePhrase(t, x)
	if st := x.Wait(faultkit.Wait); st.ExitCode() != 0 || !strings.Contains(x.TTY.String(), "action fake, RF TX = 0") {
		t.Fatalf("tx execute of the READY signed by a valid certificate: exit %d\n%s", st.ExitCode(), x.TTY.String())
	}
}
