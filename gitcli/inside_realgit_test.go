package gitcli_test

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"rfhandoff/gitcli"
	"rfhandoff/internal/gittest"
)

func TestRequireIgnored(t *testing.T) {
	t.Parallel()
	co := newCheckout(t)
	exclude := "/.local/\n/cache/*\n"
	if err := os.WriteFile(filepath.Join(co.dir, ".git", "info", "exclude"), []byte(exclude), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, dir string
		rel       string // the refused directory's Rel; "-" when it passes
	}{
		{"ignored, missing", filepath.Join(co.dir, ".local"), "-"},
		{"below an ignored directory", filepath.Join(co.dir, ".local", "captures", "T1"), "-"},
		{"its content ignored", filepath.Join(co.dir, "cache"), "-"},
		{"outside the checkout", t.TempDir(), "-"},
		{"not ignored", filepath.Join(co.dir, "captures"), "captures"},
		{"not ignored, nested", filepath.Join(co.dir, "docs", "state"), "docs/state"},
		{"the checkout itself", co.dir, ""},
	}
	for _, c := range cases {
		err := co.c.RequireIgnored(t.Context(), co.dir, c.dir, "state directory")
		var ni *gitcli.NotIgnoredError
		switch {
		case c.rel == "-" && err != nil:
			t.Errorf("%s: RequireIgnored(%s) = %v; want nil", c.name, c.dir, err)
		case c.rel == "-":
		case !errors.As(err, &ni) || filepath.ToSlash(ni.Rel) != c.rel || ni.Dir != c.dir:
			t.Errorf("%s: RequireIgnored(%s) = %v; want *NotIgnoredError with Rel %q", c.name, c.dir, err, c.rel)
		case !strings.HasPrefix(err.Error(), "state directory "+c.dir+" is "):
			t.Errorf("%s: message does not name what and where: %v", c.name, err)
		case c.rel != "" && !strings.Contains(err.Error(), "/"+c.rel+"/"):
			t.Errorf("%s: message lacks the exclude line /%s/: %v", c.name, c.rel, err)
		case c.rel == "" && !strings.Contains(err.Error(), "the checkout itself"):
			t.Errorf("%s: message does not say it is the checkout: %v", c.name, err)
		}
		if _, serr := os.Stat(c.dir); c.name == "ignored, missing" && !errors.Is(serr, os.ErrNotExist) {
			t.Errorf("%s: RequireIgnored created %s: %v", c.name, c.dir, serr)
		}
	}
	// Outside a repository git fails with 128: an error, never a pass.
	out := &gitcli.Client{R: co.rem.R, Dir: t.TempDir()}
	var ni *gitcli.NotIgnoredError
	if err := out.RequireIgnored(t.Context(), out.Dir, filepath.Join(out.Dir, ".local"), "state directory"); err == nil || errors.As(err, &ni) {
		t.Errorf("RequireIgnored outside a repository = %v; want a git error", err)
	}
}

// A file git tracks in the state directory (or at a trusted path) is
// refused, naming it; one git only ignores, and paths outside the
// checkout, pass. git tracks it once a commit brought it in, as a pull of
// a branch holding .local/rx_agent_state.json does (over the ignored
// file that was there).
func TestRequireUntracked(t *testing.T) {
	t.Parallel()
	co := newCheckout(t)
	if err := os.WriteFile(filepath.Join(co.dir, ".git", "info", "exclude"), []byte("/.local/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	local := filepath.Join(co.dir, ".local")
	if err := os.MkdirAll(local, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(local, "rx_agent_state.json"), []byte("{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// A name that is a glob elsewhere is a literal path here, and a file
	// the glob would match stays out (Windows allows no * in a file name).
	glob, match := "task signers*", "task signers-old"
	if runtime.GOOS == "windows" {
		glob, match = "task signers[1]", "task signers1"
	}
	signers := filepath.Join(co.dir, "keys", glob)
	if err := co.c.RequireUntracked(t.Context(), co.dir, local, signers, t.TempDir()); err != nil {
		t.Fatalf("ignored, untracked: %v", err)
	}
	if err := co.c.RequireUntracked(t.Context(), co.dir, t.TempDir()); err != nil {
		t.Fatalf("outside the checkout: %v", err)
	}
	if err := os.MkdirAll(filepath.Dir(signers), 0o700); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{signers, filepath.Join(co.dir, "keys", match)} {
		if err := os.WriteFile(f, []byte("x\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// As a commit from elsewhere would: tracked, and still ignored here.
	exclude := filepath.Join(co.dir, ".git", "info", "exclude")
	if err := os.WriteFile(exclude, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, co, "add", "--", ".local/rx_agent_state.json", "keys")
	git(t, co, "commit", "-q", "-m", "bring in state and signers")
	if err := os.WriteFile(exclude, []byte("/.local/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := co.c.RequireUntracked(t.Context(), co.dir, local, signers)
	for _, want := range []string{"git tracks .local/rx_agent_state.json, keys/" + glob + " in " + co.dir, "cannot be trusted",
		"`git rm --cached -- .local/rx_agent_state.json`"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("tracked state and signers: %v\nwant %q", err, want)
		}
	}
	// The pathspec is literal: the glob's name names one file.
	if err != nil && strings.Contains(err.Error(), match) {
		t.Errorf("a trusted path was read as a glob: %v", err)
	}
}

func TestMakePrivateDir(t *testing.T) {
	t.Parallel()
	co := newCheckout(t)
	if err := os.WriteFile(filepath.Join(co.dir, ".git", "info", "exclude"), []byte("/.local/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ok := filepath.Join(co.dir, ".local", "captures")
	if err := co.c.MakePrivateDir(t.Context(), co.dir, ok, "capture directory"); err != nil {
		t.Fatalf("MakePrivateDir(%s) = %v", ok, err)
	}
	if fi, err := os.Stat(ok); err != nil || !private(fi) {
		t.Errorf("%s: %v, %v; want a private (0700) directory", ok, fi, err)
	}
	bad := filepath.Join(co.dir, "captures")
	var ni *gitcli.NotIgnoredError
	if err := co.c.MakePrivateDir(t.Context(), co.dir, bad, "capture directory"); !errors.As(err, &ni) || ni.What != "capture directory" {
		t.Errorf("MakePrivateDir(%s) = %v; want *NotIgnoredError for the capture directory", bad, err)
	}
	if _, err := os.Lstat(bad); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the refused %s was created: %v", bad, err)
	}
	if err := os.WriteFile(filepath.Join(co.dir, ".local", "file"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	blocked := filepath.Join(co.dir, ".local", "file", "x")
	if err := co.c.MakePrivateDir(t.Context(), co.dir, blocked, "capture directory"); err == nil || !strings.HasPrefix(err.Error(), "capture directory: ") {
		t.Errorf("MakePrivateDir under a file = %v; want an error naming the capture directory", err)
	}
}

// The refusal's advice names the exclude file git reads: in a linked
// worktree (no .git directory of its own) the main repository's, and
// never a .git/info/exclude below a subdirectory.
func TestRequireIgnoredNamesTheRealExcludeFile(t *testing.T) {
	t.Parallel()
	co := newCheckout(t)
	wt := gittest.LinkedWorktree(t, co.rem.R, co.dir)
	for _, c := range []struct{ name, repo, exclude string }{
		{"checkout", co.dir, filepath.Join(co.dir, ".git", "info", "exclude")},
		{"linked worktree", wt, filepath.Join(co.dir, ".git", "info", "exclude")},
	} {
		cl := &gitcli.Client{R: co.rem.R, Dir: c.repo}
		err := cl.RequireIgnored(t.Context(), c.repo, filepath.Join(c.repo, ".local"), "state directory")
		var ni *gitcli.NotIgnoredError
		if !errors.As(err, &ni) {
			t.Fatalf("%s: %v; want a *NotIgnoredError", c.name, err)
		}
		real, _ := filepath.EvalSymlinks(filepath.Dir(c.exclude))
		got, _ := filepath.EvalSymlinks(filepath.Dir(ni.Exclude))
		if got != real || filepath.Base(ni.Exclude) != "exclude" || !strings.Contains(err.Error(), "add the line /.local/ to "+ni.Exclude) {
			t.Errorf("%s: exclude %q, want %q: %v", c.name, ni.Exclude, c.exclude, err)
		}
		if _, err := os.Lstat(filepath.Join(c.repo, ".local")); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s: .local created: %v", c.name, err)
		}
	}
}

// RequireTop passes the top of a checkout or a linked worktree and
// refuses a subdirectory (naming the top) and a directory in no checkout
// (with git's own sentence, not its command line).
func TestRequireTop(t *testing.T) {
	t.Parallel()
	co := newCheckout(t)
	wt := gittest.LinkedWorktree(t, co.rem.R, co.dir)
	sub := filepath.Join(co.dir, "docs", "handoff")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	outside := t.TempDir()
	for _, c := range []struct {
		name, dir string
		top       bool   // passes
		want      string // in the refusal
	}{
		{"top", co.dir, true, ""},
		{"linked worktree", wt, true, ""},
		{"subdirectory", sub, false, "git says the top is "},
		{"inside .git", filepath.Join(co.dir, ".git"), false, "for no checkout's work tree"},
		{"outside", outside, false, "not a git repository"},
	} {
		err := (&gitcli.Client{R: co.rem.R, Dir: c.dir}).RequireTop(t.Context())
		switch {
		case c.top && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.top:
		case err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "nothing was written"):
			t.Errorf("%s: %v; want a refusal saying %q and that nothing was written", c.name, err, c.want)
		case strings.Contains(err.Error(), "core.hooksPath") || strings.Contains(err.Error(), "-c "):
			t.Errorf("%s: the refusal holds git's command line: %v", c.name, err)
		}
	}
}

// With Ignored set, a directory confirmed ignored is not asked about
// again in the process; one git refused is asked again every time (a
// refusal is never remembered), and a client without Ignored always asks.
func TestRequireIgnoredAsksOncePerProcess(t *testing.T) {
	t.Parallel()
	co := newCheckout(t)
	if err := os.WriteFile(filepath.Join(co.dir, ".git", "info", "exclude"), []byte("/.local/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rec := &gittest.Recorder{Runner: co.rem.R}
	seen := &gitcli.IgnoredDirs{}
	with := &gitcli.Client{R: rec, Dir: co.dir, Ignored: seen}
	without := &gitcli.Client{R: rec, Dir: co.dir}
	local, open := filepath.Join(co.dir, ".local"), filepath.Join(co.dir, "captures")
	calls := func(c *gitcli.Client, dir string, wantErr bool) int {
		t.Helper()
		for range 2 {
			if err := c.RequireIgnored(t.Context(), co.dir, dir, "state directory"); (err != nil) != wantErr {
				t.Fatalf("RequireIgnored(%s) = %v, want error %v", dir, err, wantErr)
			}
		}
		n := 0
		for _, argv := range rec.Take() {
			if slices.Contains(argv, "check-ignore") {
				n++
			}
		}
		return n
	}
	if n := calls(with, local, false); n != 1 {
		t.Errorf("an ignored directory twice with Ignored: %d check-ignore calls, want 1", n)
	}
	if n := calls(&gitcli.Client{R: rec, Dir: co.dir, Ignored: seen}, local, false); n != 0 {
		t.Errorf("another client sharing Ignored: %d check-ignore calls, want 0", n)
	}
	if n := calls(with, open, true); n != 2 {
		t.Errorf("a refused directory twice: %d check-ignore calls, want 2", n)
	}
	if n := calls(without, local, false); n != 2 {
		t.Errorf("without Ignored: %d check-ignore calls, want 2", n)
	}
}
