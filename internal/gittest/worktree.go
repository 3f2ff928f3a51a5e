package gittest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"rfhandoff/exec"
)

// LinkedWorktree makes a linked worktree of the checkout dir by hand, as
// git worktree add lays it out (a subcommand rfhandoff's runner does not
// allow): a .git file naming its directory under the checkout's
// .git/worktrees, which names the common directory and the worktree
// back. It returns the worktree's directory.
func LinkedWorktree(t testing.TB, r exec.Runner, dir string) string {
	t.Helper()
	wt := filepath.Join(t.TempDir(), "wt")
	admin := filepath.Join(dir, ".git", "worktrees", "wt")
	head := strings.TrimSpace(Git(t, r, dir, "rev-parse", "HEAD"))
	for path, data := range map[string]string{
		filepath.Join(wt, ".git"):         "gitdir: " + admin + "\n",
		filepath.Join(admin, "HEAD"):      head + "\n",
		filepath.Join(admin, "commondir"): "../..\n",
		filepath.Join(admin, "gitdir"):    filepath.Join(wt, ".git") + "\n",
	} {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return wt
}
