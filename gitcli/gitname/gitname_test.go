package gitname

import (
	"strings"
	"testing"
)

// TestReasons: each rule names what is wrong; the accept/refuse tables
// for every value class are gitcli's TestValidators and config's
// TestNamesAreGitcliRules.
func TestReasons(t *testing.T) {
	tests := []struct {
		check func(string) string
		in    string
		want  string // "" = accepted
	}{
		{Branch, "rx-node", ""},
		{Branch, strings.Repeat("b", 100), ""},
		{Branch, strings.Repeat("b", 101), "longer than 100 characters"},
		{Branch, "--upload-pack=x", "must not start with '-' (it would read as an option)"},
		{Branch, "a//b", "must not have an empty component (leading, trailing or doubled '/')"},
		{Branch, "a/b.lock", `component "b.lock" must not end in ".lock"`},
		{Remote, "a/b", "must not contain '/'"},
		{Remote, strings.Repeat("r", 65), "longer than 64 characters"},
		{func(s string) string { return Ref(s, MaxRefLen) }, "refs/remotes/origin/" + strings.Repeat("b", 100), ""},
		{RepoPath, "docs/handoff/results", ""},
		{RepoPath, "docs/a+b", `component "a+b" may hold only letters, digits, '.', '_' and '-'`},
		{RepoPath, "a/.Git/x", `must not point into ".git"`},
		{RepoPath, "a/./b", `must be a clean path below the repository root: component "."`},
	}
	for _, tt := range tests {
		if got := tt.check(tt.in); got != tt.want {
			t.Errorf("%q: %q, want %q", tt.in, got, tt.want)
		}
	}
}
