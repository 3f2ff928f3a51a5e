package task

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

const testBranch = "video-development"

var testOpts = Options{TaskBranch: testBranch}

// baseFields is a valid YELLOW RX task (the protocol's own example).
var baseFields = [][2]string{
	{FieldTaskID, "RF001A_OTA_CAPTURE_002"},
	{FieldTitle, "Start coordinated RF-001A common-clock OTA capture"},
	{FieldSourceBranch, testBranch},
	{FieldExpectedHead, "0123456789abcdef0123456789abcdef01234567"},
	{FieldRequiresApproval, "YES"},
	{FieldHardwareAccess, "YES"},
	{FieldRFRX, "YES"},
	{FieldRFTX, "NO"},
	{FieldAllowCommit, "NO"},
	{FieldAllowPush, "RX_RESULT_ONLY"},
	{FieldRiskLevel, "YELLOW"},
}

// hdr renders baseFields with overrides; a value of "\x00DEL" removes the
// field. Lines are "KEY = VALUE" joined by "\n" with a trailing "\n".
func hdr(over map[string]string) string {
	var b strings.Builder
	for _, kv := range baseFields {
		v, ok := over[kv[0]]
		if !ok {
			v = kv[1]
		}
		if v == del {
			continue
		}
		fmt.Fprintf(&b, "%s = %s\n", kv[0], v)
	}
	return b.String()
}

const del = "\x00DEL"

// lineOf is the 1-based line of field in hdr(nil).
func lineOf(field string) int {
	for i, kv := range baseFields {
		if kv[0] == field {
			return i + 1
		}
	}
	panic(field)
}

type prob struct {
	Kind  Kind
	Field string
	Line  int
}

func (p prob) String() string { return fmt.Sprintf("{%v %s line %d}", p.Kind, p.Field, p.Line) }

// problems parses data, requires it to be rejected, and returns the reasons.
func problems(t *testing.T, data string, opts Options) []prob {
	t.Helper()
	tk, err := Parse([]byte(data), opts)
	if err == nil {
		t.Fatalf("accepted, want rejected: %+v", tk)
	}
	if tk != nil {
		t.Fatalf("rejected but returned a task: %+v", tk)
	}
	var ie *InvalidError
	if !errors.As(err, &ie) {
		t.Fatalf("error %T %v, want *InvalidError", err, err)
	}
	var out []prob
	for _, p := range ie.Problems() {
		out = append(out, prob{p.Kind, p.Field, p.Line})
	}
	if len(out) != len(ie.Errs.WrappedErrors()) {
		t.Fatalf("some reasons are not *fieldError: %v", ie.Errs.WrappedErrors())
	}
	return out
}

func wantProblems(t *testing.T, data string, opts Options, want ...prob) {
	t.Helper()
	got := problems(t, data, opts)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("problems:\n got  %v\n want %v", got, want)
	}
}

func mustParse(t *testing.T, data string, opts Options) *Task {
	t.Helper()
	tk, err := Parse([]byte(data), opts)
	if err != nil {
		t.Fatalf("rejected: %v\ninput: %q", err, data)
	}
	return tk
}
