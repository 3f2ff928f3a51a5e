package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"rfhandoff/config"
	"rfhandoff/exec"
	"rfhandoff/gate"
	"rfhandoff/internal/faultkit"
	"rfhandoff/internal/gittest"
	"rfhandoff/internal/prompttest"
	"rfhandoff/internal/txtest"
	"rfhandoff/state"
	"rfhandoff/txwatch"
)

// txWait bounds each wait on a child: generous for a loaded 2-core CI box.
const txWait = 3 * time.Minute

// txSide is a MAIN checkout with a policy file, and how to run the real
// rfhandoff binary in it.
type txSide struct {
	f      *txtest.Fixture
	bin    string
	policy string // the policy file
	pol    config.Policy
	env    []string
}

func newTxSide(t *testing.T, extraPolicy string, extraEnv ...string) *txSide {
	t.Helper()
	bin := rfhandoffBin(t)
	f := txtest.New(t)
	policy := filepath.Join(t.TempDir(), "policy.toml")
	if err := os.WriteFile(policy, []byte(f.PolicyTOML(extraPolicy)), 0o600); err != nil {
		t.Fatal(err)
	}
	pol, err := config.Load(policy)
	if err != nil {
		t.Fatalf("the test policy does not load: %v", err)
	}
	env := append(gittest.Environ(f.Home, "RFHANDOFF_CONFIG", "HACKRF_SIM"), "RFHANDOFF_CONFIG=", "HACKRF_SIM=")
	env = append(env, extraEnv...)
	return &txSide{f: f, bin: bin, policy: policy, pol: pol, env: env}
}

// start runs rfhandoff on a fresh pty (its controlling terminal), stdout
// and stderr captured apart from the prompts.
func (s *txSide) start(t *testing.T, args ...string) *prompttest.Session {
	t.Helper()
	return prompttest.Start(t, s.bin, append([]string{"--config", s.policy}, args...),
		prompttest.Options{Dir: s.f.Main, Env: s.env, CaptureOutput: true})
}

// detached runs rfhandoff with no controlling terminal at all.
func (s *txSide) detached(t *testing.T, args ...string) *prompttest.Session {
	t.Helper()
	return prompttest.StartDetached(t, s.bin, append([]string{"--config", s.policy}, args...),
		prompttest.Options{Dir: s.f.Main, Env: s.env})
}

func (s *txSide) auditPath() string { return s.pol.AuditPath() }

func (s *txSide) hackrfStarts(t *testing.T) int {
	return txtest.ToolStarts(t, s.auditPath(), exec.HackRFTransfer)
}

func (s *txSide) authDir() string { return s.pol.StatePath(txwatch.AuthDirName) }

func (s *txSide) authFiles(t *testing.T) []string {
	t.Helper()
	return txtest.Files(t, s.authDir())
}

func exitStatus(t *testing.T, ps *os.ProcessState) int {
	t.Helper()
	if ps == nil {
		t.Fatal("no process state")
	}
	return ps.ExitCode()
}

var authorizedRE = regexp.MustCompile(`AUTHORIZED: record (\S+) `)

// watchAndAuthorize runs tx watch until it authorizes the READY result on
// the branch with the exact phrase, stops it with SIGINT and returns the
// record's path.
func (s *txSide) watchAndAuthorize(t *testing.T) string {
	t.Helper()
	w := s.start(t, "tx", "watch")
	w.WaitForText("Type exactly: AUTHORIZE RF TX", txWait)
	w.WaitFor(regexp.MustCompile(`[0-9]+ s left`), txWait) // the live countdown
	w.Send(gate.TXPhrase)
	m := w.Stdout.WaitFor(authorizedRE, txWait)
	w.Signal(syscall.SIGINT)
	if code := exitStatus(t, w.Wait(txWait)); code != 0 {
		t.Fatalf("tx watch exited %d after SIGINT; stderr:\n%s", code, w.Stderr)
	}
	return m[1]
}

// The dry-run contract (PROTOCOL#dry-run): a temporary bare remote with a task
// branch and an existing rx-node, a fake READY result, tx watch detects
// it, the exact RED phrase is required at a terminal, the record is
// written, tx execute runs the fake action which writes RF TX = 0, and no
// HackRF tool ever runs.
func TestTxDryRunContract(t *testing.T) {
	t.Parallel()
	s := newTxSide(t, "")
	_, digest := s.f.Publish(t, txtest.Ready(time.Now()))

	record := s.watchAndAuthorize(t)
	if want := filepath.Join(s.authDir(), txwatch.RecordName(txtest.TaskID, digest)); record != want {
		t.Fatalf("record at %s, want %s", record, want)
	}
	st, err := state.LoadTX(s.pol.StatePath())
	if err != nil {
		t.Fatal(err)
	}
	if !st.Shown(digest) || st.Running {
		t.Fatalf("state after the watcher stopped: %+v", st)
	}

	x := s.start(t, "tx", "execute", record)
	x.WaitForText("Type exactly: AUTHORIZE RF TX", txWait)
	x.Send(gate.TXPhrase)
	if code := exitStatus(t, x.Wait(txWait)); code != 0 {
		t.Fatalf("tx execute exited %d; stdout:\n%s\nstderr:\n%s", code, x.Stdout, x.Stderr)
	}
	if !strings.Contains(x.Stdout.String(), "action fake, RF TX = 0") {
		t.Fatalf("stdout:\n%s", x.Stdout)
	}
	outcomePath := filepath.Join(s.authDir(), txwatch.OutcomeName(filepath.Base(record)))
	var o txwatch.Outcome
	if ok, err := state.ReadJSON(outcomePath, &o); !ok || err != nil {
		t.Fatalf("outcome %s: %v %v", outcomePath, ok, err)
	}
	if o.Action != "fake" || o.RFTX != 0 || o.RFTXStarted {
		t.Fatalf("outcome %+v", o)
	}

	// The audit log is real (git ran through it) and holds no
	// hackrf_transfer, nor any other HackRF tool.
	if n := txtest.ToolStarts(t, s.auditPath(), exec.Git); n == 0 {
		t.Fatal("the audit log has no git start lines: it is not the log the commands wrote")
	}
	for _, tool := range []exec.Tool{exec.HackRFTransfer, exec.HackRFInfo, exec.HackRFClock} {
		if n := txtest.ToolStarts(t, s.auditPath(), tool); n != 0 {
			t.Fatalf("%d %s start lines in the audit log", n, tool)
		}
	}
	if _, err := exec.VerifyAuditLog(s.auditPath()); err != nil {
		t.Fatalf("audit chain: %v", err)
	}

	// A second execute of the same record is refused, before the phrase.
	again := s.start(t, "tx", "execute", record)
	if code := exitStatus(t, again.Wait(txWait)); code != 1 {
		t.Fatalf("second execute exited %d", code)
	}
	if !strings.Contains(again.Stderr.String(), "already used") || strings.Contains(again.TTY.String(), "Type exactly") {
		t.Fatalf("second execute: tty:\n%s\nstderr:\n%s", again.TTY, again.Stderr)
	}

	// tx status shows the used record with its outcome.
	status := s.detached(t, "tx", "status", "--json")
	if code := exitStatus(t, status.Wait(txWait)); code != 0 {
		t.Fatalf("tx status exited %d: %s", code, status.Stderr)
	}
	var got txwatch.Status
	if err := json.Unmarshal([]byte(status.Stdout.String()), &got); err != nil {
		t.Fatalf("tx status --json: %v\n%s", err, status.Stdout)
	}
	if len(got.Records) != 1 || got.Records[0].Status != txwatch.RecordUsed || got.Records[0].Outcome == nil ||
		got.Records[0].Outcome.RFTX != 0 || got.Running || got.ShownResults != 1 {
		t.Fatalf("tx status: %+v", got)
	}
	text := s.detached(t, "tx", "status")
	if code := exitStatus(t, text.Wait(txWait)); code != 0 {
		t.Fatalf("tx status exited %d: %s", code, text.Stderr)
	}
	for _, want := range []string{"watcher:        not running", "results shown:  1", filepath.Base(record) + "  used",
		"outcome: action fake, rf_tx_started false, RF TX = 0, exit 0"} {
		if !strings.Contains(text.Stdout.String(), want) {
			t.Errorf("tx status lacks %q:\n%s", want, text.Stdout)
		}
	}
}

// A typo is not fatal, at a real terminal: a wrong phrase writes nothing
// and is asked again within the same offer, the tries left shown; the
// right one then writes the one record.
func TestTxWatchWrongPhraseAskedAgain(t *testing.T) {
	t.Parallel()
	s := newTxSide(t, "")
	_, digest := s.f.Publish(t, txtest.Ready(time.Now()))
	w := s.start(t, "tx", "watch")
	w.WaitForText("Type exactly: AUTHORIZE RF TX", txWait)
	w.Send("AUTHORIZE RF TX.")
	w.Stdout.WaitForText("wrong phrase for result "+digest[:12]+": 2 of 3 tries left, asking again", txWait)
	if files := s.authFiles(t); len(files) != 0 {
		t.Fatalf("a wrong phrase wrote %v", files)
	}
	w.WaitForText("Type exactly: AUTHORIZE RF TX", txWait) // asked again, at the same offer
	w.Send(gate.TXPhrase)
	m := w.Stdout.WaitFor(authorizedRE, txWait)
	w.Signal(syscall.SIGTERM)
	if code := exitStatus(t, w.Wait(txWait)); code != 0 {
		t.Fatalf("tx watch exited %d", code)
	}
	name := txwatch.RecordName(txtest.TaskID, digest)
	if files := s.authFiles(t); !slices.Equal(files, []string{name}) || m[1] != filepath.Join(s.authDir(), name) {
		t.Fatalf("authorization dir holds %v (reported %s), want only %s", files, m[1], name)
	}
	if s.hackrfStarts(t) != 0 {
		t.Fatal("hackrf_transfer ran")
	}
}

// Three wrong phrases at one offer: nothing is authorized, and the READY
// is not offered again, neither by later polls nor by a restarted tx watch.
func TestTxWatchPhraseTriesExhausted(t *testing.T) {
	t.Parallel()
	s := newTxSide(t, "")
	_, digest := s.f.Publish(t, txtest.Ready(time.Now()))
	w := s.start(t, "tx", "watch")
	for range txwatch.PhraseTries {
		w.WaitForText("Type exactly: AUTHORIZE RF TX", txWait)
		w.Send("authorize rf tx")
	}
	w.Stdout.WaitForText("wrong phrase for result "+digest[:12]+", 3 times: nothing authorized, and it is not offered again", txWait)
	polled := fetches(t, s.auditPath())
	waitFor(t, "two more polls", func() bool { return fetches(t, s.auditPath()) >= polled+2 })
	w.Signal(syscall.SIGTERM)
	if code := exitStatus(t, w.Wait(txWait)); code != 0 {
		t.Fatalf("tx watch exited %d", code)
	}
	if n := strings.Count(w.TTY.String(), "Type exactly: AUTHORIZE RF TX"); n != txwatch.PhraseTries {
		t.Fatalf("the phrase was asked %d times, want %d:\n%s", n, txwatch.PhraseTries, w.TTY.String())
	}

	again := s.start(t, "tx", "watch")
	polled = fetches(t, s.auditPath())
	waitFor(t, "two polls of the restarted tx watch", func() bool { return fetches(t, s.auditPath()) >= polled+2 })
	again.Signal(syscall.SIGTERM)
	if code := exitStatus(t, again.Wait(txWait)); code != 0 {
		t.Fatalf("the restarted tx watch exited %d", code)
	}
	if out := again.TTY.String() + again.Stdout.String(); strings.Contains(out, "Type exactly") || strings.Contains(out, digest[:12]) {
		t.Fatalf("a restarted tx watch offered the READY whose tries ran out:\n%s", out)
	}
	if files := s.authFiles(t); len(files) != 0 {
		t.Fatalf("authorization dir holds %v after the tries ran out", files)
	}
	if s.hackrfStarts(t) != 0 {
		t.Fatal("hackrf_transfer ran")
	}
}

// A new result pushed while the prompt waits: the phrase is typed, the
// re-fetch finds another commit and other bytes, nothing is authorized.
func TestTxWatchResultReplacedAtThePrompt(t *testing.T) {
	t.Parallel()
	s := newTxSide(t, "")
	now := time.Now()
	s.f.Publish(t, txtest.Ready(now))
	w := s.start(t, "tx", "watch")
	w.WaitForText("Type exactly: AUTHORIZE RF TX", txWait)
	s.f.Publish(t, txtest.Ready(now.Add(time.Second)))
	w.Send(gate.TXPhrase)
	w.Stdout.WaitForText("BLOCKED after the phrase, nothing authorized", txWait)
	w.Stdout.WaitForText("the result branch moved from", txWait)
	w.Signal(syscall.SIGINT)
	if code := exitStatus(t, w.Wait(txWait)); code != 0 {
		t.Fatalf("tx watch exited %d", code)
	}
	if files := s.authFiles(t); len(files) != 0 {
		t.Fatalf("authorization dir holds %v", files)
	}
}

func TestTxWatchWithoutTerminal(t *testing.T) {
	t.Parallel()
	s := newTxSide(t, "")
	s.f.Publish(t, txtest.Ready(time.Now()))
	w := s.detached(t, "tx", "watch")
	w.Stdout.WaitForText("awaits authorization, but there is no terminal here", txWait)
	w.Signal(syscall.SIGTERM)
	if code := exitStatus(t, w.Wait(txWait)); code != 0 {
		t.Fatalf("tx watch exited %d; stderr:\n%s", code, w.Stderr)
	}
	if files := s.authFiles(t); len(files) != 0 {
		t.Fatalf("authorization dir holds %v", files)
	}
	st, err := state.LoadTX(s.pol.StatePath())
	if err != nil || st.Running {
		t.Fatalf("state %+v, %v", st, err)
	}
}

func TestTxExecuteWithoutTerminalIsRefused(t *testing.T) {
	t.Parallel()
	s := newTxSide(t, "")
	s.f.Publish(t, txtest.Ready(time.Now()))
	record := s.watchAndAuthorize(t)
	x := s.detached(t, "tx", "execute", record)
	if code := exitStatus(t, x.Wait(txWait)); code != 1 {
		t.Fatalf("exit %d", code)
	}
	if !strings.Contains(x.Stderr.String(), "must be typed at a terminal") {
		t.Fatalf("stderr:\n%s", x.Stderr)
	}
	if files := s.authFiles(t); !slices.Equal(files, []string{filepath.Base(record)}) {
		t.Fatalf("authorization dir holds %v", files)
	}
}

func TestTxExecuteWrongPhraseIsRefused(t *testing.T) {
	t.Parallel()
	s := newTxSide(t, "")
	s.f.Publish(t, txtest.Ready(time.Now()))
	record := s.watchAndAuthorize(t)
	x := s.start(t, "tx", "execute", record)
	x.WaitForText("Type exactly: AUTHORIZE RF TX", txWait)
	x.Send("AUTHORIZE RF  TX")
	if code := exitStatus(t, x.Wait(txWait)); code != 1 {
		t.Fatalf("exit %d", code)
	}
	if !strings.Contains(x.Stderr.String(), "wrong phrase") {
		t.Fatalf("stderr:\n%s", x.Stderr)
	}
	if files := s.authFiles(t); !slices.Equal(files, []string{filepath.Base(record)}) {
		t.Fatalf("a wrong phrase changed the authorization dir: %v", files)
	}
	if s.hackrfStarts(t) != 0 {
		t.Fatal("hackrf_transfer ran")
	}
}

// writeRecord authorizes the READY result on the branch directly (as tx
// watch would after the phrase), for the executor tests.
func (s *txSide) writeRecord(t *testing.T, commit, digest string, captureEnd time.Time) string {
	t.Helper()
	st, err := txwatch.StoreOf(s.pol)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	path, err := st.Create(txwatch.Record{
		RecordVersion: txwatch.RecordVersion, TaskID: txtest.TaskID, ResultBranch: "rx-node",
		ResultCommit: commit, ResultSHA256: digest, CaptureEndsAt: captureEnd,
		AuthorizedAt: now, ExpiresAt: now.Add(2 * time.Minute), TX: txwatch.ParamsOf(s.pol),
		Nodes: []txwatch.NodeBinding{{ResultBranch: "rx-node", ResultCommit: commit, ResultSHA256: digest}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// The hackrf_transfer action, only with [tx] enabled = true, runs the
// simulator for a bounded -t and writes the outcome with its exit code.
func TestTxExecuteHackRFTransferWithTheSimulator(t *testing.T) {
	t.Parallel()
	sim := faultkit.SimulatorPath(t, "hackrf_transfer")
	iq := filepath.Join(t.TempDir(), "burst.ci8")
	if err := os.WriteFile(iq, []byte(strings.Repeat("\x20\xe0\x10\xf0", 16<<10)), 0o600); err != nil {
		t.Fatal(err)
	}
	s := newTxSide(t, "[tools]\nhackrf_transfer = "+strconv.Quote(sim)+"\n\n"+
		"[tx]\nenabled = true\naction = \"hackrf_transfer\"\niq_file = "+strconv.Quote(iq)+"\nduration_s = 1\n", "HACKRF_SIM=fast")
	r := txtest.Ready(time.Now())
	commit, digest := s.f.Publish(t, r)
	record := s.writeRecord(t, commit, digest, r.CaptureStartedAt.Add(600*time.Second))

	x := s.start(t, "tx", "execute", record)
	x.WaitForText("Type exactly: AUTHORIZE RF TX", txWait)
	x.Send(gate.TXPhrase)
	if code := exitStatus(t, x.Wait(txWait)); code != 0 {
		t.Fatalf("tx execute exited %d; stdout:\n%s\nstderr:\n%s", code, x.Stdout, x.Stderr)
	}
	var o txwatch.Outcome
	outcome := filepath.Join(s.authDir(), txwatch.OutcomeName(filepath.Base(record)))
	if ok, err := state.ReadJSON(outcome, &o); !ok || err != nil {
		t.Fatalf("outcome: %v %v", ok, err)
	}
	if o.Action != "hackrf_transfer" || !o.RFTXStarted || o.RFTX != 1 || o.ExitCode == nil || *o.ExitCode != 0 ||
		o.EndedAt == nil || o.Error != "" {
		t.Fatalf("outcome %+v", o)
	}
	want := []string{"hackrf_transfer", "-t", iq, "-f", "433920000", "-s", "2000000", "-x", "0", "-a", "0", "-n", "2000000"}
	if !slices.Equal(o.Argv, want) {
		t.Fatalf("argv %q, want %q", o.Argv, want)
	}
	if !strings.Contains(x.Stdout.String(), "action hackrf_transfer, RF TX = 1") {
		t.Fatalf("stdout:\n%s", x.Stdout)
	}
	// Exactly one audited start, of the pinned simulator, with the TX role.
	entries, err := exec.ReadAuditTail(s.auditPath(), 0)
	if err != nil {
		t.Fatal(err)
	}
	var starts []exec.Entry
	for _, e := range entries {
		if e.Tool == exec.HackRFTransfer && e.Event == exec.EventStart {
			starts = append(starts, e)
		}
	}
	if len(starts) != 1 || starts[0].Path != sim || starts[0].Role != string(exec.RoleTransmit) || !slices.Contains(starts[0].Argv, "-t") {
		t.Fatalf("hackrf_transfer audit starts: %+v", starts)
	}
}

// hackrf_transfer with [tx] enabled = false is refused before the phrase:
// no prompt, no marker, no outcome, nothing run.
func TestTxExecuteHackRFTransferDisabledIsRefused(t *testing.T) {
	t.Parallel()
	sim := faultkit.SimulatorPath(t, "hackrf_transfer")
	iq := filepath.Join(t.TempDir(), "burst.ci8")
	if err := os.WriteFile(iq, []byte("\x20\xe0"), 0o600); err != nil {
		t.Fatal(err)
	}
	s := newTxSide(t, "[tools]\nhackrf_transfer = "+strconv.Quote(sim)+"\n\n"+
		"[tx]\naction = \"hackrf_transfer\"\niq_file = "+strconv.Quote(iq)+"\nduration_s = 1\n")
	r := txtest.Ready(time.Now())
	commit, digest := s.f.Publish(t, r)
	record := s.writeRecord(t, commit, digest, r.CaptureStartedAt.Add(600*time.Second))
	x := s.start(t, "tx", "execute", record)
	if code := exitStatus(t, x.Wait(txWait)); code != 1 {
		t.Fatalf("exit %d", code)
	}
	if !strings.Contains(x.Stderr.String(), "[tx] enabled is false") || strings.Contains(x.TTY.String(), "Type exactly") {
		t.Fatalf("tty:\n%s\nstderr:\n%s", x.TTY, x.Stderr)
	}
	if files := s.authFiles(t); !slices.Equal(files, []string{filepath.Base(record)}) {
		t.Fatalf("authorization dir holds %v", files)
	}
	if s.hackrfStarts(t) != 0 {
		t.Fatal("hackrf_transfer ran")
	}
}

// tx execute without a RECORD, through the binary: with two unused
// records it lists both and runs none; once one has expired, that one is
// refused naming the time its capture has left, and the other is the one
// taken (here refused later, at the phrase: no terminal).
func TestTxExecuteWithoutRecordChoosesOnlyOne(t *testing.T) {
	t.Parallel()
	s := newTxSide(t, "")
	now := time.Now()
	s.f.Publish(t, txtest.Ready(now))
	long := filepath.Base(s.watchAndAuthorize(t))
	short := txtest.Ready(time.Now())
	short.CaptureStartedAt = short.PublishedAt.Add(-525 * time.Second) // 75 s left: its record expires in 55 s
	s.f.Publish(t, short)
	brief := filepath.Base(s.watchAndAuthorize(t))

	x := s.detached(t, "tx", "execute")
	if code := exitStatus(t, x.Wait(txWait)); code != 1 {
		t.Fatalf("tx execute with two unused records: exit %d\n%s", code, x.Stdout)
	}
	for _, want := range []string{"2 unused records, so none is chosen", "rfhandoff tx execute " + long, "rfhandoff tx execute " + brief} {
		if !strings.Contains(x.Stderr.String(), want) {
			t.Errorf("tx execute with two unused records does not say %q:\n%s", want, x.Stderr)
		}
	}

	st, err := txwatch.StoreOf(s.pol)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := st.ReadRecord(brief)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Until(rec.ExpiresAt.Add(time.Second)))
	x = s.detached(t, "tx", "execute", brief)
	if code := exitStatus(t, x.Wait(txWait)); code != 1 {
		t.Fatalf("tx execute of an expired record: exit %d", code)
	}
	for _, want := range []string{"refused at quick checks: ", "the record expired at ", "what now: its capture still runs for ", "rfhandoff task new"} {
		if !strings.Contains(x.Stderr.String(), want) {
			t.Errorf("the expired record's refusal does not say %q:\n%s", want, x.Stderr)
		}
	}
	x = s.detached(t, "tx", "execute")
	if code := exitStatus(t, x.Wait(txWait)); code != 1 {
		t.Fatalf("tx execute without a terminal: exit %d", code)
	}
	if !strings.Contains(x.Stdout.String(), "the one unused record: "+long) || !strings.Contains(x.Stderr.String(), "must be typed at a terminal") {
		t.Errorf("tx execute did not take the one unused, unexpired record:\nstdout:\n%s\nstderr:\n%s", x.Stdout, x.Stderr)
	}
	want := []string{long, brief}
	slices.Sort(want)
	if files := s.authFiles(t); !slices.Equal(files, want) || s.hackrfStarts(t) != 0 {
		t.Fatalf("authorization dir holds %v, want %v", files, want)
	}
}
