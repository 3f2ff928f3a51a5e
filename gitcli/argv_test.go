package gitcli

import (
	"context"
	"errors"
	"io"
	"reflect"
	"slices"
	"strings"
	"testing"
)

const (
	idA = "1111111111111111111111111111111111111111"
	idB = "2222222222222222222222222222222222222222"
)

// TestArgv pins the exact git command lines: fixed options first, then
// --end-of-options and revisions/remotes, then -- and paths.
func TestArgv(t *testing.T) {
	tests := []struct {
		name    string
		replies []fakeReply
		op      func(ctx context.Context, c *Client) error
		want    [][]string
	}{
		{
			name: "fetch one branch without +",
			op:   func(ctx context.Context, c *Client) error { return c.FetchBranch(ctx, "origin", "video-development") },
			want: [][]string{{"fetch", "--no-tags", "--no-auto-gc", "--no-recurse-submodules", "--no-write-fetch-head",
				"--end-of-options", "origin", "refs/heads/video-development:refs/remotes/origin/video-development"}},
		},
		{
			name:    "resolve commit",
			replies: []fakeReply{ok(idA + "\n")},
			op: func(ctx context.Context, c *Client) error {
				_, err := c.ResolveCommit(ctx, "refs/remotes/origin/video-development")
				return err
			},
			want: [][]string{{"rev-parse", "--verify", "--quiet", "--end-of-options", "refs/remotes/origin/video-development^{commit}"}},
		},
		{
			name:    "head",
			replies: []fakeReply{ok(idA + "\n")},
			op:      func(ctx context.Context, c *Client) error { _, err := c.Head(ctx); return err },
			want:    [][]string{{"rev-parse", "--verify", "--quiet", "--end-of-options", "HEAD^{commit}"}},
		},
		{
			name:    "current branch",
			replies: []fakeReply{ok("main\n")},
			op:      func(ctx context.Context, c *Client) error { _, err := c.CurrentBranch(ctx); return err },
			want:    [][]string{{"symbolic-ref", "--quiet", "--short", "HEAD"}},
		},
		{
			name:    "remote url",
			replies: []fakeReply{ok("file:.git/config\x00remote.origin.url\nhttps://example.org/r.git\x00")},
			op:      func(ctx context.Context, c *Client) error { _, err := c.RemoteURL(ctx, "origin"); return err },
			want: [][]string{{"config", "--null", "--show-origin", "--get-regexp", "--end-of-options",
				`^(remote\.origin\.(url|pushurl)|url\..*\.(insteadof|pushinsteadof))$`}},
		},
		{
			name: "is ancestor",
			op:   func(ctx context.Context, c *Client) error { _, err := c.IsAncestor(ctx, idA, idB); return err },
			want: [][]string{{"merge-base", "--is-ancestor", "--end-of-options", idA, idB}},
		},
		{
			name: "remote branch exists",
			op: func(ctx context.Context, c *Client) error {
				_, _, err := c.RemoteBranchExists(ctx, "origin", "rx-node")
				return err
			},
			want: [][]string{{"ls-remote", "--heads", "--end-of-options", "origin", "refs/heads/rx-node"}},
		},
		{
			name:    "blob size",
			replies: []fakeReply{ok("100644 blob " + idB + "      12\tdocs/x.md\x00")},
			op: func(ctx context.Context, c *Client) error {
				_, err := c.BlobSize(ctx, idA, "docs/x.md")
				return err
			},
			want: [][]string{{"ls-tree", "-l", "-z", "--full-tree", "--end-of-options", idA, "--", "docs/x.md"}},
		},
		{
			name:    "show file reads by blob ID",
			replies: []fakeReply{ok("100644 blob " + idB + "       3\tdocs/x.md\x00"), ok("hi\n")},
			op: func(ctx context.Context, c *Client) error {
				_, err := c.ShowFile(ctx, idA, "docs/x.md", 64)
				return err
			},
			want: [][]string{
				{"ls-tree", "-l", "-z", "--full-tree", "--end-of-options", idA, "--", "docs/x.md"},
				{"cat-file", "blob", "--end-of-options", idB},
			},
		},
		{
			name: "shallow clone",
			op: func(ctx context.Context, c *Client) error {
				return c.CloneBranch(ctx, "https://example.org/r.git", "rx-node", abs("/tmp/x/repo"))
			},
			want: [][]string{{"clone", "--quiet", "--no-checkout", "--depth", "1", "--single-branch", "--no-tags", "--no-recurse-submodules",
				"--branch", "rx-node", "--origin", "origin", "--end-of-options", "https://example.org/r.git", abs("/tmp/x/repo")}},
		},
		{
			name: "add",
			op: func(ctx context.Context, c *Client) error {
				return c.Add(ctx, "docs/handoff/results/RX_RESULT.json", "docs/handoff/results/RX_RESULT.md")
			},
			want: [][]string{{"add", "--", "docs/handoff/results/RX_RESULT.json", "docs/handoff/results/RX_RESULT.md"}},
		},
		{
			name: "staged paths",
			op:   func(ctx context.Context, c *Client) error { _, err := c.StagedPaths(ctx); return err },
			want: [][]string{{"diff", "--cached", "--name-only", "-z", "--no-renames", "--no-ext-diff", "--no-textconv"}},
		},
		{
			name: "staged changes",
			op:   func(ctx context.Context, c *Client) error { _, err := c.StagedChanges(ctx); return err },
			want: [][]string{{"diff", "--cached", "--raw", "-z", "--no-renames", "--no-abbrev", "--no-ext-diff", "--no-textconv"}},
		},
		{
			name: "has staged changes",
			op:   func(ctx context.Context, c *Client) error { _, err := c.HasStagedChanges(ctx); return err },
			want: [][]string{{"diff", "--cached", "--quiet", "--no-renames", "--no-ext-diff", "--no-textconv"}},
		},
		{
			name: "levels of the result directory",
			op: func(ctx context.Context, c *Client) error {
				_, err := c.DirLevels(ctx, "HEAD", "docs/handoff/results")
				return err
			},
			want: [][]string{{"ls-tree", "-t", "-l", "-z", "--full-tree", "--end-of-options", "HEAD", "--", ".",
				"docs/", "docs/handoff/", "docs/handoff/results/"}},
		},
		{
			name: "tree changes",
			op:   func(ctx context.Context, c *Client) error { _, err := c.TreeChanges(ctx, "HEAD", idA); return err },
			want: [][]string{{"diff-tree", "-r", "--raw", "-z", "--no-renames", "--no-abbrev", "--no-ext-diff", "--no-textconv",
				"--end-of-options", "HEAD", idA}},
		},
		{
			name: "write objects",
			op: func(ctx context.Context, c *Client) error {
				return c.WriteObjects(ctx, []Object{{Type: "blob", Data: []byte("x")}})
			},
			want: [][]string{{"unpack-objects", "-q", "--strict"}},
		},
		{
			name: "read blob",
			op:   func(ctx context.Context, c *Client) error { _, err := c.ReadBlob(ctx, idA, 10); return err },
			want: [][]string{{"cat-file", "blob", "--end-of-options", idA}},
		},
		{
			name: "check ignored",
			op:   func(ctx context.Context, c *Client) error { _, err := c.CheckIgnored(ctx, ".local"); return err },
			want: [][]string{{"check-ignore", "-q", "--", ".local"}},
		},
		{
			name: "push HEAD without force",
			op:   func(ctx context.Context, c *Client) error { return c.Push(ctx, "origin", "HEAD", "rx-node") },
			want: [][]string{{"push", "--porcelain", "--no-verify", "--no-follow-tags", "--recurse-submodules=no",
				"--end-of-options", "origin", "HEAD:refs/heads/rx-node"}},
		},
		{
			name:    "version",
			replies: []fakeReply{ok("git version 2.39.5\n")},
			op:      func(ctx context.Context, c *Client) error { _, err := c.CheckVersion(ctx); return err },
			want:    [][]string{{"version"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &fakeRunner{t: t, replies: tt.replies}
			c := &Client{R: f, Dir: "/repo"}
			if err := tt.op(t.Context(), c); err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if got := f.argv(); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("argv\n got %q\nwant %q", got, tt.want)
			}
			for _, call := range f.calls {
				if call.Tool != "git" {
					t.Errorf("tool %q, want git", call.Tool)
				}
			}
		})
	}
}

func TestShowFileCapsOutput(t *testing.T) {
	f := &fakeRunner{t: t, replies: []fakeReply{ok("100644 blob " + idB + "       3\tx.md\x00"), ok("hi\n")}}
	c := &Client{R: f, Dir: "/repo"}
	if _, err := c.ShowFile(t.Context(), idA, "x.md", 100); err != nil {
		t.Fatal(err)
	}
	if got := f.calls[1].MaxOutput; got != 100 {
		t.Errorf("cat-file MaxOutput = %d, want the 100-byte limit", got)
	}
}

func TestCommitArgvStdinAndIdentity(t *testing.T) {
	f := &fakeRunner{t: t, replies: []fakeReply{
		ok("user.email\nsomeone@example.org\x00"), // user.name not configured
		ok(""),
		ok(idA + "\n"),
	}}
	c := &Client{R: f, Dir: "/repo"}
	id, err := c.Commit(t.Context(), "Publish RX result T_1\n", []Trailer{{"Audit-Chain-Head", "abc123"}, {"Task-Id", "T_1"}})
	if err != nil {
		t.Fatal(err)
	}
	if id != idA {
		t.Errorf("commit ID %q, want %q", id, idA)
	}
	want := [][]string{
		{"config", "--null", "--get-regexp", "--end-of-options", `^user\.(name|email)$`},
		{"commit", "--quiet", "--no-verify", "--no-gpg-sign", "--cleanup=whitespace", "--file=-"},
		{"rev-parse", "--verify", "--quiet", "--end-of-options", "HEAD^{commit}"},
	}
	if got := f.argv(); !reflect.DeepEqual(got, want) {
		t.Fatalf("argv\n got %q\nwant %q", got, want)
	}
	msg, _ := io.ReadAll(f.calls[1].Stdin)
	if wantMsg := "Publish RX result T_1\n\nAudit-Chain-Head: abc123\nTask-Id: T_1\n"; string(msg) != wantMsg {
		t.Errorf("message %q, want %q", msg, wantMsg)
	}
	// Half a configured identity is no identity: the default signs.
	for _, kv := range []string{"GIT_AUTHOR_NAME=rfhandoff", "GIT_COMMITTER_EMAIL=rfhandoff@localhost"} {
		if !slices.Contains(f.calls[1].Env, kv) {
			t.Errorf("commit env %q lacks %s", f.calls[1].Env, kv)
		}
	}
}

func TestCommitTreeArgvStdinAndIdentity(t *testing.T) {
	f := &fakeRunner{t: t, replies: []fakeReply{
		ok("user.name\nOld Name\x00user.email\nrx@lab.example\x00user.name\nRX Laptop\x00"),
		ok(idB + "\n"),
	}}
	c := &Client{R: f, Dir: "/repo"}
	id, err := c.CommitTree(t.Context(), idA, "HEAD", "rx result\n", []Trailer{{"Audit-Chain-Head", "abc123"}})
	if err != nil || id != idB {
		t.Fatalf("CommitTree = %q, %v; want %s", id, err, idB)
	}
	want := []string{"commit-tree", "-p", "HEAD", "-F", "-", "--no-gpg-sign", "--end-of-options", idA}
	if got := f.calls[1].Args; !reflect.DeepEqual(got, want) {
		t.Errorf("argv\n got %q\nwant %q", got, want)
	}
	msg, _ := io.ReadAll(f.calls[1].Stdin)
	if wantMsg := "rx result\n\nAudit-Chain-Head: abc123\n"; string(msg) != wantMsg {
		t.Errorf("message %q, want %q", msg, wantMsg)
	}
	// The last value of a key wins, as in git.
	if !slices.Contains(f.calls[1].Env, "GIT_AUTHOR_NAME=RX Laptop") || !slices.Contains(f.calls[1].Env, "GIT_COMMITTER_EMAIL=rx@lab.example") {
		t.Errorf("commit-tree env %q, want the configured identity", f.calls[1].Env)
	}
	for _, bad := range []struct{ tree, parent string }{{"HEAD", "HEAD"}, {idA, "--all"}, {idA[:12], "HEAD"}} {
		f := &fakeRunner{t: t}
		if _, err := (&Client{R: f}).CommitTree(t.Context(), bad.tree, bad.parent, "m", nil); err == nil || len(f.calls) != 0 {
			t.Errorf("CommitTree(%q, %q) = %v after %d calls; want refused before git runs", bad.tree, bad.parent, err, len(f.calls))
		}
	}
}

func TestCommitExplicitIdentitySkipsConfig(t *testing.T) {
	f := &fakeRunner{t: t, replies: []fakeReply{ok(""), ok(idA + "\n")}}
	c := &Client{R: f, Dir: "/repo", Identity: Identity{Name: "RX laptop", Email: "rx@lab"}}
	if _, err := c.Commit(t.Context(), "msg", nil); err != nil {
		t.Fatal(err)
	}
	if f.calls[0].Args[0] != "commit" {
		t.Fatalf("first command %q, want commit", f.calls[0].Args)
	}
	if !slices.Contains(f.calls[0].Env, "GIT_AUTHOR_NAME=RX laptop") || !slices.Contains(f.calls[0].Env, "GIT_COMMITTER_EMAIL=rx@lab") {
		t.Errorf("commit env %q lacks the identity", f.calls[0].Env)
	}
}

// TestRefusedBeforeGitRuns feeds option-injection and malformed values to
// every operation: each must return *invalidArgError and run nothing.
func TestRefusedBeforeGitRuns(t *testing.T) {
	tests := []struct {
		name string
		op   func(ctx context.Context, c *Client) error
	}{
		{"fetch branch --upload-pack", func(ctx context.Context, c *Client) error {
			return c.FetchBranch(ctx, "origin", "--upload-pack=touch /tmp/x")
		}},
		{"fetch remote --upload-pack", func(ctx context.Context, c *Client) error {
			return c.FetchBranch(ctx, "--upload-pack=touch /tmp/x", "rx-node")
		}},
		{"fetch remote url", func(ctx context.Context, c *Client) error {
			return c.FetchBranch(ctx, "ext::sh -c touch% /tmp/x", "rx-node")
		}},
		{"fetch branch with ..", func(ctx context.Context, c *Client) error { return c.FetchBranch(ctx, "origin", "a..b") }},
		{"fetch branch refspec", func(ctx context.Context, c *Client) error { return c.FetchBranch(ctx, "origin", "a:refs/heads/b") }},
		{"fetch branch forced", func(ctx context.Context, c *Client) error { return c.FetchBranch(ctx, "origin", "+main") }},
		{"resolve --output", func(ctx context.Context, c *Client) error {
			_, err := c.ResolveCommit(ctx, "--output=/tmp/x")
			return err
		}},
		{"resolve revision expression", func(ctx context.Context, c *Client) error {
			_, err := c.ResolveCommit(ctx, "HEAD~1")
			return err
		}},
		{"remote url -x", func(ctx context.Context, c *Client) error { _, err := c.RemoteURL(ctx, "-x"); return err }},
		{"ancestor --output", func(ctx context.Context, c *Client) error {
			_, err := c.IsAncestor(ctx, "--output=/tmp/x", idB)
			return err
		}},
		{"ancestor second", func(ctx context.Context, c *Client) error {
			_, err := c.IsAncestor(ctx, idA, "-x")
			return err
		}},
		{"ls-remote branch --upload-pack", func(ctx context.Context, c *Client) error {
			_, _, err := c.RemoteBranchExists(ctx, "origin", "--upload-pack=touch /tmp/x")
			return err
		}},
		{"ls-remote remote --upload-pack", func(ctx context.Context, c *Client) error {
			_, _, err := c.RemoteBranchExists(ctx, "--upload-pack=touch /tmp/x", "rx-node")
			return err
		}},
		{"entry short commit", func(ctx context.Context, c *Client) error { _, err := c.entry(ctx, "1234abc", "x.md"); return err }},
		{"entry path -x", func(ctx context.Context, c *Client) error { _, err := c.entry(ctx, idA, "-x"); return err }},
		{"show path ..", func(ctx context.Context, c *Client) error {
			_, err := c.ShowFile(ctx, idA, "../etc/passwd", 10)
			return err
		}},
		{"levels dir ..", func(ctx context.Context, c *Client) error {
			_, err := c.DirLevels(ctx, "HEAD", "docs/../x")
			return err
		}},
		{"levels dir magic", func(ctx context.Context, c *Client) error { _, err := c.DirLevels(ctx, "HEAD", ":(top)x"); return err }},
		{"levels rev -x", func(ctx context.Context, c *Client) error {
			_, err := c.DirLevels(ctx, "--output=/tmp/x", "docs")
			return err
		}},
		{"tree changes -x", func(ctx context.Context, c *Client) error { _, err := c.TreeChanges(ctx, "HEAD", "-R"); return err }},
		{"read blob ref", func(ctx context.Context, c *Client) error { _, err := c.ReadBlob(ctx, "HEAD:x", 10); return err }},
		{"write objects bad type", func(ctx context.Context, c *Client) error {
			return c.WriteObjects(ctx, []Object{{Type: "tag", Data: nil}})
		}},
		{"show zero limit", func(ctx context.Context, c *Client) error { _, err := c.ShowFile(ctx, idA, "x.md", 0); return err }},
		{"blob pathspec magic", func(ctx context.Context, c *Client) error {
			_, err := c.BlobSize(ctx, idA, ":(glob)**")
			return err
		}},
		{"clone url -u", func(ctx context.Context, c *Client) error {
			return c.CloneBranch(ctx, "--upload-pack=touch /tmp/x", "rx-node", "/tmp/c")
		}},
		{"clone ext url", func(ctx context.Context, c *Client) error {
			return c.CloneBranch(ctx, "ext::sh -c touch% /tmp/x", "rx-node", "/tmp/c")
		}},
		{"clone ssh proxy", func(ctx context.Context, c *Client) error {
			return c.CloneBranch(ctx, "ssh://-oProxyCommand=touch%20/tmp/x/r", "rx-node", "/tmp/c")
		}},
		{"clone branch", func(ctx context.Context, c *Client) error {
			return c.CloneBranch(ctx, "https://example.org/r.git", "--upload-pack=x", "/tmp/c")
		}},
		{"clone relative dir", func(ctx context.Context, c *Client) error {
			return c.CloneBranch(ctx, "https://example.org/r.git", "rx-node", "-c")
		}},
		{"temp clone url", func(ctx context.Context, c *Client) error {
			_, cleanup, err := c.TempClone(ctx, "-u", "rx-node")
			cleanup()
			return err
		}},
		{"add -x", func(ctx context.Context, c *Client) error { return c.Add(ctx, "ok.md", "-x") }},
		{"add nothing", func(ctx context.Context, c *Client) error { return c.Add(ctx) }},
		{"add .git", func(ctx context.Context, c *Client) error { return c.Add(ctx, ".git/config") }},
		{"check-ignore absolute", func(ctx context.Context, c *Client) error {
			_, err := c.CheckIgnored(ctx, "/etc/passwd")
			return err
		}},
		{"push branch --upload-pack", func(ctx context.Context, c *Client) error {
			return c.Push(ctx, "origin", "HEAD", "--upload-pack=touch /tmp/x")
		}},
		{"push remote --receive-pack", func(ctx context.Context, c *Client) error {
			return c.Push(ctx, "--receive-pack=touch /tmp/x", "HEAD", "rx-node")
		}},
		{"push forced source", func(ctx context.Context, c *Client) error { return c.Push(ctx, "origin", "+HEAD", "rx-node") }},
		{"commit trailer newline", func(ctx context.Context, c *Client) error {
			_, err := c.Commit(ctx, "msg", []Trailer{{"Key", "a\nSigned-off-by: x"}})
			return err
		}},
		{"commit trailer key", func(ctx context.Context, c *Client) error {
			_, err := c.Commit(ctx, "msg", []Trailer{{"Bad Key", "v"}})
			return err
		}},
		{"commit empty message", func(ctx context.Context, c *Client) error { _, err := c.Commit(ctx, " \n", nil); return err }},
		{"commit control char", func(ctx context.Context, c *Client) error { _, err := c.Commit(ctx, "a\x1b[2Jb", nil); return err }},
		{"commit bad identity", func(ctx context.Context, c *Client) error {
			c.Identity = Identity{Name: "x", Email: "a>b"}
			_, err := c.Commit(ctx, "msg", nil)
			return err
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &fakeRunner{t: t}
			err := tt.op(t.Context(), &Client{R: f, Dir: "/repo"})
			var inv *invalidArgError
			if !errors.As(err, &inv) {
				t.Fatalf("error %v (%T), want *invalidArgError", err, err)
			}
			if inv.Reason == "" || !strings.Contains(err.Error(), inv.Reason) {
				t.Errorf("error %q does not give its reason", err)
			}
			if len(f.calls) != 0 {
				t.Errorf("git ran %q; validation must refuse before running anything", f.argv())
			}
		})
	}
}

func TestCheckVersionRefusesOldGit(t *testing.T) {
	f := &fakeRunner{t: t, replies: []fakeReply{ok("git version 2.35.1\n")}}
	_, err := (&Client{R: f}).CheckVersion(t.Context())
	if err == nil || err.Error() != "git 2.35.1 is too old: rfhandoff needs 2.36 or newer" {
		t.Errorf("CheckVersion(2.35.1) = %v, want it refused as too old (fetch --refetch is 2.36)", err)
	}
}
