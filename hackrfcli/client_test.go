package hackrfcli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"testing"
	"time"

	"rfhandoff/exec"
)

// fakeRunner records the commands it is given and replays canned output.
// It exists to assert argv; real output parsing is covered by the
// transcripts and, end to end, by the simulator.
type fakeRunner struct {
	mu     sync.Mutex
	cmds   []exec.Cmd
	result exec.Result
	err    error
	stderr string // streamed to Cmd.Stderr (Start and Run)
}

func (f *fakeRunner) Run(ctx context.Context, c exec.Cmd) (exec.Result, error) {
	f.mu.Lock()
	f.cmds = append(f.cmds, c)
	f.mu.Unlock()
	if c.Stderr != nil && f.stderr != "" {
		io.WriteString(c.Stderr, f.stderr)
	}
	return f.result, f.err
}

func (f *fakeRunner) Start(ctx context.Context, c exec.Cmd) (exec.Process, error) {
	f.mu.Lock()
	f.cmds = append(f.cmds, c)
	f.mu.Unlock()
	if f.err != nil {
		return nil, f.err
	}
	return &fakeProcess{c: c, f: f}, nil
}

type fakeProcess struct {
	c           exec.Cmd
	f           *fakeRunner
	interrupted bool
}

func (p *fakeProcess) Pid() int         { return 4242 }
func (p *fakeProcess) Interrupt() error { p.interrupted = true; return nil }
func (p *fakeProcess) Wait() (exec.Result, error) {
	// Written in two pieces so line splitting across writes is exercised.
	s := p.f.stderr
	io.WriteString(p.c.Stderr, s[:len(s)/2])
	io.WriteString(p.c.Stderr, s[len(s)/2:])
	return p.f.result, nil
}

func (f *fakeRunner) only(t *testing.T) exec.Cmd {
	t.Helper()
	if len(f.cmds) != 1 {
		t.Fatalf("%d commands run, want 1: %+v", len(f.cmds), f.cmds)
	}
	return f.cmds[0]
}

func TestClientInfoArgv(t *testing.T) {
	f := &fakeRunner{result: exec.Result{ExitCode: 1, Stdout: []byte("hackrf_info version: 2022.09.1\nNo HackRF boards found.\n")},
		err: &exec.ExitError{Tool: exec.HackRFInfo, Code: 1}}
	c := &Client{R: f, Timeout: 7 * time.Second, Serial: "233e1a5f"}
	_, err := c.Info(context.Background())
	if !errors.Is(err, ErrNoDevice) {
		t.Fatalf("err = %v, want ErrNoDevice", err)
	}
	cmd := f.only(t)
	if cmd.Tool != exec.HackRFInfo || len(cmd.Args) != 0 || cmd.Timeout != 7*time.Second {
		t.Errorf("cmd = %+v; hackrf_info takes no arguments", cmd)
	}
}

func TestClientClockArgv(t *testing.T) {
	tests := []struct {
		serial string
		want   []string
	}{
		{"", []string{"-i"}},
		{"233e1a5f", []string{"-i", "-d", "233e1a5f"}},
	}
	for _, tt := range tests {
		f := &fakeRunner{result: exec.Result{Stdout: []byte("CLKIN status: no clock signal detected\n")}}
		c := &Client{R: f, Serial: tt.serial}
		st, err := c.Clock(context.Background())
		if err != nil || st != ClockNotDetected {
			t.Fatalf("Clock = %v, %v", st, err)
		}
		if cmd := f.only(t); cmd.Tool != exec.HackRFClock || !slices.Equal(cmd.Args, tt.want) {
			t.Errorf("cmd %s %q, want %q", cmd.Tool, cmd.Args, tt.want)
		}
	}
	f := &fakeRunner{}
	if _, err := (&Client{R: f, Serial: "-r"}).Clock(context.Background()); err == nil || len(f.cmds) != 0 {
		t.Errorf("bad serial: err %v, %d commands run", err, len(f.cmds))
	}
}

func TestClientRunnerErrorsPassThrough(t *testing.T) {
	denied := fmt.Errorf("refused to run %s: test: %w", exec.HackRFClock, exec.ErrDenied)
	killed := &exec.ExitError{Tool: exec.HackRFClock, Code: -1, Signal: "killed"}
	for _, want := range []error{denied, killed} {
		c := &Client{R: &fakeRunner{err: want}}
		if _, err := c.Clock(context.Background()); !errors.Is(err, want) {
			t.Errorf("err %v, want %v", err, want)
		}
	}
}

func TestStartReceiveArgvAndStderr(t *testing.T) {
	tr := loadTranscript(t, "transfer/debian-rx-n-B.txtar")
	f := &fakeRunner{stderr: string(tr.Stderr), result: exec.Result{ExitCode: 0, Argv: []string{"/usr/bin/hackrf_transfer"}}}
	c := &Client{R: f}
	var kinds []EventKind
	r, err := c.StartReceive(context.Background(), validRx(), func(ev TransferEvent) { kinds = append(kinds, ev.Kind) })
	if err != nil {
		t.Fatal(err)
	}
	cmd := f.only(t)
	if cmd.Tool != exec.HackRFTransfer || !slices.Equal(cmd.Args, validRx().argv()) || cmd.Stderr == nil {
		t.Errorf("cmd = %s %q (stderr writer %v)", cmd.Tool, cmd.Args, cmd.Stderr != nil)
	}
	if r.Pid() != 4242 {
		t.Errorf("pid %d", r.Pid())
	}
	if err := r.Interrupt(); err != nil {
		t.Fatal(err)
	}
	res, err := r.Wait()
	if err != nil {
		t.Fatalf("Wait: %v", err)
	}
	if !res.Stats.Finished || res.Stats.Overruns == nil || *res.Stats.Overruns != 0 || res.Stats.Reason != ExitFinished {
		t.Errorf("stats = %+v", res.Stats)
	}
	if len(kinds) != len(splitLines(tr.Stderr)) || kinds[len(kinds)-1] != EventExit {
		t.Errorf("onLine saw %d events (last %v), want %d ending in exit", len(kinds), kinds[len(kinds)-1], len(splitLines(tr.Stderr)))
	}
}

func TestStartReceiveUsageQuirk(t *testing.T) {
	// Exit 0 with getopt's complaint and no end-of-run: not a capture.
	f := &fakeRunner{stderr: "hackrf_transfer: invalid option -- 'Z'\n"}
	r, err := (&Client{R: f}).StartReceive(context.Background(), validRx(), nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = r.Wait()
	if err == nil || err.Error() != "hackrf_transfer: usage error (exit status 0): hackrf_transfer: invalid option -- 'Z'" {
		t.Fatalf("err = %v, want a usage error naming the complaint", err)
	}
}

func TestStartReceiveRefusesInvalidParams(t *testing.T) {
	f := &fakeRunner{}
	p := validRx()
	p.LNAGainDB = 41
	if _, err := (&Client{R: f}).StartReceive(context.Background(), p, nil); err == nil {
		t.Fatal("invalid params accepted")
	}
	if len(f.cmds) != 0 {
		t.Errorf("a command ran despite invalid params: %+v", f.cmds)
	}
}

func TestTransmitArgvAndTimeout(t *testing.T) {
	tr := loadTranscript(t, "transfer/debian-tx-n.txtar")
	f := &fakeRunner{stderr: string(tr.Stderr)}
	c := &Client{R: f, Timeout: time.Second}
	p := validTx()
	res, err := c.Transmit(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	cmd := f.only(t)
	if cmd.Tool != exec.HackRFTransfer || !slices.Equal(cmd.Args, p.Argv()) {
		t.Errorf("cmd %s %q", cmd.Tool, cmd.Args)
	}
	if cmd.Timeout < p.duration()+txMargin {
		t.Errorf("timeout %v shorter than the transmission %v plus margin", cmd.Timeout, p.duration())
	}
	if res.Stats.Underruns == nil || !res.Stats.Finished {
		t.Errorf("stats = %+v", res.Stats)
	}

	f = &fakeRunner{}
	c.R = f
	p.TXVGAGainDB = 48
	if _, err := c.Transmit(context.Background(), p); err == nil || len(f.cmds) != 0 {
		t.Errorf("invalid TX params: err %v", err)
	}
}

func TestLineWriter(t *testing.T) {
	var got []string
	w := &lineWriter{fn: func(s string) { got = append(got, s) }}
	for _, chunk := range []string{"a", "b\r\nc\n", "", "\n", "partial"} {
		w.Write([]byte(chunk))
	}
	w.Flush()
	w.Flush()
	want := []string{"ab", "c", "", "partial"}
	if !slices.Equal(got, want) {
		t.Errorf("lines %q, want %q", got, want)
	}
	got = nil
	long := make([]byte, maxLine+10)
	for i := range long {
		long[i] = 'x'
	}
	w.Write(long)
	w.Flush()
	if len(got) != 2 || len(got[0]) != maxLine || len(got[1]) != 10 {
		t.Errorf("long line split into %d pieces", len(got))
	}
}
