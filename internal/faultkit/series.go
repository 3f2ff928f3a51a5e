package faultkit

import (
	"path/filepath"
	"strings"
	"testing"

	"rfhandoff/exec"
	"rfhandoff/internal/gittest"
)

// SignedSeries commits each of steps (files as in SignedSeed) in turn on
// top of branch in rem, each signed with signingKey ("" unsigned), and
// pushes them all with one push: a watcher polling the branch sees the
// branch move once, from its old tip to the last commit, whatever it
// polled in between. It returns the commits, oldest first.
func SignedSeries(t testing.TB, rem *gittest.Remote, branch, signingKey string, steps ...map[string]string) []string {
	t.Helper()
	work := filepath.Join(t.TempDir(), "series")
	gittest.Git(t, rem.R, filepath.Dir(work), "clone", "--quiet", "--single-branch", "--branch", branch, "--end-of-options", rem.URL, work)
	var ids []string
	for _, files := range steps {
		gittest.WriteFiles(t, work, files)
		gittest.Git(t, rem.R, work, "add", "--all")
		c := exec.Cmd{Tool: exec.Git, Dir: work,
			Args: []string{"commit", "--quiet", "--allow-empty", "--no-gpg-sign", "-m", "faultkit unsigned " + branch}}
		if signingKey != "" {
			c.Args = []string{"commit", "--quiet", "--allow-empty", "-S", "-m", "faultkit signed " + branch}
			c.Signatures = &exec.Signatures{SigningKey: signingKey}
		}
		if _, err := rem.R.Run(t.Context(), c); err != nil {
			t.Fatalf("faultkit: commit %d of the series: %v", len(ids)+1, err)
		}
		ids = append(ids, strings.TrimSpace(gittest.Git(t, rem.R, work, "rev-parse", "HEAD")))
	}
	gittest.Git(t, rem.R, work, "push", "--quiet", "--end-of-options", rem.URL, "HEAD:refs/heads/"+branch)
	return ids
}
