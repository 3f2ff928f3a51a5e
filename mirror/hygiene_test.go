package mirror_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"rfhandoff/internal/gittest"
	"rfhandoff/localfile"
	"rfhandoff/mirror"
)

// Every git call in the mirror forbids git's own lazy fetch of a missing
// object: only the mirror's bounded, audited fetches bring objects.
func TestMirrorGitForbidsLazyFetch(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	gittest.Seed(t, f.rem, branch, map[string]string{taskPath: "a\n"})
	rec := &gittest.Recorder{Runner: f.checkout.R}
	f.checkout.R = rec
	m := f.open(t)
	tip := f.fetch(t, m)
	if _, err := m.ShowFile(t.Context(), tip, taskPath, 1<<20); err != nil {
		t.Fatal(err)
	}
	cmds := rec.TakeCmds()
	inMirror := 0
	for _, c := range cmds {
		// The mirror, or the directory a rebuild makes beside it; the
		// checkout's own call (its remote URL) has no GIT_DIR.
		if !slices.ContainsFunc(c.Env, func(kv string) bool { return strings.HasPrefix(kv, "GIT_DIR="+f.dir) }) {
			continue
		}
		inMirror++
		if !slices.Contains(c.Env, "GIT_NO_LAZY_FETCH=1") {
			t.Errorf("git %v runs in the mirror without GIT_NO_LAZY_FETCH=1 (env %q)", c.Args, c.Env)
		}
	}
	if inMirror < 3 {
		t.Fatalf("only %d git calls ran in the mirror (of %d): the test saw nothing", inMirror, len(cmds))
	}
}

// A write of the anchors file or the withheld list killed between its
// temp file and the rename leaves the temp file; the next Open removes it
// and nothing else.
func TestOpenRemovesTempFilesOfKilledWrites(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := gittest.Seed(t, f.rem, branch, map[string]string{taskPath: "a\n"})
	m := f.open(t)
	if got := f.fetch(t, m); got != c {
		t.Fatalf("fetched %s, want %s", got, c)
	}
	anchors := mirror.AnchorsPath(f.dir)
	before, err := os.ReadFile(anchors)
	if err != nil {
		t.Fatal(err)
	}
	var leftovers []string
	// The withheld list lives inside the mirror (withheld.go).
	for _, p := range []string{anchors, filepath.Join(f.dir, "rfhandoff-withheld")} {
		tmp, err := localfile.CreateTemp(p)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tmp.WriteString("half a wri"); err != nil {
			t.Fatal(err)
		}
		tmp.Close()
		leftovers = append(leftovers, tmp.Name())
	}
	unrelated := filepath.Join(filepath.Dir(f.dir), "operator-notes.txt")
	if err := os.WriteFile(unrelated, []byte("keep\n"), 0o600); err != nil {
		t.Fatal(err)
	}

	m = f.open(t)
	for _, p := range leftovers {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("Open left the temp file %s (stat: %v)", p, err)
		}
	}
	if _, err := os.Stat(unrelated); err != nil {
		t.Errorf("Open removed a file that is not its own: %v", err)
	}
	after, err := os.ReadFile(anchors)
	if err != nil || string(after) != string(before) {
		t.Errorf("anchors after Open: %q, %v; want %q unchanged", after, err, before)
	}
	if got := f.fetch(t, m); got != c {
		t.Fatalf("after the clean-up: fetched %s, want %s", got, c)
	}
}
