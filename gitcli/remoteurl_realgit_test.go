package gitcli_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"rfhandoff/exec"
	"rfhandoff/gitcli"
	"rfhandoff/internal/gittest"
)

// RemoteURL gives the checkout's remote URL only when git would fetch
// from and push to exactly it: a rewrite or a pushurl anywhere git reads
// config in the checkout (its own file, a file it includes, by include.path
// or includeIf, the global config) is refused, naming the setting and its
// file. Run against real git, so that the keys named are the ones git
// honours.
func TestRemoteURLRefusesRedirects(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		set  func(t *testing.T, co checkout, global, included string)
		want []string
	}{
		{"local insteadOf", func(t *testing.T, co checkout, _, _ string) {
			git(t, co, "config", "url.file:///evil.git.insteadOf", co.rem.URL)
		}, []string{"url.file:///evil.git.insteadOf = ", "rewrites it to file:///evil.git", filepath.Join(".git", "config")}},
		{"include.path", func(t *testing.T, co checkout, _, included string) {
			git(t, co, "config", "--file", included, "url.file:///evil.git.insteadOf", co.rem.URL)
			git(t, co, "config", "include.path", included)
		}, []string{"insteadOf", "in " + "INCLUDED"}},
		{"includeIf", func(t *testing.T, co checkout, _, included string) {
			git(t, co, "config", "--file", included, "url.file:///evil.git.insteadOf", co.rem.URL)
			appendText(t, filepath.Join(co.dir, ".git", "config"), `[includeIf "gitdir:`+filepath.ToSlash(co.dir)+`/"]`+"\n\tpath = "+filepath.ToSlash(included)+"\n")
		}, []string{"insteadOf", "in " + "INCLUDED"}},
		{"global pushInsteadOf", func(t *testing.T, co checkout, global, _ string) {
			git(t, co, "config", "--file", global, "url.file:///evil.git.pushInsteadOf", co.rem.URL)
		}, []string{"pushInsteadOf", "sends pushes to file:///evil.git", "in " + "GLOBAL"}},
		{"local pushurl", func(t *testing.T, co checkout, _, _ string) {
			git(t, co, "config", "remote.origin.pushurl", "file:///evil.git")
		}, []string{"remote.origin.pushurl = file:///evil.git", "sends pushes there"}},
		{"global url", func(t *testing.T, co checkout, global, _ string) {
			git(t, co, "config", "--file", global, "remote.origin.url", "file:///evil.git")
		}, []string{"remote.origin.url is set 2 times (file:///evil.git in GLOBAL"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			home := gittest.Home(t)
			rem := gittest.NewBareRemoteWith(t, gittest.RunnerWithHome(t, home), taskBranch)
			dir := gittest.Clone(t, rem, taskBranch)
			co := checkout{rem: rem, dir: dir, c: &gitcli.Client{R: rem.R, Dir: dir}}
			if u, err := co.c.RemoteURL(t.Context(), "origin"); err != nil || u != rem.URL {
				t.Fatalf("RemoteURL before = %q, %v; want %q", u, err, rem.URL)
			}
			global, included := filepath.Join(home, ".gitconfig"), filepath.Join(t.TempDir(), "included.cfg")
			c.set(t, co, global, included)
			u, err := co.c.RemoteURL(t.Context(), "origin")
			if err == nil {
				t.Fatalf("RemoteURL = %q, want a refusal", u)
			}
			for _, w := range c.want {
				w = strings.NewReplacer("GLOBAL", global, "INCLUDED", included).Replace(w)
				if !strings.Contains(err.Error(), w) {
					t.Errorf("refusal lacks %q:\n%v", w, err)
				}
			}
		})
	}
}

func appendText(t *testing.T, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
}

// A temporary clone pushes only where it came from: a pushInsteadOf in
// the global config (which the clone's own config cannot override) makes
// TempClone refuse, naming it, before anything could be pushed; without
// it the clone's calls to the remote name its URL on their audit lines.
func TestTempCloneRefusesAPushRedirect(t *testing.T) {
	t.Parallel()
	home := gittest.Home(t)
	r := gittest.RunnerWithHome(t, home)
	rem := gittest.NewBareRemoteWith(t, r, resultBranch)
	g := &gitcli.Client{R: r}
	before := len(readAudit(t, r.AuditLog().Path())) // the fixture's own calls
	clone, cleanup, err := g.TempClone(t.Context(), rem.URL, resultBranch)
	defer cleanup()
	if err != nil {
		t.Fatal(err)
	}
	head, err := clone.Head(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if err := clone.Push(t.Context(), "origin", head, resultBranch); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range readAudit(t, r.AuditLog().Path())[before:] {
		if e.Event == exec.EventStart && (slices.Contains(e.Argv, "clone") || slices.Contains(e.Argv, "push")) {
			n++
			if e.Remote != rem.URL {
				t.Errorf("%q on record with remote %q, want %s", e.Argv, e.Remote, rem.URL)
			}
		}
	}
	if n != 2 {
		t.Errorf("%d clone and push start lines, want 2", n)
	}

	global := filepath.Join(home, ".gitconfig")
	gittest.Git(t, r, t.TempDir(), "config", "--file", global, "url.file:///elsewhere.git.pushInsteadOf", rem.URL)
	_, cleanup2, err := g.TempClone(t.Context(), rem.URL, resultBranch)
	defer cleanup2()
	if err == nil || !strings.Contains(err.Error(), "pushInsteadOf") || !strings.Contains(err.Error(), global) {
		t.Fatalf("TempClone with a global pushInsteadOf: %v, want a refusal naming it and %s", err, global)
	}
}

func readAudit(t *testing.T, path string) []exec.Entry {
	t.Helper()
	es, err := exec.ReadAuditTail(path, 0)
	if err != nil {
		t.Fatal(err)
	}
	return es
}
