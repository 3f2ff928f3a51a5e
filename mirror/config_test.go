package mirror_test

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"rfhandoff/config"
	"rfhandoff/gitcli"
	"rfhandoff/internal/gittest"
	"rfhandoff/mirror"
)

// The mirror's config is rfhandoff's byte for byte (finding 8 of issue
// 29): once someone else changes it, no git call runs in the mirror (a
// read is refused, naming the mirror), and the next fetch rebuilds it
// with a warning naming what was set; the rebuilt mirror serves the
// remote's branch again.
func TestMirrorConfigChangedIsRefusedThenRebuilt(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name   string
		tamper func(t *testing.T, f *fixture)
		logged string
	}{
		{"insteadOf", func(t *testing.T, f *fixture) {
			gittest.Git(t, f.rem.R, f.dir, "config", "url.file:///elsewhere.git.insteadOf", f.rem.URL)
		}, "someone set url.file:///elsewhere.git.insteadof=" + f0URL},
		{"replace refs", func(t *testing.T, f *fixture) {
			gittest.Git(t, f.rem.R, f.dir, "config", "core.useReplaceRefs", "true")
		}, "someone set core.usereplacerefs=true"},
		{"include", func(t *testing.T, f *fixture) {
			gittest.Git(t, f.rem.R, f.dir, "config", "include.path", "/elsewhere.cfg")
		}, "someone set include.path=/elsewhere.cfg"},
		{"a second url", func(t *testing.T, f *fixture) {
			gittest.Git(t, f.rem.R, f.dir, "config", "remote.origin.url", "file:///elsewhere.git")
		}, "someone set remote.origin.url=file:///elsewhere.git"},
		{"commondir", func(t *testing.T, f *fixture) {
			if err := os.WriteFile(filepath.Join(f.dir, "commondir"), []byte("/elsewhere.git\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}, "it has a commondir file"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			tip := gittest.Seed(t, f.rem, branch, map[string]string{taskPath: "TASK_ID = T1\n"})
			m := f.open(t)
			f.fetch(t, m)
			c.tamper(t, f)
			_, err := m.ResolveCommit(t.Context(), "refs/remotes/origin/"+branch)
			if err == nil || !strings.Contains(err.Error(), f.dir) || !strings.Contains(err.Error(), "refusing to run git in it") {
				t.Fatalf("a read in the changed mirror: %v, want a refusal naming it", err)
			}
			if got := f.fetch(t, m); got != tip {
				t.Fatalf("after the rebuild the tracking ref is %s, want %s", got, tip)
			}
			want := strings.ReplaceAll(c.logged, f0URL, f.rem.URL)
			if logs := f.logs.String(); !strings.Contains(logs, "rebuilt the mirror") || !strings.Contains(logs, want) {
				t.Fatalf("the rebuild's warning does not name %q:\n%s", want, logs)
			}
			data, err := os.ReadFile(filepath.Join(f.dir, "config"))
			if err != nil || strings.Contains(string(data), "elsewhere") || strings.Contains(string(data), "eplace") {
				t.Fatalf("the rebuilt mirror's config: %q, %v", data, err)
			}
		})
	}
}

// f0URL stands for the fixture remote's URL in a wanted log line.
const f0URL = "<remote>"

// A mirror opened with a changed config is rebuilt at once, and a fresh
// process (Open) never uses it as it is.
func TestMirrorOpenRebuildsAChangedConfig(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	m := f.open(t)
	f.fetch(t, m)
	gittest.Git(t, f.rem.R, f.dir, "config", "core.useReplaceRefs", "true")
	f.open(t)
	if logs := f.logs.String(); !strings.Contains(logs, "rebuilt the mirror: its config is not the one rfhandoff wrote: someone set core.usereplacerefs=true") {
		t.Fatalf("Open did not rebuild the changed mirror, naming the change:\n%s", logs)
	}
}

// Open refuses a remote that the global config redirects (a pushInsteadOf
// the publisher's clone would obey, a second URL listed before the
// mirror's own), naming the setting and the file.
func TestMirrorOpenRefusesAGlobalRedirect(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		// Seen under Wine only: the mirror's git.exe did not read the
		// test's global config (Open passed, and so would its fetch, which
		// reads the same files); the checkout's check of a global
		// redirect ran (gitcli's TestTempCloneRefusesAPushRedirect).
		t.Skip("under Wine the mirror's git.exe does not read the test's global config (real Windows not tried)")
	}
	for _, kv := range [][2]string{
		{"url.file:///elsewhere.git.pushInsteadOf", "file://"},
		{"url.file:///elsewhere.git.insteadOf", "file://"},
		{"remote.origin.url", "file:///elsewhere.git"},
	} {
		t.Run(kv[0], func(t *testing.T) {
			t.Parallel()
			home := gittest.Home(t)
			rem := gittest.NewBareRemoteWith(t, gittest.RunnerWithHome(t, home), branch)
			co := &gitcli.Client{R: rem.R, Dir: gittest.Clone(t, rem, branch)}
			// Set after the clone: the fixture's own git reads it too.
			global := filepath.Join(home, ".gitconfig")
			gittest.Git(t, rem.R, t.TempDir(), "config", "--file", global, kv[0], kv[1])
			// The checkout's check would see it first; the policy's URL
			// skips the checkout, so that the mirror's own check is shown.
			_, err := mirror.Open(t.Context(), co, config.Repo{Remote: "origin", URL: rem.URL}, filepath.Join(t.TempDir(), mirror.RXName), nil)
			if err == nil || !strings.Contains(err.Error(), "file:///elsewhere.git") || !strings.Contains(err.Error(), global) {
				t.Fatalf("Open with %s = %s in the global config: %v, want a refusal naming it and %s", kv[0], kv[1], err, global)
			}
		})
	}
}

// With the policy's repo.url the checkout's remote config is never read:
// a rewrite there changes nothing, and the mirror fetches from the URL the
// policy names (a local path relative to the checkout).
func TestMirrorPolicyURL(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("a local-path remote makes git.exe spawn upload-pack through sh, which the Wine setup lacks (its fixtures serve remotes with git daemon)")
	}
	f := newFixture(t)
	tip := gittest.Seed(t, f.rem, branch, map[string]string{taskPath: "TASK_ID = T1\n"})
	if err := os.MkdirAll(filepath.Dir(f.dir), 0o700); err != nil {
		t.Fatal(err)
	}
	gittest.Git(t, f.rem.R, f.checkout.Dir, "config", "url.file:///elsewhere.git.insteadOf", f.rem.URL)
	if _, err := mirror.Open(t.Context(), f.checkout, config.Repo{Remote: "origin"}, f.dir, nil); err == nil ||
		!strings.Contains(err.Error(), "insteadOf") || !strings.Contains(err.Error(), "[repo] url") {
		t.Fatalf("Open with a rewrite in the checkout: %v, want a refusal naming it and the policy's [repo] url", err)
	}
	rel, err := filepath.Rel(f.checkout.Dir, f.rem.Dir)
	if err != nil {
		t.Fatal(err)
	}
	m, err := mirror.Open(t.Context(), f.checkout, config.Repo{Remote: "origin", URL: rel}, f.dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := gitcli.AbsoluteURL(rel, f.checkout.Dir); m.URL != want {
		t.Errorf("mirror URL %s, want %s", m.URL, want)
	}
	if got := f.fetch(t, m); got != tip {
		t.Errorf("tracking ref %s, want %s", got, tip)
	}
}
