package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"rfhandoff/result"
)

// resultFixtures is resolved at init, before any test changes directory.
var resultFixtures, _ = filepath.Abs(filepath.Join("testdata", "results"))

func runResultValidate(t *testing.T, policy string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	dir := t.TempDir()
	t.Chdir(dir)
	t.Setenv("RFHANDOFF_CONFIG", "")
	if policy != "" {
		if err := os.WriteFile(filepath.Join(dir, "rfhandoff.toml"), []byte(policy), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var out, errb bytes.Buffer
	code = Main(append([]string{"rfhandoff", "result", "validate"}, args...), &out, &errb)
	return code, out.String(), errb.String()
}

func TestResultValidateValid(t *testing.T) {
	for _, c := range []struct{ file, state string }{
		{"ready.json", "RX_READY_FOR_TX"},
		{"complete.json", "CAPTURE_COMPLETE"},
	} {
		path := filepath.Join(resultFixtures, c.file)
		code, out, errs := runResultValidate(t, "", path, "--task-id", "RX_OTA_0001")
		if code != 0 || errs != "" {
			t.Fatalf("%s: exit %d, stderr %q", c.file, code, errs)
		}
		if !strings.HasPrefix(out, "valid result: task RX_OTA_0001, state "+c.state+", sha256 ") ||
			strings.Count(out, "\n") != 1 {
			t.Errorf("%s: summary %q", c.file, out)
		}
	}
}

func TestResultValidateInvalidListsEveryReason(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(resultFixtures, "ready.json"))
	if err != nil {
		t.Fatal(err)
	}
	bad := bytes.Replace(src, []byte(`"rf_tx": 0`), []byte(`"rf_tx": 1`), 1)
	bad = bytes.Replace(bad, []byte(`"capture_pid": 48213`), []byte(`"capture_pid": 48213.0`), 1)
	bad = bytes.Replace(bad, []byte(`"state"`), []byte(`"State"`), 1)
	path := filepath.Join(t.TempDir(), "RX_RESULT.json")
	if err := os.WriteFile(path, bad, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runResultValidate(t, "", path)
	if code != 1 || out != "" {
		t.Fatalf("exit %d, stdout %q", code, out)
	}
	for _, want := range []string{
		path + " is invalid (4 problems)",
		`"State": unknown key`, `"state": is missing`, `"capture_pid": must be an integer`, `"rf_tx": must be 0`,
	} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errs)
		}
	}
}

func TestResultValidateTaskIDMismatch(t *testing.T) {
	code, _, errs := runResultValidate(t, "", filepath.Join(resultFixtures, "ready.json"), "--task-id", "RX_OTA_0002")
	if code != 1 || !strings.Contains(errs, `"task_id": is "RX_OTA_0001", but the current task is "RX_OTA_0002"`) {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
}

// The policy's max_result_bytes tightens the limit, and the file is refused
// without reading it whole.
func TestResultValidateSizeCap(t *testing.T) {
	ready := filepath.Join(resultFixtures, "ready.json")
	code, _, errs := runResultValidate(t, "[limits]\nmax_result_bytes = 200\n", ready)
	if code != 1 || !strings.Contains(errs, "more than the limit of 200 bytes") {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	huge := filepath.Join(t.TempDir(), "huge.json")
	if err := os.WriteFile(huge, bytes.Repeat([]byte(" "), 1<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs = runResultValidate(t, "", huge)
	if code != 1 || !strings.Contains(errs, "more than the limit of 65536 bytes") {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
}

func TestResultValidateMissingFile(t *testing.T) {
	code, _, errs := runResultValidate(t, "", filepath.Join(t.TempDir(), "absent.json"))
	if code != 1 || !strings.Contains(errs, "absent.json") {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
}

// planned_duration_s must be the policy's, as publish and tx watch require:
// 60 is refused under the default 120 and accepted where the policy says 60.
func TestResultValidatePlannedDurationIsThePolicys(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(resultFixtures, "ready.json"))
	if err != nil {
		t.Fatal(err)
	}
	bad := bytes.Replace(src, []byte(`"planned_duration_s": 120`), []byte(`"planned_duration_s": 60`), 1)
	if bytes.Equal(bad, src) {
		t.Fatal("fixture has no planned_duration_s 120")
	}
	path := filepath.Join(t.TempDir(), "RX_RESULT.json")
	if err := os.WriteFile(path, bad, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runResultValidate(t, "", path)
	if code != 1 || out != "" || !strings.Contains(errs, `"planned_duration_s": is 60, but the policy's limits.planned_duration_s is 120`) {
		t.Fatalf("default policy: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	code, out, errs = runResultValidate(t, "[limits]\nplanned_duration_s = 60\n", path)
	if code != 0 || errs != "" || !strings.HasPrefix(out, "valid result: ") {
		t.Fatalf("policy 60: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	// The task's CAPTURE_DURATION_S stands for the policy's (PROTOCOL#task-file).
	code, out, errs = runResultValidate(t, "", "--duration-s", "60", path)
	if code != 0 || errs != "" || !strings.HasPrefix(out, "valid result: ") {
		t.Fatalf("--duration-s 60: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	code, _, errs = runResultValidate(t, "[limits]\nplanned_duration_s = 60\n", "--duration-s", "45", path)
	if code != 1 || !strings.Contains(errs, `"planned_duration_s": is 60, but the task's CAPTURE_DURATION_S is 45`) {
		t.Fatalf("--duration-s 45: exit %d, stderr %q", code, errs)
	}
}

// PROTOCOL#several-nodes: result validate accepts both versions; --node requires a
// node result from that node.
func TestResultValidateNode(t *testing.T) {
	v1 := filepath.Join(resultFixtures, "complete.json")
	data, err := os.ReadFile(v1)
	if err != nil {
		t.Fatal(err)
	}
	r, err := result.Decode(data, result.Options{})
	if err != nil {
		t.Fatal(err)
	}
	nodeDoc, err := result.EncodeNode(r, result.NodeFields{Node: "rx-a", SigMFMetaSHA512: new(strings.Repeat("1", 128))})
	if err != nil {
		t.Fatal(err)
	}
	v2 := filepath.Join(t.TempDir(), "RX_RESULT.json")
	if err := os.WriteFile(v2, nodeDoc, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		code int
		out  string
		err  string
	}{
		{[]string{v2}, 0, "valid result: task RX_OTA_0001, state CAPTURE_COMPLETE, node rx-a, sha256 ", ""},
		{[]string{v2, "--node", "rx-a"}, 0, "node rx-a", ""},
		{[]string{v2, "--node", "rx-b"}, 1, "", `"node": is "rx-a", but this is node "rx-b"`},
		{[]string{v1, "--node", "rx-a"}, 1, "", `"schema_version": is 1, but a node result (schema_version 2) from node "rx-a" is required`},
		{[]string{v1}, 0, "state CAPTURE_COMPLETE, sha256 ", ""},
		{[]string{v2, "--node", "RX-A"}, 2, "", "--node"},
	} {
		code, out, errs := runResultValidate(t, "", c.args...)
		if code != c.code || !strings.Contains(out, c.out) || !strings.Contains(errs, c.err) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want %d, %q, %q", c.args, code, out, errs, c.code, c.out, c.err)
		}
	}
}
