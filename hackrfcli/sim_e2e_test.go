package hackrfcli

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"rfhandoff/exec"
	"rfhandoff/hacksim"
)

// TestMain lets this test binary act as the HackRF tools: run through a
// symlink named hackrf_info, hackrf_clock or hackrf_transfer, it is the
// simulator, as the rfhandoff binary is in production tests and the demo.
// Like rfhandoff's main it serves as the Ctrl-C helper first: without it
// an interrupt on Windows could only terminate the tool.
func TestMain(m *testing.M) {
	exec.ServeHelper()
	if hacksim.IsTool(os.Args[0]) {
		os.Exit(hacksim.Main(os.Args[0], os.Args[1:], os.Getenv, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// simClient builds the real runner stack (allowlist, audit log, os/exec)
// for role with the simulator pinned as the three tools.
func simClient(t *testing.T, role exec.Role, sim string) *Client {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	tools := map[exec.Tool]string{}
	for _, tool := range []exec.Tool{exec.HackRFInfo, exec.HackRFClock, exec.HackRFTransfer} {
		p := filepath.Join(dir, toolFile(string(tool)))
		if err := linkSelf(self, p); err != nil {
			t.Fatal(err)
		}
		tools[tool] = p
	}
	audit, err := exec.OpenAuditLog(filepath.Join(dir, "audit.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	st, err := exec.New(exec.Options{Role: role, Tools: tools, Audit: audit,
		Environ: append(os.Environ(), "HACKRF_SIM="+sim), Grace: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return &Client{R: st, Timeout: time.Minute}
}

func TestSimulatorThroughRunner(t *testing.T) {
	ctx := context.Background()
	c := simClient(t, exec.RoleCapture, "fast")
	in, err := c.Info(ctx)
	if err != nil {
		t.Fatalf("Info: %v", err)
	}
	if b, ok := in.Find(hacksim.Serial[24:]); !ok || !b.Opened() {
		t.Errorf("board %+v, %v", b, ok)
	}
	// The simulator says what it is, and the runner says which file ran.
	if !in.Simulated || in.Path == "" || filepath.Base(in.Path) != toolFile("hackrf_info") {
		t.Errorf("Info.Simulated %v, Path %q; want true and the pinned hackrf_info", in.Simulated, in.Path)
	}
	c.Serial = hacksim.Serial[24:]
	if st, err := c.Clock(ctx); err != nil || st != ClockDetected {
		t.Errorf("Clock = %v, %v", st, err)
	}

	p := validRx()
	p.OutPath = filepath.Join(t.TempDir(), "cap.ci8")
	p.NumSamples = 700_001
	p.Serial = hacksim.Serial[24:]
	var events int
	r, err := c.StartReceive(ctx, p, func(TransferEvent) { events++ })
	if err != nil {
		t.Fatalf("StartReceive: %v", err)
	}
	res, err := r.Wait()
	if err != nil || res.ExitCode != 0 {
		t.Fatalf("Wait: %v (exit %d)\n%s", err, res.ExitCode, res.StderrTail)
	}
	if !res.Stats.Finished || !res.Stats.Simulated || res.Stats.Reason != ExitFinished || res.Stats.Overruns == nil || *res.Stats.Overruns != 0 || events == 0 {
		t.Errorf("stats %+v after %d events", res.Stats, events)
	}
	if fi, err := os.Stat(p.OutPath); err != nil || fi.Size() != p.Bytes() {
		t.Errorf("capture %v, %v; want %d bytes", fi, err, p.Bytes())
	}
}

func TestSimulatorInterruptThroughRunner(t *testing.T) {
	c := simClient(t, exec.RoleCapture, "")
	p := validRx()
	p.OutPath = filepath.Join(t.TempDir(), "cap.ci8")
	p.NumSamples = 600_000_000 // five minutes at 2 Msps: only the interrupt ends it
	r, err := c.StartReceive(context.Background(), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		if fi, err := os.Stat(p.OutPath); err == nil && fi.Size() > 0 {
			break
		}
		if time.Now().After(deadline) {
			r.Interrupt()
			t.Fatal("capture never grew")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if r.Pid() <= 0 {
		t.Errorf("pid %d", r.Pid())
	}
	if err := r.Interrupt(); err != nil {
		t.Fatal(err)
	}
	res, err := r.Wait()
	if err != nil || res.ExitCode != 0 {
		t.Fatalf("Wait: %v (exit %d)\n%s", err, res.ExitCode, res.StderrTail)
	}
	if res.Stats.Reason != ExitSignal || res.Stats.Signal != 2 || !res.Stats.Finished || res.Stats.Overruns == nil {
		t.Errorf("stats %+v", res.Stats)
	}
}

func TestSimulatorFailuresThroughRunner(t *testing.T) {
	ctx := context.Background()
	p := validRx()
	p.OutPath = filepath.Join(t.TempDir(), "cap.ci8")
	p.NumSamples = 3_000_000

	c := simClient(t, exec.RoleCapture, "stall,fast")
	r, err := c.StartReceive(ctx, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := r.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.Code != 1 || res.ExitCode != 1 {
		t.Fatalf("stall: err %v exit %d, want ExitError 1", err, res.ExitCode)
	}
	if !res.Stats.Stalled || res.Stats.Reason != ExitStall {
		t.Errorf("stall stats %+v", res.Stats)
	}

	c = simClient(t, exec.RoleCapture, "nodevice")
	if _, err := c.Info(ctx); !errors.Is(err, ErrNoDevice) {
		t.Errorf("Info: %v, want ErrNoDevice", err)
	}
	if _, err := c.Clock(ctx); !errors.Is(err, ErrNoDevice) {
		t.Errorf("Clock: %v, want ErrNoDevice", err)
	}
	r, err = c.StartReceive(ctx, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err = r.Wait()
	if !errors.As(err, &ee) || res.Stats.Reason != ExitError || len(res.Stats.Failures) != 1 || !errors.Is(res.Stats.Failures[0], ErrNoDevice) {
		t.Errorf("nodevice receive: err %v stats %+v", err, res.Stats)
	}
}

func TestTransmitThroughRunner(t *testing.T) {
	iq := filepath.Join(t.TempDir(), "tx.ci8")
	if err := os.WriteFile(iq, make([]byte, 400_000), 0o644); err != nil {
		t.Fatal(err)
	}
	p := validTx()
	p.IQPath, p.NumSamples = iq, 100_000
	res, err := simClient(t, exec.RoleTransmit, "fast").Transmit(context.Background(), p)
	if err != nil || res.ExitCode != 0 || res.Stats.Reason != ExitFinished || !res.Stats.Finished {
		t.Fatalf("Transmit: %v, %+v", err, res)
	}
	// An all-zero file is sent as -inf dBFS, as the real tool reports it.
	if res.Stats.ProgressLines == 0 || !math.IsInf(res.Stats.LastPower, -1) {
		t.Errorf("progress lines %d, last power %v; want -Inf", res.Stats.ProgressLines, res.Stats.LastPower)
	}
	// The RX side's runner cannot transmit at all.
	if _, err := simClient(t, exec.RoleCapture, "fast").Transmit(context.Background(), p); !errors.Is(err, exec.ErrDenied) {
		t.Errorf("RX runner transmit: %v, want ErrDenied", err)
	}
}
