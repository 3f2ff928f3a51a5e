package hackrfcli

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestParseInfoTranscripts(t *testing.T) {
	type want struct {
		tool, lib, abi string
		boards         int
		err            error // errors.Is target; nil means success
		errType        any   // pointer to a typed error for errors.As
		check          func(t *testing.T, in Info)
	}
	tests := map[string]want{
		"info/debian-nodevice.txtar":   {tool: "2022.09.1", lib: "2022.09.1", abi: "0.7", err: ErrNoDevice, errType: new(*noDeviceError)},
		"info/upstream-nodevice.txtar": {tool: "2026.01.3", lib: "2026.01.3", abi: "0.9.2", err: ErrNoDevice},
		"info/debian-one-board.txtar": {tool: "2022.09.1", lib: "2022.09.1", abi: "0.7", boards: 1, check: func(t *testing.T, in Info) {
			b := in.Boards[0]
			wantBoard(t, b, Board{Index: 0, Serial: "0000000000000000a06063c8233e1a5f", BoardID: 2, BoardName: "HackRF One",
				FirmwareVersion: "2022.09.1", APIVersion: "1.06", PartID: "0xa000cb3c 0x00574f5b", HardwareRevision: "r8"})
			if b.MadeByGSG == nil || !*b.MadeByGSG {
				t.Errorf("MadeByGSG = %v, want true", b.MadeByGSG)
			}
			if !slices.Equal(b.Platforms, []string{"HackRF One"}) {
				t.Errorf("Platforms = %q", b.Platforms)
			}
			if b.OtherDevicesOnBus != nil {
				t.Errorf("OtherDevicesOnBus = %d, want nil (2022.09.1 does not print it)", *b.OtherDevicesOnBus)
			}
			if len(b.Extra)+len(in.Extra) != 0 {
				t.Errorf("unparsed lines: %q %q", b.Extra, in.Extra)
			}
		}},
		"info/debian-two-boards.txtar": {tool: "2022.09.1", lib: "2022.09.1", abi: "0.7", boards: 2, check: func(t *testing.T, in Info) {
			if in.Boards[1].Index != 1 || in.Boards[1].BoardID != 4 || in.Boards[1].HardwareRevision != "r9" {
				t.Errorf("second board = %+v", in.Boards[1])
			}
			if !slices.Equal(in.Boards[1].OperaCakes, []int{0}) {
				t.Errorf("OperaCakes = %v", in.Boards[1].OperaCakes)
			}
			if b, ok := in.Find("2a7f1e33"); !ok || b.Index != 1 {
				t.Errorf("Find(suffix) = %+v, %v; want board 1", b, ok)
			}
			if b, ok := in.Find(""); !ok || b.Index != 0 {
				t.Errorf("Find(\"\") = %+v, %v; want board 0", b, ok)
			}
			if _, ok := in.Find("ffff"); ok {
				t.Error("Find(ffff) found a board")
			}
		}},
		"info/debian-old-firmware.txtar": {tool: "2022.09.1", lib: "2022.09.1", abi: "0.7", boards: 1, check: func(t *testing.T, in Info) {
			b := in.Boards[0]
			if b.APIVersion != "1.04" || b.HardwareRevision != "" || b.Platforms != nil || b.MadeByGSG != nil {
				t.Errorf("old firmware board = %+v", b)
			}
		}},
		"info/debian-busy.txtar": {tool: "2022.09.1", lib: "2022.09.1", abi: "0.7", boards: 1, err: errBusy, errType: new(*callError),
			check: func(t *testing.T, in Info) {
				if in.Boards[0].Opened() {
					t.Error("a board that failed to open reads as opened")
				}
				if len(in.Failures) != 1 || in.Failures[0].Call != "hackrf_open" || in.Failures[0].Code != -1000 {
					t.Errorf("Failures = %+v", in.Failures)
				}
			}},
		"info/debian-board-id-failed.txtar": {tool: "2022.09.1", lib: "2022.09.1", abi: "0.7", boards: 1, errType: new(*callError)},
		"info/upstream-one-board.txtar": {tool: "2026.01.3", lib: "2026.01.3", abi: "0.9.2", boards: 1, check: func(t *testing.T, in Info) {
			b := in.Boards[0]
			wantBoard(t, b, Board{Index: 0, Serial: "000000000000000057b068dc2a7f1e33", BoardID: 4, BoardName: "HackRF One",
				FirmwareVersion: "2026.01.3", APIVersion: "1.10", PartID: "0xa000cb3c 0x0063475b", HardwareRevision: "r9"})
			if b.OtherDevicesOnBus == nil || *b.OtherDevicesOnBus != 0 {
				t.Errorf("OtherDevicesOnBus = %v, want 0", b.OtherDevicesOnBus)
			}
		}},
		"info/upstream-shared-bus-selftest.txtar": {tool: "git-8dbb3475", lib: "git-8dbb3475", abi: "0.10.0", boards: 1, check: func(t *testing.T, in Info) {
			b := in.Boards[0]
			if b.BoardName != "HackRF Pro" || b.HardwareRevision != "r1.2" {
				t.Errorf("board = %+v", b)
			}
			if !slices.Equal(b.Platforms, []string{"HackRF One", "HackRF Pro"}) {
				t.Errorf("Platforms = %q", b.Platforms)
			}
			if b.OtherDevicesOnBus == nil || *b.OtherDevicesOnBus != 2 {
				t.Errorf("OtherDevicesOnBus = %v, want 2", b.OtherDevicesOnBus)
			}
			wantMsgs := []string{"Self-test FAIL:", "RFFC5072 not responding", "You may have problems at high sample rates."}
			if !slices.Equal(b.Messages, wantMsgs) {
				t.Errorf("Messages = %q, want %q", b.Messages, wantMsgs)
			}
		}},
	}
	tested := map[string]bool{}
	for name, w := range tests {
		tested[name] = true
		t.Run(name, func(t *testing.T) {
			tr := loadTranscript(t, name)
			in, err := ParseInfo(tr.Stdout, tr.Stderr, tr.ExitCode)
			if in.ToolVersion != w.tool || in.LibVersion != w.lib || in.LibABI != w.abi {
				t.Errorf("versions = %q %q (%q), want %q %q (%q)", in.ToolVersion, in.LibVersion, in.LibABI, w.tool, w.lib, w.abi)
			}
			if len(in.Boards) != w.boards {
				t.Fatalf("%d boards, want %d: %+v", len(in.Boards), w.boards, in.Boards)
			}
			switch {
			case w.err == nil && w.errType == nil && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case w.err != nil && !errors.Is(err, w.err):
				t.Fatalf("error %v, want errors.Is %v", err, w.err)
			case w.errType != nil && !errors.As(err, w.errType):
				t.Fatalf("error %T (%v), want %T", err, err, w.errType)
			}
			if w.check != nil {
				w.check(t, in)
			}
		})
	}
	checkCoverage(t, "info", tested)
}

func wantBoard(t *testing.T, got, want Board) {
	t.Helper()
	if got.Index != want.Index || got.Serial != want.Serial || got.BoardID != want.BoardID ||
		got.BoardName != want.BoardName || got.FirmwareVersion != want.FirmwareVersion ||
		got.APIVersion != want.APIVersion || got.PartID != want.PartID || got.HardwareRevision != want.HardwareRevision {
		t.Errorf("board = %+v\nwant    %+v", got, want)
	}
	if !got.Opened() {
		t.Error("Opened() = false")
	}
}

func TestParseInfoOddOutput(t *testing.T) {
	tests := []struct {
		name           string
		stdout, stderr string
		exit           int
		errType        any    // for errors.As, or
		unexpected     string // the start of an unexpected-output error
	}{
		{"empty exit 0", "", "", 0, nil, "hackrf_info: unexpected output (exit status 0): "},
		{"versions only exit 0", "hackrf_info version: 2022.09.1\nlibhackrf version: 2022.09.1 (0.7)\n", "", 0, nil, "hackrf_info: unexpected output (exit status 0): "},
		{"killed", "hackrf_info version: 2022.09.1\n", "", -1, nil, "hackrf_info: unexpected output (exit status -1): "},
		{"exit 1 unknown", "hackrf_info version: 2022.09.1\nsomething else\n", "boom\n", 1, nil, "hackrf_info: unexpected output (exit status 1): "},
		{"no device despite exit 0", "hackrf_info version: 2022.09.1\nNo HackRF boards found.\n", "", 0, new(*noDeviceError), ""},
		{"init failed", "hackrf_info version: 2022.09.1\nlibhackrf version: 2022.09.1 (0.7)\n", "hackrf_init() failed: USB error (-1000)\n", 1, new(*callError), ""},
		{"board without a name", "hackrf_info version: x\nFound HackRF\nIndex: 0\n", "", 0, nil, "hackrf_info: unexpected output (exit status 0): "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseInfo([]byte(tt.stdout), []byte(tt.stderr), tt.exit)
			if tt.errType != nil && !errors.As(err, tt.errType) {
				t.Fatalf("error %T (%v), want %T", err, err, tt.errType)
			}
			if tt.unexpected != "" && (err == nil || !strings.HasPrefix(err.Error(), tt.unexpected)) {
				t.Fatalf("error %v, want one starting %q", err, tt.unexpected)
			}
		})
	}
}

func TestParseInfoCRLFAndUnknownLines(t *testing.T) {
	out := "hackrf_info version: 2022.09.1\r\nlibhackrf version: 2022.09.1 (0.7)\r\nFound HackRF\r\nIndex: 0\r\n" +
		"Board ID Number: 2 (HackRF One)\r\nFirmware Version: 2022.09.1 (API:1.06)\r\nSomething new: 42\r\n"
	in, err := ParseInfo([]byte(out), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	if in.ToolVersion != "2022.09.1" || in.Boards[0].FirmwareVersion != "2022.09.1" {
		t.Errorf("CRLF not handled: %+v", in)
	}
	if !slices.Equal(in.Boards[0].Extra, []string{"Something new: 42"}) {
		t.Errorf("Extra = %q", in.Boards[0].Extra)
	}
}

func TestCallErrorIs(t *testing.T) {
	tests := []struct {
		line           string
		noDevice, busy bool
	}{
		{"hackrf_open() failed: HackRF not found (-5)", true, false},
		{"hackrf_open() failed: HackRF busy (-6)", false, true},
		{"hackrf_open() failed: Resource busy (-1000)", false, true},
		{"hackrf_open() failed: Access denied (insufficient permissions) (-1000)", false, false},
	}
	for _, tt := range tests {
		ce, ok := parseCallFailed("hackrf_transfer", tt.line)
		if !ok {
			t.Fatalf("%q not parsed", tt.line)
		}
		if errors.Is(ce, ErrNoDevice) != tt.noDevice || errors.Is(ce, errBusy) != tt.busy {
			t.Errorf("%q: Is(ErrNoDevice)=%v Is(ErrBusy)=%v", tt.line, errors.Is(ce, ErrNoDevice), errors.Is(ce, errBusy))
		}
	}
	ce, _ := parseCallFailed("hackrf_transfer", "hackrf_stop_rx() failed: No such device (it may have been disconnected) (-1000)")
	if ce.Text != "No such device (it may have been disconnected)" || ce.Code != -1000 {
		t.Errorf("nested parentheses: %+v", ce)
	}
}
