package e2e

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"rfhandoff/capture"
	"rfhandoff/config"
	"rfhandoff/exec"
	"rfhandoff/hackrfcli"
	"rfhandoff/internal/faultkit"
	"rfhandoff/internal/gittest"
	"rfhandoff/internal/prompttest"
	"rfhandoff/internal/publishtest"
	"rfhandoff/localfile"
	"rfhandoff/result"
)

// captureSide is an RX checkout with the fixture task approved, a policy
// file for it, and the environment the rfhandoff binary runs in.
type captureSide struct {
	f      *publishtest.Fixture
	bin    string
	policy string
	env    []string
}

// newCaptureSide writes a policy for a 15 s capture (the policy minimum)
// with the tools pinned as given (nil: the simulator TestMain put on PATH).
// Its [tx] keys stay the defaults, which do not fit a 15 s capture: the RX
// side does not use them, so they must not stop rx capture.
func newCaptureSide(t *testing.T, sim string, tools map[string]string) *captureSide {
	t.Helper()
	return newCaptureSideWith(t, sim, tools, publishtest.Options{}, "")
}

// newCaptureSideWith is newCaptureSide with the fixture's options and
// more policy text appended.
func newCaptureSideWith(t *testing.T, sim string, tools map[string]string, o publishtest.Options, more string) *captureSide {
	t.Helper()
	bin := rfhandoffBin(t)
	if tools == nil {
		tools = map[string]string{}
		for _, name := range simulatorNames {
			tools[name] = faultkit.SimulatorPath(t, name) // the simulator, never a real tool
		}
	}
	f := publishtest.New(t, o)
	policy := filepath.Join(t.TempDir(), "policy.toml")
	toml := fmt.Sprintf("[repo]\npath = %q\n\n[limits]\nplanned_duration_s = 15\n\n[tools]\nallow_simulator = true\n", f.Checkout)
	for _, name := range []string{"hackrf_info", "hackrf_clock", "hackrf_transfer"} {
		toml += fmt.Sprintf("%s = %q\n", name, tools[name])
	}
	toml += more
	if err := os.WriteFile(policy, []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	if !o.NoApproval {
		// The approval binds the capture plan (PROTOCOL#task-file): approved as
		// this policy has it, as rx approve would.
		pol, err := config.Parse([]byte(toml), policy)
		if err != nil {
			t.Fatal(err)
		}
		f.Policy = pol
		f.Approve(t, publishtest.TaskID, f.TaskData, f.TaskCommit)
	}
	home := gittest.Home(t)
	env := append(gittest.Environ(home, "RFHANDOFF_CONFIG", "HACKRF_SIM"), "HACKRF_SIM="+sim)
	return &captureSide{f: f, bin: bin, policy: policy, env: env}
}

func (s *captureSide) args(extra ...string) []string {
	return append([]string{"--config", s.policy, "rx", "capture"}, extra...)
}

// results returns RX_RESULT.json of every result-branch commit after base,
// each a single-node result.
func (s *captureSide) results(t *testing.T, base string) []*result.Result {
	t.Helper()
	rs, _, _ := s.decodeResults(t, base, result.Options{})
	return rs
}

// decodeResults decodes RX_RESULT.json of every result-branch commit after
// base under opts, with node results' own keys and the exact bytes.
func (s *captureSide) decodeResults(t *testing.T, base string, opts result.Options) ([]*result.Result, []result.NodeFields, [][]byte) {
	t.Helper()
	f := s.f
	out := gittest.Git(t, f.Runner, f.Remote.Dir, "log", "--reverse", "--format=%H", base+".."+f.Policy.Repo.ResultBranch)
	var (
		rs   []*result.Result
		nfs  []result.NodeFields
		docs [][]byte
	)
	for _, c := range strings.Fields(out) {
		data := gittest.Git(t, f.Runner, f.Remote.Dir, "show", c+":"+f.Policy.Repo.ResultDir+"/RX_RESULT.json")
		r, nf, err := result.DecodeNode([]byte(data), opts)
		if err != nil {
			t.Fatalf("commit %s: %v", c, err)
		}
		rs, nfs, docs = append(rs, r), append(nfs, nf), append(docs, []byte(data))
	}
	return rs, nfs, docs
}

func (s *captureSide) dataPath() string {
	return filepath.Join(s.f.Policy.CaptureDir(), publishtest.TaskID, publishtest.TaskID+capture.DataSuffix)
}

// TestRxCaptureCommand runs `rfhandoff rx capture TASK_ID` as cron would
// (no terminal) with the simulator's burst: exit 0, READY then COMPLETE
// on the remote describing the file, the SigMF pair and the PNG beside
// it, and plain progress lines on stderr.
func TestRxCaptureCommand(t *testing.T) {
	t.Parallel()
	s := newCaptureSide(t, "burst", nil)
	base := s.f.ResultTip(t)
	sess := prompttest.StartDetached(t, s.bin, s.args(publishtest.TaskID), prompttest.Options{Dir: s.f.Checkout, Env: s.env})
	code := exitStatus(t, sess.Wait(3*time.Minute))
	stdout, stderr := sess.Stdout.String(), sess.Stderr.String()
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	rs := s.results(t, base)
	if len(rs) != 2 || rs[0].State != result.StateReady || rs[1].State != result.StateComplete {
		t.Fatalf("%d result commits, want READY then COMPLETE", len(rs))
	}
	cp := rs[1]
	data, err := os.ReadFile(s.dataPath())
	if err != nil {
		t.Fatal(err)
	}
	if *cp.CaptureSizeBytes != int64(len(data)) || int64(len(data)) != 2*2_000_000*15 || *cp.CaptureSHA256 != faultkit.SHA256Hex(data) {
		t.Errorf("COMPLETE size %d sha %s; file %d %s", *cp.CaptureSizeBytes, *cp.CaptureSHA256, len(data), faultkit.SHA256Hex(data))
	}
	if *cp.ClkinAfter != result.ClkinDetected || *cp.RFTXObserved != result.RFTXExpectedExternal || *cp.CaptureExitCode != 0 {
		t.Errorf("COMPLETE clkin_after %s rf_tx_observed %s exit %d", *cp.ClkinAfter, *cp.RFTXObserved, *cp.CaptureExitCode)
	}
	if !strings.Contains(stdout, "COMPLETE:  "+s.f.ResultTip(t)) || !strings.Contains(stdout, "sha256:    "+*cp.CaptureSHA256) {
		t.Errorf("stdout does not report the COMPLETE commit and hash:\n%s", stdout)
	}
	base2 := strings.TrimSuffix(s.dataPath(), capture.DataSuffix)
	for _, p := range []string{base2 + capture.MetaSuffix, base2 + capture.PNGSuffix} {
		if st, err := os.Stat(p); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", p, err)
		}
	}
	// Not a terminal: plain lines, no carriage returns or escapes.
	if !regexp.MustCompile(`(?m)^capture RX_PUBLISH_0001: \d+\.\d s / 15\.0 s, `).MatchString(stderr) || strings.ContainsAny(stderr, "\r\x1b") {
		t.Errorf("stderr progress is not plain lines:\n%q", stderr)
	}
}

// TestRxCaptureCtrlC: on a terminal the progress is one line rewritten in
// place; Ctrl-C after READY stops hackrf_transfer (in its own process
// group, so only rfhandoff's relay reaches it), COMPLETE follows, and
// rfhandoff exits 130 leaving no tool running.
func TestRxCaptureCtrlC(t *testing.T) {
	t.Parallel()
	s := newCaptureSide(t, "", nil)
	base := s.f.ResultTip(t)
	sess := prompttest.Start(t, s.bin, s.args(), prompttest.Options{Dir: s.f.Checkout, Env: s.env})
	sess.WaitFor(regexp.MustCompile(`\rcapture RX_PUBLISH_0001: \d+\.\d s / 15\.0 s \[[#.]{20}\]`), 2*time.Minute)
	ready := s.results(t, base)
	if len(ready) != 1 || ready[0].State != result.StateReady {
		t.Fatalf("before Ctrl-C: %d result commits, want READY", len(ready))
	}
	sess.Type("\x03")
	code := exitStatus(t, sess.Wait(2*time.Minute))
	tty := sess.TTY.String()
	if code != 130 {
		t.Fatalf("exit %d, want 130\n%s", code, tty)
	}
	if !strings.Contains(tty, "capture interrupted") || !strings.Contains(tty, "honest COMPLETE published") {
		t.Errorf("the terminal does not say what happened:\n%s", tty)
	}
	rs := s.results(t, base)
	if len(rs) != 2 || rs[1].State != result.StateComplete {
		t.Fatalf("%d result commits, want READY then COMPLETE", len(rs))
	}
	cp := rs[1]
	data, err := os.ReadFile(s.dataPath())
	if err != nil {
		t.Fatal(err)
	}
	if *cp.CaptureSHA256 != faultkit.SHA256Hex(data) || *cp.CaptureSizeBytes != int64(len(data)) || len(data) >= 2*2_000_000*15 {
		t.Errorf("COMPLETE size %d of a file of %d bytes: want an honest, cut-short capture", *cp.CaptureSizeBytes, len(data))
	}
	if *cp.CaptureExitCode != 0 {
		t.Errorf("hackrf_transfer exit %d: it did not end through its SIGINT handler", *cp.CaptureExitCode)
	}
	if localfile.PIDAlive(int(cp.CapturePID)) {
		t.Errorf("hackrf_transfer (pid %d) is still there", cp.CapturePID)
	}
}

// TestRxCaptureRealToolsNoDevice runs rx capture against Debian's real
// hackrf tools with no board attached: the clean "no HackRF found" error,
// exit 1, and nothing published.
func TestRxCaptureRealToolsNoDevice(t *testing.T) {
	tools := map[string]string{}
	for _, name := range []string{"hackrf_info", "hackrf_clock", "hackrf_transfer"} {
		p := "/usr/bin/" + name
		if !filepath.IsAbs(p) { // Windows (under Wine /usr/bin is still there, on Z:)
			t.Skipf("Debian's hackrf tools are Linux programs in /usr/bin; %s is no path a policy on this system pins", p)
		}
		if _, err := os.Stat(p); err != nil {
			t.Skipf("Debian's hackrf tools are not installed (%s: %v)", p, err)
		}
		tools[name] = p
	}
	// With a real board attached this would capture for real: skip.
	probe := gittest.Runner(t)
	pinned, err := exec.New(exec.Options{Role: exec.RoleProbe, Audit: probe.AuditLog(),
		Tools: map[exec.Tool]string{exec.HackRFInfo: tools["hackrf_info"]}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := (&hackrfcli.Client{R: pinned}).Info(context.Background()); !errors.Is(err, hackrfcli.ErrNoDevice) {
		t.Skipf("a HackRF seems to be attached (hackrf_info: %v)", err)
	}

	s := newCaptureSide(t, "", tools)
	refs := s.f.Refs(t)
	code, stdout, stderr := run(t, s.args()...)
	if code != 1 {
		t.Fatalf("exit %d, want 1\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	want := "rfhandoff: no HackRF found: hackrf_info: No HackRF boards found. (exit status 1); nothing was started or published\n"
	if !strings.HasSuffix(stderr, want) || stdout != "" {
		t.Errorf("stdout %q, stderr %q; want stderr ending %q", stdout, stderr, want)
	}
	if got := s.f.Refs(t); got != refs {
		t.Errorf("remote refs changed:\n%s\n->\n%s", refs, got)
	}
	if _, err := os.Stat(s.dataPath()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a capture file exists: %v", err)
	}
	log, err := os.ReadFile(s.f.Policy.AuditPath())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(log), `"path":"/usr/bin/hackrf_info"`) || strings.Contains(string(log), `"tool":"hackrf_transfer"`) {
		t.Errorf("audit log: want the real hackrf_info and no hackrf_transfer:\n%s", log)
	}
}
