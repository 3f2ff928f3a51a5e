package gitcli_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"rfhandoff/gitcli"
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
	blocked := filepath.Join(co.dir, "README.md", "x")
	if err := co.c.MakePrivateDir(t.Context(), co.dir, blocked, "capture directory"); err == nil || !strings.HasPrefix(err.Error(), "capture directory: ") {
		t.Errorf("MakePrivateDir under a file = %v; want an error naming the capture directory", err)
	}
}
