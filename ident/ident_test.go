package ident

import (
	"regexp"
	"strings"
	"testing"
)

func TestRules(t *testing.T) {
	tests := []struct {
		name      string
		rule      Rule
		good, bad []string
	}{
		{"TaskID", TaskID, []string{"ABC", "T_2026_01", strings.Repeat("A", 64)},
			[]string{"", "AB", "_ABC", "abc", "A-BC", strings.Repeat("A", 65), "ABC\n"}},
		{"Commit", Commit, []string{strings.Repeat("a", 40)}, []string{strings.Repeat("a", 39), strings.Repeat("A", 40), strings.Repeat("a", 41)}},
		{"SHA256", SHA256, []string{strings.Repeat("0", 64)}, []string{strings.Repeat("0", 63), strings.Repeat("g", 64)}},
		{"SHA512", SHA512, []string{strings.Repeat("f", 128)}, []string{strings.Repeat("f", 127), strings.Repeat("F", 128)}},
		{"Serial", Serial, []string{"a", strings.Repeat("0", 32)}, []string{"", strings.Repeat("0", 33), "0x1"}},
		{"Fingerprint", Fingerprint, []string{"SHA256:" + strings.Repeat("A", 43)}, []string{"SHA256:" + strings.Repeat("A", 42), "MD5:" + strings.Repeat("A", 43)}},
		{"Timestamp", Timestamp, []string{"2026-01-02T15:04:05Z", "2026-01-02T16:04:05.123+01:00"},
			[]string{"2026-01-02 15:04:05Z", "2026-01-02T15:04:05", "2026-01-02T15:04:05z"}},
	}
	for _, tt := range tests {
		for _, s := range tt.good {
			if !tt.rule.MatchString(s) {
				t.Errorf("%s refuses %q", tt.name, s)
			}
		}
		for _, s := range tt.bad {
			if tt.rule.MatchString(s) {
				t.Errorf("%s accepts %q", tt.name, s)
			}
		}
	}
}

// Inner composes: a file name built around TASK_ID takes exactly its IDs.
func TestInner(t *testing.T) {
	if got, want := TaskID.Inner(), `[A-Z0-9][A-Z0-9_]{2,63}`; got != want {
		t.Fatalf("Inner = %q, want %q", got, want)
	}
	name := regexp.MustCompile(`^(` + TaskID.Inner() + `)-[0-9a-f]{12}\.json$`)
	if m := name.FindStringSubmatch("T_01-0123456789ab.json"); m == nil || m[1] != "T_01" {
		t.Errorf("composed pattern: got %q", m)
	}
	if name.MatchString("t_01-0123456789ab.json") {
		t.Error("composed pattern accepts a lowercase TASK_ID")
	}
}

func TestCheckTaskID(t *testing.T) {
	if err := CheckTaskID("T_01"); err != nil {
		t.Errorf("CheckTaskID(T_01) = %v", err)
	}
	err := CheckTaskID("t-1")
	want := `invalid TASK_ID "t-1": must match ^[A-Z0-9][A-Z0-9_]{2,63}$`
	if err == nil || err.Error() != want {
		t.Errorf("CheckTaskID(t-1) = %v, want %s", err, want)
	}
}
