package config

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/go-multierror"

	"rfhandoff/gitcli/gitname"
)

// TestNamesAreGitcliRules: the policy accepts exactly what gitname (and
// so gitcli) will pass to git, including where two copies had drifted (a
// 101-character branch, a 65-character remote, '+', '@', '=' and ',' in
// a path), and its error names the key, the value once and gitname's
// reason.
func TestNamesAreGitcliRules(t *testing.T) {
	long := strings.Repeat("b", 101)
	tests := []struct {
		key    string
		value  string
		set    func(*Policy, string)
		rule   func(string) string
		reason string // "" = accepted
	}{
		{"repo.result_branch", long, func(p *Policy, v string) { p.Repo.ResultBranch = v }, gitname.Branch, "longer than 100 characters"},
		{"repo.result_branch", long[:100], func(p *Policy, v string) { p.Repo.ResultBranch = v }, gitname.Branch, ""},
		{"repo.task_branch", "a/.b", func(p *Policy, v string) { p.Repo.TaskBranch = v }, gitname.Branch, `component ".b" must start with a letter or digit`},
		{"repo.task_branch", "a/x.lock", func(p *Policy, v string) { p.Repo.TaskBranch = v }, gitname.Branch, `must not end in ".lock"`},
		{"repo.remote", strings.Repeat("r", 65), func(p *Policy, v string) { p.Repo.Remote = v }, gitname.Remote, "longer than 64 characters"},
		{"repo.remote", "a/b", func(p *Policy, v string) { p.Repo.Remote = v }, gitname.Remote, "must not contain '/'"},
		{"repo.result_dir", "docs/a+b", func(p *Policy, v string) { p.Repo.ResultDir = v }, gitname.RepoPath, `component "a+b" may hold only`},
		{"repo.result_dir", "docs/user@lab", func(p *Policy, v string) { p.Repo.ResultDir = v }, gitname.RepoPath, `component "user@lab" may hold only`},
		{"repo.task_file", "docs/a=b,c.md", func(p *Policy, v string) { p.Repo.TaskFile = v }, gitname.RepoPath, `component "a=b,c.md" may hold only`},
		{"repo.task_file", "docs/.GIT/x", func(p *Policy, v string) { p.Repo.TaskFile = v }, gitname.RepoPath, `must not point into ".git"`},
		{"repo.result_dir", strings.Repeat("d/", 127) + "dd", func(p *Policy, v string) { p.Repo.ResultDir = v }, gitname.RepoPath, "longer than 255 characters"},
		{"repo.result_dir", "docs/handoff/results_2", func(p *Policy, v string) { p.Repo.ResultDir = v }, gitname.RepoPath, ""},
	}
	for _, tt := range tests {
		p := Default()
		tt.set(&p, tt.value)
		err := p.Validate()
		rule := tt.rule(tt.value)
		if (err == nil) != (rule == "") {
			t.Errorf("%s = %q: policy says %v, gitname says %q", tt.key, tt.value, err, rule)
			continue
		}
		if tt.reason == "" {
			if err != nil {
				t.Errorf("%s = %q refused: %v", tt.key, tt.value, err)
			}
			continue
		}
		var me *multierror.Error
		if !errors.As(err, &me) || len(me.Errors) != 1 {
			t.Errorf("%s = %q: error %v, want one problem", tt.key, tt.value, err)
			continue
		}
		msg := me.Errors[0].Error()
		if msg != fmt.Sprintf("%s = %q: %s", tt.key, tt.value, rule) || !strings.Contains(rule, tt.reason) ||
			strings.Contains(rule, "invalid ") || strings.Count(msg, tt.value) != 1 {
			t.Errorf("%s = %q: %q, want the key, the value once and %q", tt.key, tt.value, msg, tt.reason)
		}
	}
}
