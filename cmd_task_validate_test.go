package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runTaskValidate(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	t.Setenv("RFHANDOFF_CONFIG", "")
	t.Chdir(t.TempDir()) // no ./rfhandoff.toml: the built-in policy applies
	var out, errb bytes.Buffer
	code = Main(append([]string{"rfhandoff", "task", "validate"}, args...), &out, &errb)
	return code, out.String(), errb.String()
}

// taskFixtures is resolved at init, before any test changes directory.
var taskFixtures, _ = filepath.Abs(filepath.Join("testdata", "tasks"))

func fixture(t *testing.T, name string) string {
	t.Helper()
	return filepath.Join(taskFixtures, name)
}

func TestTaskValidateValid(t *testing.T) {
	code, out, errs := runTaskValidate(t, fixture(t, "valid_yellow_rx.md"))
	if code != 0 || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	for _, want := range []string{
		"valid task RF001A_OTA_CAPTURE_002\n",
		"title:     Start coordinated RF-001A common-clock OTA capture\n",
		"declared:  YELLOW\n",
		"derived:   YELLOW (HARDWARE_ACCESS = YES, RF_RX = YES, ALLOW_PUSH = RX_RESULT_ONLY)\n",
		"effective: YELLOW\n",
		"approval:  A\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}

	code, out, _ = runTaskValidate(t, fixture(t, "valid_red_tx.md"))
	if code != 0 || !strings.Contains(out, "effective: RED\n") || !strings.Contains(out, `approval:  A, then exactly "AUTHORIZE RF TX"`) {
		t.Fatalf("exit %d:\n%s", code, out)
	}
}

// A task's own capture and schedule are shown; a task without them shows
// no such lines (TestTaskValidateValid's output is as before).
func TestTaskValidateShowsCaptureAndStart(t *testing.T) {
	t.Setenv("TZ", "UTC")
	code, out, errs := runTaskValidate(t, fixture(t, "valid_scheduled.md"))
	if code != 0 || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	for _, want := range []string{
		"capture:   433920000 Hz, 10000000 samples/s, 30 s (the rest from each RX policy)\n",
		"start:     2030-01-02T15:04:05Z (local ",
		", PPS\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	_, plain, _ := runTaskValidate(t, fixture(t, "valid_yellow_rx.md"))
	if strings.Contains(plain, "capture:") || strings.Contains(plain, "start:") {
		t.Errorf("a task without CAPTURE_* or START_AT shows them:\n%s", plain)
	}
}

func TestTaskValidateInvalidListsEveryReason(t *testing.T) {
	code, out, errs := runTaskValidate(t, fixture(t, "invalid_multiple.md"))
	if code != 1 || out != "" {
		t.Fatalf("exit %d, stdout %q", code, out)
	}
	for _, want := range []string{
		"invalid_multiple.md", "(7 problems)",
		"line 1: TASK_ID:", "line 3: SOURCE_BRANCH:", "line 4: EXPECTED_HEAD:", "line 5: REQUIRES_APPROVAL:",
		"line 9: RF_TX: duplicate", "line 13: PRIORITY: unknown field", "line 12: RISK_LEVEL: declared GREEN",
	} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errs)
		}
	}
}

func TestTaskValidateEscapeNotEchoed(t *testing.T) {
	code, _, errs := runTaskValidate(t, fixture(t, "invalid_escape_title.md"))
	if code != 1 || strings.ContainsRune(errs, 0x1b) || !strings.Contains(errs, `\x1b[31m`) {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
}

func TestTaskValidateSizeCap(t *testing.T) {
	dir := t.TempDir()
	valid, err := os.ReadFile(fixture(t, "valid_green.md"))
	if err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.md")
	if err := os.WriteFile(big, append(valid, bytes.Repeat([]byte("x"), 70000)...), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs := runTaskValidate(t, big)
	if code != 1 || !strings.Contains(errs, "task size limit of 65536 bytes") {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}

	// A tighter policy limit applies before the file is read whole.
	cfg := filepath.Join(dir, "policy.toml")
	if err := os.WriteFile(cfg, []byte("[limits]\nmax_task_bytes = 100\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("RFHANDOFF_CONFIG", cfg)
	var out, errb bytes.Buffer
	code = Main([]string{"rfhandoff", "task", "validate", fixture(t, "valid_green.md")}, &out, &errb)
	if code != 1 || !strings.Contains(errb.String(), "task size limit of 100 bytes") {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
}

func TestTaskValidateMissingFile(t *testing.T) {
	code, _, errs := runTaskValidate(t, filepath.Join(t.TempDir(), "nope.md"))
	if code != 1 || !strings.Contains(errs, "nope.md") {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
}

// A task file that is a symlink is refused, even to a valid task.
func TestTaskValidateRefusesASymlink(t *testing.T) {
	link := filepath.Join(t.TempDir(), "NEXT_RX_TASK.md")
	if err := os.Symlink(fixture(t, "valid_green.md"), link); err != nil {
		t.Skipf("cannot create a symlink here: %v", err)
	}
	if _, err := os.ReadFile(link); err != nil {
		t.Skipf("the link does not resolve here (Wine's emulation): %v", err)
	}
	code, out, errs := runTaskValidate(t, link)
	if code != 1 || out != "" || !strings.Contains(errs, link) || !strings.Contains(errs, "a symlink") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
}
