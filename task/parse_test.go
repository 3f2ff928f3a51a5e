package task

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strings"
	"testing"

	"github.com/hashicorp/go-multierror"

	"rfhandoff/gate"
	"rfhandoff/hiddentext"
)

func TestParseValidBase(t *testing.T) {
	data := hdr(nil) + "\n## Goal\n\nCapture.\n"
	tk := mustParse(t, data, testOpts)
	want := Task{
		ID:               "RF001A_OTA_CAPTURE_002",
		Title:            "Start coordinated RF-001A common-clock OTA capture",
		SourceBranch:     testBranch,
		ExpectedHead:     "0123456789abcdef0123456789abcdef01234567",
		RequiresApproval: true,
		HardwareAccess:   true,
		RFRX:             true,
		AllowPush:        PushRXResultOnly,
		DeclaredLevel:    gate.Yellow,
		DerivedLevel:     gate.Yellow,
		EffectiveLevel:   gate.Yellow,
		Body:             "## Goal\n\nCapture.\n",
		SHA256:           sha256hex(data),
	}
	if *tk != want {
		t.Errorf("got  %+v\nwant %+v", *tk, want)
	}
	if p, need := tk.ApprovalPhrase(); need || p != "" {
		t.Errorf("YELLOW needs a phrase: %q", p)
	}
}

func sha256hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// TestParseValidForms covers the accepted spellings of the same header.
func TestParseValidForms(t *testing.T) {
	base := hdr(nil)
	tests := []struct {
		name, data, body string
	}{
		{"minimal, no body", base, ""},
		{"no trailing newline", strings.TrimSuffix(base, "\n"), ""},
		{"BOM", "\xef\xbb\xbf" + base + "\nbody\n", "body\n"},
		// The body is kept as written; its line endings are the sanitizer's
		// (PROTOCOL#hidden-text), so that a CR before a CRLF is not lost.
		{"CRLF", strings.ReplaceAll(base+"\nbody\nmore\n", "\n", "\r\n"), "body\r\nmore\r\n"},
		{"BOM and CRLF", "\xef\xbb\xbf" + strings.ReplaceAll(base+"\nbody\n", "\n", "\r\n"), "body\r\n"},
		{"CR CR LF in the body", base + "\nbody\r\r\n", "body\r\r\n"},
		{"leading spaces and tabs", indent(base, " \t  "), ""},
		{"no spaces around =", strings.ReplaceAll(base, " = ", "="), ""},
		{"uneven spacing", strings.ReplaceAll(base, " = ", "\t=   "), ""},
		{"trailing whitespace", strings.ReplaceAll(base, "\n", " \t\n"), ""},
		{"leading blank lines", "\n  \n\t\n" + base + "\nbody\n", "body\n"},
		{"whitespace-only line ends header", base + " \t\nTASK_ID = NOT_HEADER\n", "TASK_ID = NOT_HEADER\n"},
		{"body may repeat fields", base + "\nRF_TX = YES\nFOO = BAR\n", "RF_TX = YES\nFOO = BAR\n"},
		{"body may hold escapes", base + "\nred \x1b[31m text \x00\xff\n", "red \x1b[31m text \x00\xff\n"},
		{"fields in any order", reverseLines(base), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tk := mustParse(t, tt.data, testOpts)
			if tk.ID != "RF001A_OTA_CAPTURE_002" || tk.Title != "Start coordinated RF-001A common-clock OTA capture" ||
				tk.EffectiveLevel != gate.Yellow || !tk.RFRX || tk.AllowPush != PushRXResultOnly {
				t.Errorf("fields: %+v", tk)
			}
			if tk.Body != tt.body {
				t.Errorf("body = %q, want %q", tk.Body, tt.body)
			}
			if tk.SHA256 != sha256hex(tt.data) {
				t.Errorf("digest is not of the exact bytes")
			}
		})
	}
}

func indent(s, prefix string) string {
	lines := strings.SplitAfter(s, "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = prefix + l
		}
	}
	return strings.Join(lines, "")
}

func reverseLines(s string) string {
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	for i, j := 0, len(lines)-1; i < j; i, j = i+1, j-1 {
		lines[i], lines[j] = lines[j], lines[i]
	}
	return strings.Join(lines, "\n") + "\n"
}

func TestParseValidValues(t *testing.T) {
	tests := []struct {
		name  string
		over  map[string]string
		check func(*Task) bool
	}{
		{"title with =", map[string]string{FieldTitle: "a = b == c"}, func(tk *Task) bool { return tk.Title == "a = b == c" }},
		{"title 1 char", map[string]string{FieldTitle: "x"}, func(tk *Task) bool { return tk.Title == "x" }},
		{"title 200 ASCII", map[string]string{FieldTitle: strings.Repeat("a", 200)}, func(tk *Task) bool { return len(tk.Title) == 200 }},
		{"title 200 multibyte", map[string]string{FieldTitle: strings.Repeat("é", 200)}, func(tk *Task) bool { return len(tk.Title) == 400 }},
		{"title inner spaces kept", map[string]string{FieldTitle: "a  b"}, func(tk *Task) bool { return tk.Title == "a  b" }},
		{"title unicode", map[string]string{FieldTitle: "Empfang 433,92 MHz – Ω ✓"}, func(tk *Task) bool { return tk.Title == "Empfang 433,92 MHz – Ω ✓" }},
		{"TASK_ID 3 chars", map[string]string{FieldTaskID: "A_1"}, func(tk *Task) bool { return tk.ID == "A_1" }},
		{"TASK_ID 64 chars", map[string]string{FieldTaskID: "9" + strings.Repeat("_", 63)}, func(tk *Task) bool { return len(tk.ID) == 64 }},
		{"ALLOW_PUSH NO", map[string]string{FieldAllowPush: "NO"}, func(tk *Task) bool { return tk.AllowPush == PushNo }},
		{"declared higher kept", map[string]string{FieldRiskLevel: "RED"}, func(tk *Task) bool {
			p, need := tk.ApprovalPhrase()
			return tk.DerivedLevel == gate.Yellow && tk.EffectiveLevel == gate.Red && need && p == "AUTHORIZE RF001A_OTA_CAPTURE_002"
		}},
		{"RF TX task", map[string]string{FieldRFTX: "YES", FieldRiskLevel: "RED"}, func(tk *Task) bool {
			p, need := tk.ApprovalPhrase()
			return tk.EffectiveLevel == gate.Red && need && p == gate.TXPhrase
		}},
		{"GREEN without approval", map[string]string{FieldHardwareAccess: "NO", FieldRFRX: "NO", FieldAllowPush: "NO",
			FieldRiskLevel: "GREEN", FieldRequiresApproval: "NO"}, func(tk *Task) bool {
			return !tk.RequiresApproval && tk.EffectiveLevel == gate.Green
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tk := mustParse(t, hdr(tt.over), testOpts)
			if !tt.check(tk) {
				t.Errorf("unexpected task %+v", tk)
			}
		})
	}
}

func TestParseEachMissingField(t *testing.T) {
	for _, f := range fields {
		t.Run(f, func(t *testing.T) {
			// Keep the remaining header consistent so only "missing" is reported.
			over := map[string]string{f: del}
			if f == FieldHardwareAccess {
				over[FieldRFRX] = "NO"
			}
			wantProblems(t, hdr(over), testOpts, prob{kindMissing, f, 0})
		})
	}
}

func TestParseAllMissingTogether(t *testing.T) {
	got := problems(t, "TASK_ID = ABC_1\n", testOpts)
	if len(got) != len(fields)-1 {
		t.Fatalf("got %d problems, want %d: %v", len(got), len(fields)-1, got)
	}
	for i, p := range got {
		if p.Kind != kindMissing || p.Field != fields[i+1] {
			t.Errorf("problem %d = %v", i, p)
		}
	}
}

func TestParseNoHeader(t *testing.T) {
	for _, data := range []string{"", "\n\n  \n", "\xef\xbb\xbf"} {
		wantProblems(t, data, testOpts, prob{kindNoHeader, "", 0})
	}
	wantProblems(t, "# Task\n\nSome prose.\n", testOpts, prob{kindPreHeader, "", 1}, prob{kindNoHeader, "", 0})
}

func TestParsePreHeaderText(t *testing.T) {
	// Reported once, at its first line; the header after it is still checked.
	wantProblems(t, "\n# NEXT RX TASK\nmore prose\n\n"+hdr(nil), testOpts, prob{kindPreHeader, "", 2})
	wantProblems(t, "\x1b[2J\n"+hdr(map[string]string{FieldRFTX: "MAYBE"}), testOpts,
		prob{kindPreHeader, "", 1}, prob{kindInvalid, FieldRFTX, 9})
}

func TestParseDuplicate(t *testing.T) {
	data := hdr(nil) // put a second RF_TX right after the first line
	data = strings.Replace(data, "\n", "\nRF_TX = NO\n", 1)
	wantProblems(t, data, testOpts, prob{kindDuplicate, FieldRFTX, 9})

	// The same field three times with the same value: each repeat reported.
	data = hdr(nil) + "" // header ends at EOF; append repeats
	data += "RISK_LEVEL = YELLOW\nRISK_LEVEL=YELLOW\n"
	wantProblems(t, data, testOpts,
		prob{kindDuplicate, FieldRiskLevel, 12}, prob{kindDuplicate, FieldRiskLevel, 13})
}

func TestParseUnknownAndMalformed(t *testing.T) {
	tests := []struct {
		name  string
		extra string
		want  prob
	}{
		{"unknown", "PRIORITY = HIGH", prob{kindUnknown, "PRIORITY", 12}},
		{"lowercase known name", "task_id = RF001A_OTA_CAPTURE_002", prob{kindUnknown, "task_id", 12}},
		{"empty value unknown", "NOTE =", prob{kindUnknown, "NOTE", 12}},
		{"no equals", "JUST A LINE", prob{kindMalformed, "", 12}},
		{"markdown heading", "# Heading", prob{kindMalformed, "", 12}},
		{"empty key", " = value", prob{kindMalformed, "", 12}},
		{"key with hyphen", "TASK-ID = X", prob{kindMalformed, "", 12}},
		{"key with space", "TASK ID = X", prob{kindMalformed, "", 12}},
		{"key starting with digit", "1FIELD = X", prob{kindMalformed, "", 12}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wantProblems(t, hdr(nil)+tt.extra+"\n", testOpts, tt.want)
		})
	}
	_, err := Parse([]byte(hdr(nil)+"task_id = X\n"), testOpts)
	var fe *fieldError
	if !errors.As(err, &fe) || !strings.Contains(fe.Msg, "upper case") {
		t.Errorf("lowercase field name gets no hint: %v", err)
	}
}

func TestParseInvalidValues(t *testing.T) {
	bad := map[string][]string{
		FieldTaskID: {"", "ab", "AB", "rf001", "_ABC", "ABC-1", "ABC 1", "ÄBC", "A" + strings.Repeat("B", 64),
			"ABC.1", "ABC/1"},
		FieldTitle: {"", strings.Repeat("a", 201), strings.Repeat("é", 201), "tab\there", "nbsp\u00a0here",
			"bidi \u202e override", "zero\u200bwidth", "bom\ufeffinside", "line\u2028sep"},
		FieldSourceBranch: {"", "main", "video-development2", "Video-Development", "video-development/x",
			"refs/heads/video-development"},
		FieldExpectedHead: {"", "DEADBEEFDEADBEEFDEADBEEFDEADBEEFDEADBEEF", "0123456789abcdef0123456789abcdef0123456",
			"0123456789abcdef0123456789abcdef012345678", "g123456789abcdef0123456789abcdef01234567", "HEAD",
			"0123456789abcdef0123456789abcdef0123456 "[:39] + "x"},
		FieldRequiresApproval: {"", "yes", "Yes", "Y", "TRUE", "1", "YES YES"},
		FieldHardwareAccess:   {"", "no", "N", "FALSE", "0"},
		FieldRFRX:             {"", "yes", "MAYBE"},
		FieldRFTX:             {"", "no", "OFF"},
		FieldAllowCommit:      {"", "nO", "NONE"},
		FieldAllowPush:        {"", "YES", "rx_result_only", "RX_RESULT", "RX_RESULTS_ONLY", "ALL"},
		FieldRiskLevel:        {"", "yellow", "ORANGE", "GREEN+", "0"},
	}
	for _, f := range fields {
		for _, v := range bad[f] {
			t.Run(f+"="+v, func(t *testing.T) {
				over := map[string]string{f: v}
				// Keep cross-field rules satisfied whatever is being broken.
				if f == FieldHardwareAccess {
					over[FieldRFRX] = "NO"
				}
				wantProblems(t, hdr(over), testOpts, prob{kindInvalid, f, lineOf(f)})
			})
		}
		if len(bad[f]) == 0 {
			t.Errorf("no invalid values listed for %s", f)
		}
	}
}

func TestParseSourceBranchWithoutConfig(t *testing.T) {
	for _, v := range []string{"video-development", "feature/rx-2", "v1.2_x", "A"} {
		tk := mustParse(t, hdr(map[string]string{FieldSourceBranch: v}), Options{})
		if tk.SourceBranch != v {
			t.Errorf("SourceBranch = %q, want %q", tk.SourceBranch, v)
		}
	}
	for _, v := range []string{"", "-x", ".hidden", "a..b", "a b", "a~1", "a^", "a:b", "/abs", strings.Repeat("a", 101)} {
		wantProblems(t, hdr(map[string]string{FieldSourceBranch: v}), Options{},
			prob{kindInvalid, FieldSourceBranch, lineOf(FieldSourceBranch)})
	}
}

func TestParseControlAndEncoding(t *testing.T) {
	title := lineOf(FieldTitle)
	tests := []struct {
		name, value string
		kind        Kind
	}{
		{"ESC sequence", "red \x1b[31mtext\x1b[0m", kindControl},
		{"OSC title set", "\x1b]0;pwned\x07", kindControl},
		{"NUL", "a\x00b", kindControl},
		{"BEL", "ding\x07", kindControl},
		{"backspace", "abc\b\b\bxyz", kindControl},
		{"lone CR", "shown\rhidden", kindControl},
		{"DEL", "a\x7fb", kindControl},
		{"C1 CSI", "a\u009b31mb", kindControl},
		{"C1 NEL", "a\u0085b", kindControl},
		{"invalid UTF-8", "caf\xe9", kindEncoding},
		{"truncated UTF-8", "ab\xe2\x82", kindEncoding},
		{"overlong", "\xc0\xaf", kindEncoding},
		{"surrogate", "\xed\xa0\x80", kindEncoding},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := hdr(map[string]string{FieldTitle: tt.value})
			wantProblems(t, data, testOpts, prob{tt.kind, FieldTitle, title})
			_, err := Parse([]byte(data), testOpts)
			if bad := strings.IndexFunc(err.Error(), func(r rune) bool { return r != '\n' && hiddentext.Hidden(r) }); bad >= 0 {
				t.Errorf("error message carries a raw control character: %q", err.Error())
			}
		})
	}
	// Control characters are rejected in any header line, known field or not.
	wantProblems(t, hdr(map[string]string{FieldRFTX: "NO\x1b"}), testOpts, prob{kindControl, FieldRFTX, lineOf(FieldRFTX)})
	wantProblems(t, hdr(nil)+"X_NOTE = \x1b[2J\n", testOpts,
		prob{kindControl, "X_NOTE", 12}, prob{kindUnknown, "X_NOTE", 12})
	wantProblems(t, hdr(nil)+"RF_TX = \x00\n", testOpts,
		prob{kindControl, FieldRFTX, 12}, prob{kindDuplicate, FieldRFTX, 12})
	// A vertical tab or form feed is not blank: it does not end the header.
	wantProblems(t, hdr(nil)+"\f\n", testOpts, prob{kindMalformed, "", 12})
}

func TestParseSize(t *testing.T) {
	base := hdr(nil) + "\n"
	pad := func(n int) string { return base + strings.Repeat("x", n-len(base)) }

	if tk := mustParse(t, pad(DefaultMaxBytes), Options{TaskBranch: testBranch}); len(tk.Body) != DefaultMaxBytes-len(base) {
		t.Errorf("body length %d", len(tk.Body))
	}
	wantProblems(t, pad(DefaultMaxBytes+1), testOpts, prob{kindTooLarge, "", 0})

	small := Options{TaskBranch: testBranch, MaxBytes: int64(len(base) + 10)}
	mustParse(t, pad(len(base)+10), small)
	wantProblems(t, pad(len(base)+11), small, prob{kindTooLarge, "", 0})
	// The BOM counts: the limit is on the file's bytes.
	wantProblems(t, "\xef\xbb\xbf"+pad(len(base)+10), small, prob{kindTooLarge, "", 0})
	// Negative means the default, never "unlimited".
	wantProblems(t, pad(DefaultMaxBytes+1), Options{MaxBytes: -1}, prob{kindTooLarge, "", 0})
}

func TestParseDerivedLevels(t *testing.T) {
	tests := []struct {
		name               string
		hw, rx, tx, commit string
		push               string
		declared           string
		derived, effective gate.Level
	}{
		{"software only", "NO", "NO", "NO", "NO", "NO", "GREEN", gate.Green, gate.Green},
		{"hardware inventory", "YES", "NO", "NO", "NO", "NO", "YELLOW", gate.Yellow, gate.Yellow},
		{"rx", "YES", "YES", "NO", "NO", "NO", "YELLOW", gate.Yellow, gate.Yellow},
		{"commit", "NO", "NO", "NO", "YES", "NO", "YELLOW", gate.Yellow, gate.Yellow},
		{"result push", "NO", "NO", "NO", "NO", "RX_RESULT_ONLY", "YELLOW", gate.Yellow, gate.Yellow},
		{"tx", "YES", "NO", "YES", "NO", "NO", "RED", gate.Red, gate.Red},
		{"tx and rx", "YES", "YES", "YES", "YES", "RX_RESULT_ONLY", "RED", gate.Red, gate.Red},
		{"green declared yellow", "NO", "NO", "NO", "NO", "NO", "YELLOW", gate.Green, gate.Yellow},
		{"green declared red", "NO", "NO", "NO", "NO", "NO", "RED", gate.Green, gate.Red},
		{"yellow declared red", "YES", "YES", "NO", "NO", "NO", "RED", gate.Yellow, gate.Red},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tk := mustParse(t, hdr(map[string]string{
				FieldHardwareAccess: tt.hw, FieldRFRX: tt.rx, FieldRFTX: tt.tx, FieldAllowCommit: tt.commit,
				FieldAllowPush: tt.push, FieldRiskLevel: tt.declared,
			}), testOpts)
			if tk.DerivedLevel != tt.derived || tk.EffectiveLevel != tt.effective || tk.DeclaredLevel.String() != tt.declared {
				t.Errorf("declared %v derived %v effective %v; want %s %v %v",
					tk.DeclaredLevel, tk.DerivedLevel, tk.EffectiveLevel, tt.declared, tt.derived, tt.effective)
			}
		})
	}
}

func TestParseConflicts(t *testing.T) {
	risk, hw, req := lineOf(FieldRiskLevel), lineOf(FieldHardwareAccess), lineOf(FieldRequiresApproval)
	tests := []struct {
		name string
		over map[string]string
		want []prob
	}{
		{"yellow declared green", map[string]string{FieldRiskLevel: "GREEN"},
			[]prob{{kindConflict, FieldRiskLevel, risk}}},
		{"tx declared yellow", map[string]string{FieldRFTX: "YES", FieldRiskLevel: "YELLOW"},
			[]prob{{kindConflict, FieldRiskLevel, risk}}},
		{"tx declared green", map[string]string{FieldRFTX: "YES", FieldRiskLevel: "GREEN"},
			[]prob{{kindConflict, FieldRiskLevel, risk}}},
		{"commit declared green", map[string]string{FieldHardwareAccess: "NO", FieldRFRX: "NO", FieldAllowPush: "NO",
			FieldAllowCommit: "YES", FieldRiskLevel: "GREEN"}, []prob{{kindConflict, FieldRiskLevel, risk}}},
		{"rx without hardware", map[string]string{FieldHardwareAccess: "NO"},
			[]prob{{kindConflict, FieldHardwareAccess, hw}}},
		{"tx without hardware", map[string]string{FieldHardwareAccess: "NO", FieldRFRX: "NO", FieldRFTX: "YES", FieldRiskLevel: "RED"},
			[]prob{{kindConflict, FieldHardwareAccess, hw}}},
		{"rx and tx without hardware: one reason", map[string]string{FieldHardwareAccess: "NO", FieldRFTX: "YES", FieldRiskLevel: "RED"},
			[]prob{{kindConflict, FieldHardwareAccess, hw}}},
		{"approval waived at YELLOW", map[string]string{FieldRequiresApproval: "NO"},
			[]prob{{kindConflict, FieldRequiresApproval, req}}},
		{"approval waived at RED", map[string]string{FieldRequiresApproval: "NO", FieldRFTX: "YES", FieldRiskLevel: "RED"},
			[]prob{{kindConflict, FieldRequiresApproval, req}}},
		{"approval waived, GREEN flags declared YELLOW", map[string]string{FieldRequiresApproval: "NO",
			FieldHardwareAccess: "NO", FieldRFRX: "NO", FieldAllowPush: "NO"},
			[]prob{{kindConflict, FieldRequiresApproval, req}}},
		{"approval waived and declared too low", map[string]string{FieldRequiresApproval: "NO", FieldRiskLevel: "GREEN"},
			[]prob{{kindConflict, FieldRiskLevel, risk}, {kindConflict, FieldRequiresApproval, req}}},
		// An invalid RISK_LEVEL still leaves the derived minimum to judge REQUIRES_APPROVAL.
		{"approval waived, level invalid", map[string]string{FieldRequiresApproval: "NO", FieldRiskLevel: "LOW"},
			[]prob{{kindInvalid, FieldRiskLevel, risk}, {kindConflict, FieldRequiresApproval, req}}},
		// An invalid flag counts as NO: no conflict is invented from it.
		{"invalid RF_TX, declared yellow", map[string]string{FieldRFTX: "MAYBE"},
			[]prob{{kindInvalid, FieldRFTX, lineOf(FieldRFTX)}}},
		{"invalid HARDWARE_ACCESS with RF_RX", map[string]string{FieldHardwareAccess: "PERHAPS"},
			[]prob{{kindInvalid, FieldHardwareAccess, hw}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wantProblems(t, hdr(tt.over), testOpts, tt.want...)
		})
	}
}

func TestParseEveryReasonAtOnce(t *testing.T) {
	data := "\xef\xbb\xbf" + strings.Join([]string{
		"TASK_ID = bad-id",            // 1 invalid
		"TASK_TITLE = ok \x1b[5m",     // 2 control
		"SOURCE_BRANCH = main",        // 3 invalid
		"EXPECTED_HEAD = DEADBEEF",    // 4 invalid
		"REQUIRES_APPROVAL = NO",      // 5 conflict (YELLOW)
		"HARDWARE_ACCESS = NO",        // 6 conflict (RF_RX)
		"RF_RX = YES",                 // 7
		"RF_RX = YES",                 // 8 duplicate
		"ALLOW_COMMIT = NO",           // 9
		"ALLOW_PUSH = RX_RESULT_ONLY", // 10
		"RISK_LEVEL = GREEN",          // 11 conflict (lower than YELLOW)
		"PRIORITY = HIGH",             // 12 unknown
		"this is not a field",         // 13 malformed
		"",                            // RF_TX missing
		"Body.",
	}, "\r\n")
	wantProblems(t, data, testOpts,
		prob{kindInvalid, FieldTaskID, 1},
		prob{kindControl, FieldTitle, 2},
		prob{kindInvalid, FieldSourceBranch, 3},
		prob{kindInvalid, FieldExpectedHead, 4},
		prob{kindDuplicate, FieldRFRX, 8},
		prob{kindUnknown, "PRIORITY", 12},
		prob{kindMalformed, "", 13},
		prob{kindMissing, FieldRFTX, 0},
		prob{kindConflict, FieldHardwareAccess, 6},
		prob{kindConflict, FieldRiskLevel, 11},
		prob{kindConflict, FieldRequiresApproval, 5},
	)
}

func TestErrorMessages(t *testing.T) {
	_, err := Parse([]byte(hdr(map[string]string{FieldTaskID: "bad", FieldRFTX: del, FieldTitle: "x\x1by"})), testOpts)
	var ie *InvalidError
	if !errors.As(err, &ie) {
		t.Fatalf("%T", err)
	}
	want := "invalid task file (3 problems):\n" +
		"  line 1: TASK_ID: invalid value \"bad\": must match ^[A-Z0-9][A-Z0-9_]{2,63}$\n" +
		"  line 2: TASK_TITLE: control character U+001B in \"x\\x1by\"\n" +
		"  RF_TX: missing"
	if err.Error() != want {
		t.Errorf("message:\n%s\nwant:\n%s", err, want)
	}
	// errors.As reaches the individual reasons through the multierror.
	var fe *fieldError
	if !errors.As(err, &fe) || fe.Field != FieldTaskID || fe.Value != "bad" {
		t.Errorf("first fieldError = %+v", fe)
	}
	var me *multierror.Error
	if !errors.As(err, &me) || len(me.Errors) != 3 {
		t.Errorf("multierror not reachable: %v", me)
	}

	long := strings.Repeat("Z", 300)
	_, err = Parse([]byte(hdr(map[string]string{FieldTaskID: long})), testOpts)
	if strings.Contains(err.Error(), long[:61]) || !strings.Contains(err.Error(), long[:60]+`"...`) {
		t.Errorf("long value not cut: %s", err)
	}
	_, err = Parse([]byte(strings.Repeat("x", 11)), Options{MaxBytes: 10})
	if want := "invalid task file (1 problem):\n  file exceeds the task size limit of 10 bytes"; err.Error() != want {
		t.Errorf("size message %q", err)
	}
}

func TestDigest(t *testing.T) {
	a := []byte(hdr(nil))
	b := []byte(strings.ReplaceAll(hdr(nil), "\n", "\r\n"))
	ta, tb := mustParse(t, string(a), testOpts), mustParse(t, string(b), testOpts)
	if ta.SHA256 == tb.SHA256 {
		t.Error("CRLF and LF variants share a digest; approval must bind exact bytes")
	}
	if Digest(a) != ta.SHA256 || len(ta.SHA256) != 64 || strings.ToLower(ta.SHA256) != ta.SHA256 {
		t.Errorf("digest %q", ta.SHA256)
	}
	if Digest(nil) != "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" {
		t.Errorf("Digest(nil) = %s", Digest(nil))
	}
}

func BenchmarkParse(b *testing.B) {
	data := []byte(hdr(nil) + "\n" + strings.Repeat("Body line with some Markdown text.\n", 1800))
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Parse(data, testOpts); err != nil {
			b.Fatal(err)
		}
	}
}
