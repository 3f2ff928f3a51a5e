package task

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"rfhandoff/gate"
)

// The shared fixtures in <repo>/testdata/tasks must stay what their names say.
const fixtureDir = "../testdata/tasks"

func TestSharedFixtures(t *testing.T) {
	valid := map[string]gate.Level{
		"valid_yellow_rx.md":    gate.Yellow,
		"valid_green.md":        gate.Green,
		"valid_red_tx.md":       gate.Red,
		"valid_red_firmware.md": gate.Red,
		"valid_crlf_bom.md":     gate.Yellow,
		"valid_scheduled.md":    gate.Yellow,
	}
	invalid := map[string][]prob{
		"invalid_declared_lower.md":       {{kindConflict, FieldRiskLevel, 11}},
		"invalid_rf_without_hardware.md":  {{kindConflict, FieldHardwareAccess, 6}},
		"invalid_requires_approval_no.md": {{kindConflict, FieldRequiresApproval, 5}},
		"invalid_escape_title.md":         {{kindControl, FieldTitle, 2}},
		"invalid_missing_fields.md":       {{kindMissing, FieldExpectedHead, 0}, {kindMissing, FieldRFTX, 0}},
		"invalid_multiple.md": {
			{kindInvalid, FieldTaskID, 1}, {kindInvalid, FieldSourceBranch, 3}, {kindInvalid, FieldExpectedHead, 4},
			{kindInvalid, FieldRequiresApproval, 5}, {kindDuplicate, FieldRFTX, 9}, {kindUnknown, "PRIORITY", 13},
			{kindConflict, FieldRiskLevel, 12},
		},
	}
	files, err := filepath.Glob(filepath.Join(fixtureDir, "*.md"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	seen := 0
	for _, path := range files {
		name := filepath.Base(path)
		if !strings.HasPrefix(name, "valid_") && !strings.HasPrefix(name, "invalid_") {
			continue
		}
		seen++
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if level, ok := valid[name]; ok {
				tk := mustParse(t, string(data), testOpts)
				if tk.EffectiveLevel != level {
					t.Errorf("level %v, want %v", tk.EffectiveLevel, level)
				}
				return
			}
			want, ok := invalid[name]
			if !ok {
				t.Fatalf("fixture %s has no expectation here; add one", name)
			}
			if got := problems(t, string(data), testOpts); !reflect.DeepEqual(got, want) {
				t.Errorf("problems:\n got  %v\n want %v", got, want)
			}
		})
	}
	if seen != len(valid)+len(invalid) {
		t.Errorf("found %d fixtures, expected %d", seen, len(valid)+len(invalid))
	}
}

func TestCRLFFixtureKeepsItsBytes(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(fixtureDir, "valid_crlf_bom.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(data), "\xef\xbb\xbf") || !strings.Contains(string(data), "\r\n") {
		t.Fatal("valid_crlf_bom.md lost its BOM or CRLF line endings")
	}
}
