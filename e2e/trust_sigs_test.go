package e2e

import (
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"rfhandoff/faultkit"
	"rfhandoff/task/tasktest"
	"rfhandoff/txwatch"
)

// Signatures (PROTOCOL §17) in a lab whose signers hold SSH certificates.

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
	if show := l.RX.Run(faultWait, "audit", "show"); !strings.Contains(show.Stdout, "good signature on") {
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
// (PROTOCOL §17: at published_at too). A READY the RX publisher signed
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
	w.WaitForText("at commit "+tip[:12]+" refused, not offered for authorization", faultWait)
	w.WaitForText("for rx@lab is outside its validity at the result's published_at", faultWait)
	w.Signal(syscall.SIGTERM)
	w.Wait(faultWait)
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
	if out := l.RX.Run(faultWait, "rx", "publish-result", l.WriteResult(l.Encode(l.Ready(good)))); out.Code != 0 {
		t.Fatalf("rx publish-result signing with a certificate: exit %d\n%s", out.Code, out)
	}
	record := l.authorizeTip(t)
	data, err := os.ReadFile(record)
	if err != nil {
		t.Fatal(err)
	}
	if rec, err := txwatch.ParseRecord(data); err != nil || rec.ResultSigner != l.rx.Fingerprint {
		t.Fatalf("the record for the READY signed by a valid certificate does not name the key %s (%v):\n%s", l.rx.Fingerprint, err, data)
	}
	x := l.Main.StartTTY("tx", "execute", record)
	typePhrase(t, x)
	if st := x.Wait(faultWait); st.ExitCode() != 0 || !strings.Contains(x.TTY.String(), "action fake, RF TX = 0") {
		t.Fatalf("tx execute of the READY signed by a valid certificate: exit %d\n%s", st.ExitCode(), x.TTY.String())
	}
}
