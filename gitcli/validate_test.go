package gitcli

import (
	"errors"
	"strings"
	"testing"
)

func TestValidators(t *testing.T) {
	long := strings.Repeat("a", 100)
	tests := []struct {
		name  string
		check func(string) error
		good  []string
		bad   []string
	}{
		{
			name:  "branch",
			check: ValidBranch,
			good:  []string{"rx-node", "video-development", "feature/x.y_z", "a", "A1/b2/c3", long[:100], "v1.2"},
			bad: []string{"", "-x", "--upload-pack=touch /tmp/x", "a..b", "a/../b", "x.lock", "a/x.lock/b", "a.", "a/", "/a", "a//b",
				"HEAD", ".hidden", "a/.b", "_a", "a b", "a:b", "a~1", "a^", "a?", "a*", "a[", "a\\b", "a@{1}", "@", "\x00",
				"a\nb", "ü", long + "a", strings.Repeat("a/", 128) + "a"},
		},
		{
			name:  "remote",
			check: validRemoteName,
			good:  []string{"origin", "up-stream", "lab_2", long[:64]},
			bad:   []string{"", "-x", "--upload-pack=x", "a/b", "a..b", "ext::sh", "file:///tmp/r", "/tmp/r", "o.lock", "o.", "_o", long[:65]},
		},
		{
			name:  "object ID",
			check: ValidObjectID,
			good:  []string{idA, "0123456789abcdef0123456789abcdef01234567"},
			bad:   []string{"", "1234567", idA + "1", strings.ToUpper("abcdef0123456789abcdef0123456789abcdef01"), "g" + idA[1:], "-" + idA[1:]},
		},
		{
			name:  "ref",
			check: validRef,
			good:  []string{"HEAD", idA, "refs/remotes/origin/rx-node", "origin/rx-node", "main", "refs/remotes/" + long[:64] + "/" + long},
			bad:   []string{"", "--output=/tmp/x", "HEAD~1", "HEAD^", "@{u}", "a..b", "refs/heads/-x/../y", "x^{tree}", "1234567"},
		},
		{
			name:  "repo path",
			check: ValidRepoPath,
			good: []string{"docs/handoff/NEXT_RX_TASK.md", ".local", ".local/rx_agent_state.json", "a", "a/b.c-d_e",
				".gitignore", "docs/handoff/results/RX_RESULT.json"},
			bad: []string{"", "-x", "a/-x", "/etc/passwd", "../x", "a/../b", "./a", "a/./b", "a/", "a//b", ".git", ".git/config",
				"a/.GIT/b", "a+b", "a@b", "a=b", "a,b", "a b", "a\tb", "a\nb", "a\x00b", ":(glob)*", "a*", "a?", "a[b]", "a\\b", "ü", "a:b",
				strings.Repeat("a", 256), strings.Repeat("a/", 127) + "aa", strings.Repeat("a/", 2100)},
		},
		{
			name:  "URL",
			check: ValidURL,
			good: []string{"https://example.org/lab/r.git", "https://user@example.org/r.git", "ssh://git@example.org:22/r.git",
				"git@example.org:lab/r.git", "file:///tmp/remote.git", "/tmp/remote.git", "../remote.git", "git://example.org/r"},
			bad: []string{"", "-u", "--upload-pack=touch /tmp/x", "ext::sh -c touch% /tmp/x", "fd::3", "ssh://-oProxyCommand=x/r",
				"ssh://user@-oProxyCommand=x/r", "-oProxyCommand=x:r", "host:-r", "https://exa mple.org/r", "https://e.org/\x7f",
				"https://e.org/r\n", "ftp://e.org/r", "ext://x", "transport::https://x", strings.Repeat("a", 2049)},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, v := range tt.good {
				if err := tt.check(v); err != nil {
					t.Errorf("%q refused: %v", v, err)
				}
			}
			for _, v := range tt.bad {
				err := tt.check(v)
				var inv *invalidArgError
				if !errors.As(err, &inv) {
					t.Errorf("%q accepted (err %v), want *invalidArgError", v, err)
					continue
				}
				if inv.Value != v || inv.Reason == "" {
					t.Errorf("%q: error %+v does not name the value and a reason", v, inv)
				}
			}
		})
	}
}
