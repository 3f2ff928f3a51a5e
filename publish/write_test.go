package publish_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"rfhandoff/internal/gittest"
	"rfhandoff/internal/publishtest"
	"rfhandoff/publish"
)

// TestUnsafeResultPathsRefused: whatever the result branch holds at the
// result path, publish never writes through a symlink or into something
// that is not a plain directory; the remote is untouched, nothing outside
// the clone is written, and the clone is removed.
func TestUnsafeResultPathsRefused(t *testing.T) {
	cases := []struct {
		name  string
		files map[string]string
		path  string // the path the refusal must name
		why   string
	}{
		{"results directory is a symlink",
			map[string]string{"docs/handoff/results": "symlink:../../outside", "outside/README.md": "x\n"},
			"docs/handoff/results", "is a symlink"},
		{"docs is a symlink to an absolute path",
			map[string]string{"docs": "symlink:/tmp"},
			"docs", "is a symlink"},
		{"RX_RESULT.json is a symlink",
			map[string]string{"docs/handoff/results/RX_RESULT.json": "symlink:../../../README.md", "README.md": "x\n"},
			"docs/handoff/results/RX_RESULT.json", "is a symlink"},
		{"RX_RESULT.md is a dangling symlink",
			map[string]string{"docs/handoff/results/RX_RESULT.md": "symlink:/nonexistent/target"},
			"docs/handoff/results/RX_RESULT.md", "is a symlink"},
		{"results is a file",
			map[string]string{"docs/handoff/results": "not a directory\n"},
			"docs/handoff/results", "is not a directory (a regular file)"},
		{"RX_RESULT.json is a directory",
			map[string]string{"docs/handoff/results/RX_RESULT.json/x": "nested\n"},
			"docs/handoff/results/RX_RESULT.json", "is not a regular file (a directory)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tmp := privateTemp(t)
			f := publishtest.New(t, publishtest.Options{ResultFiles: tc.files})
			refs, snap := f.Refs(t), f.Snapshot(t)
			_, err := publish.Publish(t.Context(), f.Deps(), publishtest.Encode(t, f.Ready()))
			if err == nil || !strings.HasPrefix(err.Error(), "refusing to write the result: "+tc.path+" ") ||
				!strings.Contains(err.Error(), tc.why) || !strings.HasSuffix(err.Error(), " on the result branch") {
				t.Fatalf("error %v, want %s refused (%s)", err, tc.path, tc.why)
			}
			unchanged(t, f, refs, snap)
			if left := leftovers(t, tmp); len(left) > 0 {
				t.Errorf("temporary clones left behind: %v", left)
			}
			if _, err := os.Stat(filepath.Join(tmp, "RX_RESULT.json")); err == nil {
				t.Error("a symlink was followed out of the clone")
			}
		})
	}
}

// TestExistingResultReplaced: an earlier result (even one committed with
// an executable bit) is replaced by a regular 100644 file.
func TestExistingResultReplaced(t *testing.T) {
	t.Parallel()
	f := publishtest.New(t, publishtest.Options{})
	// An old result committed as 100755.
	work := filepath.Join(t.TempDir(), "w")
	gittest.Git(t, f.Runner, filepath.Dir(work), "clone", "--quiet", "--branch", f.Policy.Repo.ResultBranch, "--end-of-options", f.Remote.URL, work)
	p := filepath.Join(work, "docs", "handoff", "results", "RX_RESULT.json")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("{}\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	gittest.Git(t, f.Runner, work, "add", "--all")
	gittest.Git(t, f.Runner, work, "commit", "--quiet", "-m", "old result")
	gittest.Git(t, f.Runner, work, "push", "--quiet", "origin", "HEAD:refs/heads/"+f.Policy.Repo.ResultBranch)

	out, err := publish.Publish(t.Context(), f.Deps(), publishtest.Encode(t, f.Ready()))
	if err != nil {
		t.Fatal(err)
	}
	line := bareGit(t, f, "ls-tree", out.Commit, "--", "docs/handoff/results/RX_RESULT.json")
	if !strings.HasPrefix(line, "100644 blob ") {
		t.Errorf("tree entry %q, want a 100644 blob", line)
	}
}

// TestBranchAttributesCannotTransformOrRunFilters: the result branch's
// .gitattributes names a clean filter that the operator's git
// configuration defines, and asks for line-ending conversion. Publishing
// must neither run the filter nor change a byte.
func TestBranchAttributesCannotTransformOrRunFilters(t *testing.T) {
	t.Parallel()
	home := gittest.Home(t)
	marker := filepath.Join(t.TempDir(), "filter-ran")
	smudged := filepath.Join(t.TempDir(), "smudge-ran")
	cfg := "[user]\n\tname = gittest\n\temail = gittest@example.invalid\n[init]\n\tdefaultBranch = main\n" +
		"[core]\n\tautocrlf = true\n" +
		// Forward slashes: a backslash starts an escape in a git config value.
		"[filter \"upper\"]\n\tclean = touch " + filepath.ToSlash(marker) + " && tr a-z A-Z\n" +
		"\tsmudge = touch " + filepath.ToSlash(smudged) + " && cat\n"
	if err := os.WriteFile(filepath.Join(home, ".gitconfig"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	r := gittest.RunnerWithHome(t, home)
	f := publishtest.New(t, publishtest.Options{Runner: r, ResultFiles: map[string]string{
		"README.md":      "results\n",
		".gitattributes": "* text eol=crlf filter=upper\n",
	}})
	for _, m := range []string{marker, smudged} { // seeding may have run them
		if err := os.Remove(m); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
	}
	// CRLF line endings are valid JSON whitespace; "* text" would
	// normalise them on add.
	data := []byte(strings.ReplaceAll(string(publishtest.Encode(t, f.Ready())), "\n", "\r\n"))
	out, err := publish.Publish(t.Context(), f.Deps(), data)
	if err != nil {
		t.Fatal(err)
	}
	if got := bareGit(t, f, "cat-file", "blob", out.Commit+":docs/handoff/results/RX_RESULT.json"); got != string(data) {
		t.Errorf("committed RX_RESULT.json differs from the input bytes:\n%q", got)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the branch's clean filter ran during publish")
	}
	// The clone is never checked out: no smudge filter can run either.
	if _, err := os.Stat(smudged); err == nil {
		t.Error("the branch's smudge filter ran while cloning")
	}
}
