package task

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"rfhandoff/gate"
)

const testHead = "0123456789abcdef0123456789abcdef01234567"

func spec(mod func(*Spec)) Spec {
	s := Spec{ID: "RX_CAPTURE_001", Title: "Bounded receive", SourceBranch: testBranch,
		ExpectedHead: testHead, RequiresApproval: true, AllowPush: PushNo, Body: "## Goal\n\nReceive.\n"}
	if mod != nil {
		mod(&s)
	}
	return s
}

func TestBuildLevels(t *testing.T) {
	tests := []struct {
		name     string
		mod      func(*Spec)
		level    gate.Level
		approval string
	}{
		{"nothing is GREEN", nil, gate.Green, "A"},
		{"RF RX is YELLOW", func(s *Spec) { s.HardwareAccess, s.RFRX = true, true }, gate.Yellow, "A"},
		{"push is YELLOW", func(s *Spec) { s.AllowPush = PushRXResultOnly }, gate.Yellow, "A"},
		{"RF TX is RED with the TX phrase", func(s *Spec) { s.HardwareAccess, s.RFTX = true, true }, gate.Red,
			`A, then exactly "AUTHORIZE RF TX"`},
		{"a higher level is kept", func(s *Spec) { s.Level = gate.Red }, gate.Red, `A, then exactly "AUTHORIZE RX_CAPTURE_001"`},
		{"GREEN may need no approval", func(s *Spec) { s.RequiresApproval = false }, gate.Green, "A"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := spec(tt.mod)
			data, tk, err := Build(s, testOpts)
			if err != nil {
				t.Fatal(err)
			}
			if tk.EffectiveLevel != tt.level || tk.DeclaredLevel != tt.level {
				t.Errorf("level: declared %s, effective %s; want %s", tk.DeclaredLevel, tk.EffectiveLevel, tt.level)
			}
			if got := gate.DescribeApproval(tk.EffectiveLevel, tk.RFTX, tk.ID); got != tt.approval {
				t.Errorf("approval %q, want %q", got, tt.approval)
			}
			// The bytes are what the RX side parses, digest included.
			again := mustParse(t, string(data), testOpts)
			if !reflect.DeepEqual(again, tk) || tk.SHA256 != Digest(data) {
				t.Errorf("Build's task differs from Parse of its bytes")
			}
			if !strings.HasSuffix(string(data), "\n\n"+s.Body) {
				t.Errorf("body not after a blank line: %q", data)
			}
		})
	}
}

// TestBuildRefusals: every reason at once, each naming its field, from the
// same rules the RX side applies.
func TestBuildRefusals(t *testing.T) {
	tests := []struct {
		name string
		mod  func(*Spec)
		opts Options
		want []prob
	}{
		{"lowered level", func(s *Spec) { s.RFTX, s.HardwareAccess, s.Level = true, true, gate.Yellow }, testOpts,
			[]prob{{kindConflict, FieldRiskLevel, 11}}},
		{"no approval above GREEN", func(s *Spec) { s.RFRX, s.HardwareAccess, s.RequiresApproval = true, true, false }, testOpts,
			[]prob{{kindConflict, FieldRequiresApproval, 5}}},
		{"RF without hardware", func(s *Spec) { s.RFRX = true }, testOpts,
			[]prob{{kindConflict, FieldHardwareAccess, 6}}},
		{"control character in the title", func(s *Spec) { s.Title = "bad \x1b[31m title" }, testOpts,
			[]prob{{kindControl, FieldTitle, 2}}},
		{"line break in the title, bad ID and branch too", func(s *Spec) {
			s.Title, s.ID, s.SourceBranch = "one\nRF_TX = YES", "lower", "other"
		}, testOpts,
			[]prob{{kindInvalid, FieldTaskID, 1}, {kindInvalid, FieldTitle, 2}, {kindInvalid, FieldSourceBranch, 3}}},
		{"title with a trailing space", func(s *Spec) { s.Title = "x " }, testOpts,
			[]prob{{kindInvalid, FieldTitle, 2}}},
		{"short head", func(s *Spec) { s.ExpectedHead = "0123456" }, testOpts,
			[]prob{{kindInvalid, FieldExpectedHead, 4}}},
		{"too large", func(s *Spec) { s.Body = strings.Repeat("x", 2000) }, Options{TaskBranch: testBranch, MaxBytes: 1024},
			[]prob{{kindTooLarge, "", 0}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data, tk, err := Build(spec(tt.mod), tt.opts)
			if err == nil || data != nil || tk != nil {
				t.Fatalf("Build = %q, %v, %v; want refused", data, tk, err)
			}
			var ie *InvalidError
			if !errors.As(err, &ie) {
				t.Fatalf("%T %v, want *InvalidError", err, err)
			}
			var got []prob
			for _, p := range ie.Problems() {
				got = append(got, prob{p.Kind, p.Field, p.Line})
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("problems:\n got  %v\n want %v\n%v", got, tt.want, err)
			}
			if strings.ContainsAny(err.Error(), "\x1b\r") {
				t.Errorf("message holds a raw control character: %q", err)
			}
		})
	}
}

func TestDefaultBodySaysWhatIsAllowed(t *testing.T) {
	s := spec(func(s *Spec) { s.HardwareAccess, s.RFTX, s.AllowPush = true, true, PushRXResultOnly })
	body := DefaultBody(s)
	for _, want := range []string{"HARDWARE_ACCESS = YES", "RF_RX = NO", "RF_TX = YES", "AUTHORIZE RF TX",
		"ALLOW_COMMIT = NO", "ALLOW_PUSH = RX_RESULT_ONLY"} {
		if !strings.Contains(body, want) {
			t.Errorf("default body lacks %q:\n%s", want, body)
		}
	}
	s.Body = body
	if _, _, err := Build(s, testOpts); err != nil {
		t.Errorf("the default body does not pass the parser: %v", err)
	}
}

func TestPeekIDs(t *testing.T) {
	tests := []struct {
		name string
		data string
		want []string
	}{
		{"valid", hdr(nil) + "\nbody TASK_ID = NOT_THIS\n", []string{"RF001A_OTA_CAPTURE_002"}},
		{"invalid otherwise", "\xef\xbb\xbf\r\nTASK_ID = OLD_ONE\r\nRISK_LEVEL = PURPLE\r\n", []string{"OLD_ONE"}},
		{"text before the header", "# notes\nTASK_ID=A_1\n", []string{"A_1"}},
		{"twice", "TASK_ID = A_1\n task_id = A_2\n", []string{"A_1", "A_2"}},
		{"only in the body", "TASK_TITLE = x\n\nTASK_ID = B_1\n", nil},
		{"empty", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := PeekIDs([]byte(tt.data)); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("PeekIDs = %q, want %q", got, tt.want)
			}
		})
	}
}
