package mirror

import (
	"fmt"
	"path/filepath"
	"testing"

	"rfhandoff/config"
	"rfhandoff/gitcli"
	"rfhandoff/internal/gittest"
)

// Packs gathered by many fetches are repacked into one, and the mirror
// still reads (the promised blobs are still fetched on demand).
func TestManyFetchesAreRepacked(t *testing.T) {
	defer func(n int) { maxPacks = n }(maxPacks)
	maxPacks = 3
	rem := gittest.NewBareRemote(t, "dev")
	co := &gitcli.Client{R: rem.R, Dir: gittest.Clone(t, rem, "dev")}
	dir := filepath.Join(t.TempDir(), RXName)
	m, err := Open(t.Context(), co, config.Repo{Remote: "origin"}, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	var last string
	for i := range 6 {
		last = gittest.Seed(t, rem, "dev", map[string]string{"docs/t.md": fmt.Sprintf("task %d\n", i), fmt.Sprintf("media/%d.raw", i): "raw\n"})
		if _, err := m.FetchBranchUpdated(t.Context(), "origin", "dev"); err != nil {
			t.Fatal(err)
		}
		packs, _ := filepath.Glob(filepath.Join(dir, "objects", "pack", "pack-*.pack"))
		if len(packs) > maxPacks+1 {
			t.Fatalf("fetch %d: %d packs, want at most %d", i, len(packs), maxPacks+1)
		}
	}
	data, err := m.ShowFile(t.Context(), last, "docs/t.md", 100)
	if err != nil || string(data) != "task 5\n" {
		t.Fatalf("ShowFile after repacks: %q, %v", data, err)
	}
}
