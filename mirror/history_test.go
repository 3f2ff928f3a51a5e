package mirror_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"rfhandoff/config"
	"rfhandoff/gitcli"
	"rfhandoff/internal/gittest"
	"rfhandoff/mirror"
)

// historyCase reads a task file's three versions (one over the limit)
// beside media, through a mirror of a remote served with protocol
// (gittest's default, or "0": no objects by ID), and returns what the
// fetches were.
func historyCase(t *testing.T, protocol string) []string {
	home := gittest.Home(t)
	if protocol != "" {
		f, err := os.OpenFile(filepath.Join(home, ".gitconfig"), os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.WriteString("[protocol]\n\tversion = " + protocol + "\n"); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	r := gittest.RunnerWithHome(t, home)
	rem := gittest.NewBareRemoteWith(t, r, branch)
	rec := &gittest.Recorder{Runner: r}
	co := &gitcli.Client{R: rec, Dir: gittest.Clone(t, rem, branch)}
	first := gittest.Seed(t, rem, branch, map[string]string{taskPath: "TASK_ID = ONE\n"})
	big := gittest.Seed(t, rem, branch, map[string]string{taskPath: "TASK_ID = BIG\n" + gittest.Incompressible(1<<20)})
	tip := gittest.Seed(t, rem, branch, map[string]string{taskPath: "TASK_ID = THREE\n", "media/take.raw": gittest.Incompressible(4 << 20)})
	dir := filepath.Join(t.TempDir(), mirror.TXName)
	m, err := mirror.Open(t.Context(), co, config.Repo{Remote: "origin"}, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.FetchBranchUpdated(t.Context(), "origin", branch); err != nil {
		t.Fatal(err)
	}
	for range 2 { // the second read finds everything there: no fetch
		v, err := m.FileHistory(t.Context(), tip, taskPath, 64<<10)
		if err != nil {
			t.Fatal(err)
		}
		if len(v) != 3 || string(v[0].Data) != "TASK_ID = THREE\n" || v[1].Commit != big || v[1].Data != nil || v[1].Size != -1 ||
			v[2].Commit != first || string(v[2].Data) != "TASK_ID = ONE\n" {
			t.Fatalf("versions %+v", v)
		}
	}
	var n int64
	_ = filepath.WalkDir(dir, func(_ string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			fi, _ := d.Info()
			n += fi.Size()
		}
		return nil
	})
	if n > 512<<10 {
		t.Fatalf("the mirror holds %d bytes: the media or the oversized version came", n)
	}
	var fetches []string
	for _, args := range rec.Take() {
		if a := strings.Join(args, " "); strings.HasPrefix(a, "fetch ") {
			fetches = append(fetches, a)
		}
	}
	return fetches
}

// The missing versions come in one fetch of their directory's trees,
// filtered by the limit; nothing is fetched once they are there.
func TestFileHistoryOneBoundedFetch(t *testing.T) {
	t.Parallel()
	f := historyCase(t, "")
	if len(f) != 2 || !strings.Contains(f[1], "--refetch") || !strings.Contains(f[1], "--filter=blob:limit=65537 --stdin") {
		t.Fatalf("fetches %q, want the poll and one bounded fetch", f)
	}
}

// A server that refuses trees by ID (protocol v0, no
// allowAnySHA1InWant) is asked for the branch with the same filter.
func TestFileHistoryProtocolV0(t *testing.T) {
	t.Parallel()
	f := historyCase(t, "0")
	if len(f) != 3 || !strings.HasSuffix(f[2], "--filter=blob:limit=65537 --stdin --end-of-options origin") {
		t.Fatalf("fetches %q, want the poll, the refused trees and the branch", f)
	}
}
