package hacksim

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"rfhandoff/hackrfcli"

	"github.com/rogpeppe/go-internal/txtar"
)

// transcript reads one of hackrfcli's reference transcripts (the real
// tools' output), so the simulator is held to the same bytes.
func transcript(t *testing.T, rel string) (stdout, stderr string, exit int) {
	t.Helper()
	a, err := txtar.ParseFile(filepath.Join("..", "hackrfcli", "testdata", "transcripts", rel))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(a.Comment), "\n") {
		if v, ok := strings.CutPrefix(l, "exit: "); ok {
			exit = int(v[0] - '0')
		}
	}
	for _, f := range a.Files {
		switch f.Name {
		case "stdout":
			stdout = string(f.Data)
		case "stderr":
			stderr = string(f.Data)
		}
	}
	return
}

func TestMatchesReferenceTranscripts(t *testing.T) {
	tests := []struct {
		transcript string
		sim, tool  string
		args       []string
	}{
		{"info/debian-nodevice.txtar", "nodevice", "hackrf_info", nil},
		{"info/debian-nodevice.txtar", "nodevice", "hackrf_info", []string{"--version"}},
		{"info/debian-one-board.txtar", "", "hackrf_info", []string{"-h"}},
		{"clock/debian-nodevice.txtar", "nodevice", "hackrf_clock", []string{"-i"}},
		{"clock/debian-detected.txtar", "", "hackrf_clock", []string{"-i"}},
		{"clock/debian-not-detected.txtar", "noclock", "hackrf_clock", []string{"-i"}},
		{"info/debian-old-firmware.txtar", "oldfw", "hackrf_info", nil},
		{"clock/debian-old-firmware.txtar", "oldfw", "hackrf_clock", []string{"-i"}},
		{"clock/debian-old-firmware.txtar", "oldfw,noclock", "hackrf_clock", []string{"-i", "-d", "233e1a5f"}},
		{"clock/debian-long-option.txtar", "", "hackrf_clock", []string{"--clkin"}},
		{"clock/debian-no-operation.txtar", "", "hackrf_clock", nil},
		{"transfer/debian-nodevice.txtar", "nodevice", "hackrf_transfer", strings.Fields("-r x.iq -f 433920000 -s 2000000 -n 4000000")},
		{"transfer/debian-invalid-option.txtar", "", "hackrf_transfer", strings.Fields("-r x.iq -Z")},
		{"transfer/debian-bad-gains.txtar", "nodevice", "hackrf_transfer", strings.Fields("-r x.iq -l 7 -g 3")},
		{"transfer/debian-argument-error.txtar", "", "hackrf_transfer", strings.Fields("-r x.iq -f 7000000000")},
	}
	for _, tt := range tests {
		t.Run(tt.transcript+" "+strings.Join(tt.args, " "), func(t *testing.T) {
			wantOut, wantErr, wantCode := transcript(t, tt.transcript)
			t.Chdir(t.TempDir()) // x.iq must never be created
			out, errs, code := run(t, tt.sim, tt.tool, nil, tt.args...)
			if out != wantOut || errs != wantErr || code != wantCode {
				t.Errorf("got exit %d\nstdout:\n%s\nstderr:\n%s\nwant exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs, wantCode, wantOut, wantErr)
			}
			if m, _ := filepath.Glob("*"); len(m) != 0 {
				t.Errorf("files created: %v", m)
			}
		})
	}
}

func TestInfoRoundTrip(t *testing.T) {
	out, errs, code := run(t, "fast,burst", "hackrf_info", nil)
	in, err := hackrfcli.ParseInfo([]byte(out), []byte(errs), code)
	if err != nil || code != 0 || errs != "" {
		t.Fatalf("ParseInfo: %v (exit %d, stderr %q)", err, code, errs)
	}
	b, ok := in.Find("233e1a5f")
	if !ok || b.Serial != Serial || b.FirmwareVersion != firmwareVersion || b.APIVersion != apiVersion || b.BoardName != "HackRF One" {
		t.Errorf("board = %+v", b)
	}
	if in.ToolVersion != toolVersion || in.LibABI != libABI {
		t.Errorf("versions %q %q", in.ToolVersion, in.LibABI)
	}

	out, errs, code = run(t, "nodevice", "hackrf_info", nil)
	if _, err := hackrfcli.ParseInfo([]byte(out), []byte(errs), code); !errors.Is(err, hackrfcli.ErrNoDevice) || code != 1 {
		t.Errorf("nodevice: %v, exit %d", err, code)
	}
}

func TestClockRoundTrip(t *testing.T) {
	tests := []struct {
		sim    string
		args   []string
		want   hackrfcli.ClockStatus
		code   int
		errIs  error
		errMsg string // the whole error message, when set
		usage  bool   // a usage error
	}{
		{"", []string{"-i"}, hackrfcli.ClockDetected, 0, nil, "", false},
		{"fast", []string{"-i", "-d", Serial}, hackrfcli.ClockDetected, 0, nil, "", false},
		{"", []string{"-i", "-d", "233e1a5f"}, hackrfcli.ClockDetected, 0, nil, "", false},
		{"", []string{"--device=233e1a5f", "-i"}, hackrfcli.ClockDetected, 0, nil, "", false},
		{"", []string{"-id", "233e1a5f"}, hackrfcli.ClockDetected, 0, nil, "", false},
		{"noclock", []string{"-i"}, hackrfcli.ClockNotDetected, 0, nil, "", false},
		{"noclock,burst", []string{"-o", "1", "-i"}, hackrfcli.ClockNotDetected, 0, nil, "", false},
		{"nodevice", []string{"-i"}, hackrfcli.ClockUnknown, 1, hackrfcli.ErrNoDevice, "hackrf_clock: hackrf_open() failed: HackRF not found (-5)", false},
		{"", []string{"-i", "-d", "ffffffff"}, hackrfcli.ClockUnknown, 1, hackrfcli.ErrNoDevice, "", false},
		{"", []string{"-i", "-d", "0" + Serial}, hackrfcli.ClockUnknown, 1, hackrfcli.ErrNoDevice, "", false},
		{"", []string{"-Z"}, hackrfcli.ClockUnknown, 0, nil, "", true},
		{"", []string{"-h"}, hackrfcli.ClockUnknown, 0, nil, "", true},
		{"", []string{"-r", "abc"}, hackrfcli.ClockUnknown, 1, nil, "", true},
		{"", []string{"-d"}, hackrfcli.ClockUnknown, 0, nil, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.sim+" "+strings.Join(tt.args, " "), func(t *testing.T) {
			out, errs, code := run(t, tt.sim, "hackrf_clock", nil, tt.args...)
			st, err := hackrfcli.ParseClock([]byte(out), []byte(errs), code)
			if st != tt.want || code != tt.code {
				t.Fatalf("status %v exit %d, want %v exit %d (err %v)", st, code, tt.want, tt.code, err)
			}
			if tt.usage && (err == nil || !strings.HasPrefix(err.Error(), "hackrf_clock: usage error (exit status ")) {
				t.Errorf("error %v, want a usage error", err)
			}
			if tt.errIs == nil && tt.errMsg == "" && !tt.usage && err != nil {
				t.Fatalf("unexpected error %v", err)
			}
			if tt.errIs != nil && !errors.Is(err, tt.errIs) {
				t.Errorf("error %v, want %v", err, tt.errIs)
			}
			if tt.errMsg != "" && (err == nil || err.Error() != tt.errMsg) {
				t.Errorf("error %v, want the parsed call failure %q", err, tt.errMsg)
			}
		})
	}
}

// TestOldFirmware: HACKRF_SIM=oldfw is a board on firmware 2021.03.1 as
// hackrfcli reads it: inventory without revision, CLKIN refused with a
// *FirmwareError, CLKOUT still accepted (it needs API 1.03 only).
func TestOldFirmware(t *testing.T) {
	out, errs, code := run(t, "oldfw", "hackrf_info", nil)
	in, err := hackrfcli.ParseInfo([]byte(out), []byte(errs), code)
	if err != nil {
		t.Fatal(err)
	}
	b := in.Boards[0]
	if b.FirmwareVersion != OldFirmwareVersion || b.APIVersion != OldAPIVersion || b.HardwareRevision != "" || b.Platforms != nil || len(b.Extra) != 0 {
		t.Errorf("board = %+v", b)
	}

	out, errs, code = run(t, "oldfw", "hackrf_clock", nil, "-i")
	st, err := hackrfcli.ParseClock([]byte(out), []byte(errs), code)
	var fe *hackrfcli.FirmwareError
	if st != hackrfcli.ClockUnknown || code != 1 || !errors.As(err, &fe) || fe.NeedAPI != apiVersion {
		t.Errorf("clock -i: %v, exit %d, %T %v", st, code, err, err)
	}
	if out, errs, code := run(t, "oldfw", "hackrf_clock", nil, "-o", "1"); code != 0 || out != "" || errs != "" {
		t.Errorf("clock -o 1: exit %d stdout %q stderr %q", code, out, errs)
	}
	// nodevice wins: the device is opened before it is asked anything.
	if out, _, code := run(t, "oldfw,nodevice", "hackrf_clock", nil, "-i"); code != 1 || out != openNotFound {
		t.Errorf("oldfw,nodevice: exit %d stdout %q", code, out)
	}
}

func TestClockRegisterDumpRefused(t *testing.T) {
	_, errs, code := run(t, "", "hackrf_clock", nil, "-r", "3")
	if code != 1 || !strings.HasPrefix(errs, "hacksim: ") {
		t.Errorf("exit %d stderr %q", code, errs)
	}
	// nodevice wins over the refusal, as the real open comes first.
	out, _, code := run(t, "nodevice", "hackrf_clock", nil, "-a")
	if code != 1 || out != openNotFound {
		t.Errorf("exit %d stdout %q", code, out)
	}
}

func TestMainRejects(t *testing.T) {
	marker := hackrfcli.SimulatorMarker + "\n"
	tests := []struct {
		sim, tool string
		code      int
		stderr    string
		stdout    string
	}{
		{"nodevice,typo", "hackrf_info", 2, `unknown mode "typo"`, marker},
		{"stall,exit1", "hackrf_transfer", 2, marker + "hacksim: ", ""},
		{"", "hackrf_sweep", 2, marker + "hacksim: ", ""},
	}
	for _, tt := range tests {
		var out, errb strings.Builder
		code := Main(tt.tool, nil, envWith(tt.sim), &out, &errb)
		if code != tt.code || !strings.Contains(errb.String(), tt.stderr) || out.String() != tt.stdout {
			t.Errorf("%s %s: exit %d stderr %q stdout %q", tt.sim, tt.tool, code, errb.String(), out.String())
		}
	}
}

func TestToolName(t *testing.T) {
	tests := []struct{ argv0, want string }{
		{"hackrf_info", "hackrf_info"},
		{"/tmp/bin/hackrf_transfer", "hackrf_transfer"},
		{"./hackrf_clock", "hackrf_clock"},
		{"hackrf_clock.exe", "hackrf_clock"},
		{"hackrf_info.EXE", "hackrf_info"},
		{"hackrf_transfer.Exe", "hackrf_transfer"},
		{`C:\tools\hackrf_transfer.exe`, "hackrf_transfer"},
		{`C:\Program Files\HackRF\hackrf_info.EXE`, "hackrf_info"},
		{`\\server\share\hackrf_clock`, "hackrf_clock"},
		{`C:/tools/hackrf_clock.exe`, "hackrf_clock"},
		{`C:\tools/mixed\hackrf_info.exe`, "hackrf_info"},
		{".exe", ".exe"}, // no name before the suffix: left alone
		{"hackrf_info.exe.exe", "hackrf_info.exe"},
		{"hackrf_info.txt", "hackrf_info.txt"},
		{`C:\tools\`, ""},
		{"", ""},
	}
	for _, tt := range tests {
		if got := toolName(tt.argv0); got != tt.want {
			t.Errorf("toolName(%q) = %q, want %q", tt.argv0, got, tt.want)
		}
	}
}

func TestIsTool(t *testing.T) {
	for name, want := range map[string]bool{
		"hackrf_info": true, "/tmp/bin/hackrf_transfer": true, "hackrf_clock.exe": true,
		`C:\tools\hackrf_transfer.exe`: true, "hackrf_info.EXE": true, `D:\sdr\HACKRF_INFO.EXE`: false,
		"rfhandoff": false, "hackrf_sweep": false, "hackrf_sweep.exe": false, `C:\tools\rfhandoff.exe`: false, "": false,
	} {
		if IsTool(name) != want {
			t.Errorf("IsTool(%q) = %v", name, !want)
		}
	}
}

// TestMainWindowsArgv0: a copy run as C:\tools\hackrf_info.exe answers
// exactly like hackrf_info.
func TestMainWindowsArgv0(t *testing.T) {
	wantOut, wantErr, wantCode := transcript(t, "info/debian-one-board.txtar")
	wantOut = hackrfcli.SimulatorMarker + "\n" + wantOut
	for _, argv0 := range []string{`C:\tools\hackrf_info.exe`, "hackrf_info.EXE"} {
		var out, errb strings.Builder
		code := Main(argv0, nil, envWith(""), &out, &errb)
		if out.String() != wantOut || errb.String() != wantErr || code != wantCode {
			t.Errorf("%s: exit %d stdout %q stderr %q", argv0, code, out.String(), errb.String())
		}
	}
}

// TestMainSaysItIsTheSimulator: every run of every tool prints the marker
// once, as its first line, on the stream where the real tool prints its
// results (stdout for hackrf_info and hackrf_clock, stderr for
// hackrf_transfer), and nothing else differs (TestMatchesReferenceTranscripts).
func TestMainSaysItIsTheSimulator(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		sim, tool string
		args      []string
		onStdout  bool
	}{
		{"", "hackrf_info", nil, true},
		{"nodevice", "hackrf_info", nil, true},
		{"oldfw", "hackrf_info", []string{"-h"}, true},
		{"", "hackrf_clock", []string{"-i"}, true},
		{"noclock", "hackrf_clock", []string{"-i"}, true},
		{"", "hackrf_clock", nil, true},
		{"", "hackrf_transfer", []string{"-h"}, false},
		{"nodevice", "hackrf_transfer", strings.Fields("-r x.iq -f 433920000 -s 2000000 -n 4000000"), false},
		{"fast", "hackrf_transfer", []string{"-r", filepath.Join(dir, "a.ci8"), "-s", "2000000", "-n", "300000"}, false},
		{"fast", "hackrf_transfer", []string{"-r", "-", "-s", "2000000", "-n", "1000"}, false},
		{"", "/opt/sim/hackrf_transfer", []string{"-Z"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.tool+" "+tt.sim+" "+strings.Join(tt.args, " "), func(t *testing.T) {
			t.Chdir(t.TempDir())
			var out, errb strings.Builder
			Main(tt.tool, tt.args, envWith(tt.sim), &out, &errb)
			marked, other := out.String(), errb.String()
			if !tt.onStdout {
				marked, other = other, marked
			}
			if !strings.HasPrefix(marked, hackrfcli.SimulatorMarker+"\n") {
				t.Errorf("the marker is not the first line:\n%.300s", marked)
			}
			if n := strings.Count(marked+other, hackrfcli.SimulatorMarker); n != 1 {
				t.Errorf("the marker appears %d times", n)
			}
		})
	}
}
