package gitcli_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"rfhandoff/gitcli"
	"rfhandoff/internal/gittest"
)

func TestBlobID(t *testing.T) {
	// git hash-object of an empty file and of "hello\n".
	for data, want := range map[string]string{
		"":        "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391",
		"hello\n": "ce013625030ba8dba906f756967f9e9ca394464a",
	} {
		if got := gitcli.BlobID([]byte(data)); got != want {
			t.Errorf("BlobID(%q) = %s, want %s", data, got, want)
		}
	}
}

// TestReplaceInDirMatchesGitsOwnTree: the trees built from objects equal,
// ID for ID, what git's index makes of the same change (names chosen to
// exercise git's ordering of a directory against its file neighbours),
// and the commit made from them reads back as exactly the two new files.
func TestReplaceInDirMatchesGitsOwnTree(t *testing.T) {
	t.Parallel()
	for _, dir := range []string{"docs/handoff/results", "new/deep"} {
		t.Run(dir, func(t *testing.T) {
			t.Parallel()
			rem := gittest.NewBareRemote(t)
			gittest.Seed(t, rem, "rx-node", map[string]string{
				"README.md": "r\n", "docs.txt": "d\n", "docs-a": "a\n", "docs/x": "x\n",
				"docs/handoff/y": "y\n", "docs/handoff/results/old.txt": "old\n",
				"docs/handoff/results/RX_RESULT.md": "previous\n", "docs/handoff/results.md": "m\n",
				"other/z": "z\n",
			})
			ctx := t.Context()
			clone, cleanup, err := (&gitcli.Client{R: rem.R}).TempClone(ctx, rem.URL, "rx-node")
			t.Cleanup(cleanup)
			if err != nil {
				t.Fatal(err)
			}
			levels, err := clone.DirLevels(ctx, "HEAD", dir)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, e := range levels {
				got = append(got, e.Path)
			}
			want := []string{"README.md", "docs", "docs-a", "docs.txt", "other"}
			if dir == "docs/handoff/results" {
				want = []string{"README.md", "docs", "docs-a", "docs.txt", "docs/handoff", "docs/handoff/results",
					"docs/handoff/results.md", "docs/handoff/results/RX_RESULT.md", "docs/handoff/results/old.txt",
					"docs/handoff/y", "docs/x", "other"}
			}
			slices.Sort(got) // git lists in tree order (docs-a, docs.txt, docs)
			if !slices.Equal(got, want) {
				t.Fatalf("DirLevels = %q\nwant %q", got, want)
			}
			blobs := map[string][]byte{"RX_RESULT.json": []byte("{}\r\n"), "RX_RESULT.md": []byte("# new\n")}
			tree, objs, err := gitcli.ReplaceInDir(levels, dir, blobs)
			if err != nil {
				t.Fatal(err)
			}
			if err := clone.WriteObjects(ctx, objs); err != nil {
				t.Fatal(err)
			}
			// git's own answer: the same files checked out, added, and the
			// index written as a tree.
			if err := clone.CheckoutNeutral(ctx); err != nil {
				t.Fatal(err)
			}
			var paths []string
			for name, data := range blobs {
				p := filepath.Join(clone.Dir, filepath.FromSlash(dir), name)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, data, 0o644); err != nil {
					t.Fatal(err)
				}
				paths = append(paths, dir+"/"+name)
			}
			if err := clone.Add(ctx, paths...); err != nil {
				t.Fatal(err)
			}
			if gitTree := strings.TrimSpace(gittest.Git(t, rem.R, clone.Dir, "write-tree")); gitTree != tree {
				t.Fatalf("tree %s, git's index makes %s", tree, gitTree)
			}
			commit, err := clone.CommitTree(ctx, tree, "HEAD", "m", nil)
			if err != nil {
				t.Fatal(err)
			}
			changes, err := clone.TreeChanges(ctx, "HEAD", commit)
			if err != nil {
				t.Fatal(err)
			}
			status := byte('A')
			if dir == "docs/handoff/results" {
				status = 'M' // RX_RESULT.md was there
			}
			if len(changes) != 2 || changes[0].Path != dir+"/RX_RESULT.json" || changes[0].Status != 'A' ||
				changes[0].NewID != gitcli.BlobID(blobs["RX_RESULT.json"]) || changes[0].NewMode != gitcli.ModeFile ||
				changes[1].Path != dir+"/RX_RESULT.md" || changes[1].Status != status || changes[1].NewID != gitcli.BlobID(blobs["RX_RESULT.md"]) {
				t.Errorf("TreeChanges = %+v", changes)
			}
		})
	}
}

// TestWriteObjectsStrict: a tree naming an object that exists nowhere is
// refused by git, and a component that is a file cannot be built through.
func TestWriteObjectsStrict(t *testing.T) {
	t.Parallel()
	rem := gittest.NewBareRemote(t)
	gittest.Seed(t, rem, "rx-node", map[string]string{"docs": "a file\n"})
	ctx := t.Context()
	clone, cleanup, err := (&gitcli.Client{R: rem.R}).TempClone(ctx, rem.URL, "rx-node")
	t.Cleanup(cleanup)
	if err != nil {
		t.Fatal(err)
	}
	levels, err := clone.DirLevels(ctx, "HEAD", "docs/results")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := gitcli.ReplaceInDir(levels, "docs/results", map[string][]byte{"f": nil}); err == nil || !strings.Contains(err.Error(), "docs is a regular file, not a directory") {
		t.Errorf("building through a file: %v", err)
	}
	_, objs, err := gitcli.ReplaceInDir(nil, "d", map[string][]byte{"f": []byte("x")})
	if err != nil {
		t.Fatal(err)
	}
	if err := clone.WriteObjects(ctx, objs[1:]); err == nil { // the trees without their blob
		t.Error("a tree naming a missing blob was written")
	}
}
