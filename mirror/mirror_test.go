package mirror_test

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"rfhandoff/config"
	"rfhandoff/gitcli"
	"rfhandoff/internal/gittest"
	"rfhandoff/mirror"
)

const (
	branch   = "dev"
	taskPath = "docs/handoff/NEXT_RX_TASK.md"
)

type fixture struct {
	rem      *gittest.Remote
	checkout *gitcli.Client
	dir      string // the mirror
	logs     *gittest.SyncBuffer
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	rem := gittest.NewBareRemote(t, branch)
	co := gittest.Clone(t, rem, branch)
	return &fixture{
		rem:      rem,
		checkout: &gitcli.Client{R: rem.R, Dir: co},
		dir:      filepath.Join(t.TempDir(), "state", mirror.RXName),
		logs:     &gittest.SyncBuffer{},
	}
}

func (f *fixture) open(t *testing.T) *mirror.Mirror {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(f.dir), 0o700); err != nil {
		t.Fatal(err)
	}
	m, err := mirror.Open(t.Context(), f.checkout, config.Repo{Remote: "origin"}, f.dir, slog.New(slog.NewTextHandler(f.logs, nil)))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// fetch is one poll: the narrow fetch, then the tracking ref.
func (f *fixture) fetch(t *testing.T, m *mirror.Mirror) string {
	t.Helper()
	if _, err := m.FetchBranchUpdated(t.Context(), "origin", branch); err != nil {
		t.Fatal(err)
	}
	c, err := m.ResolveCommit(t.Context(), "refs/remotes/origin/"+branch)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func (f *fixture) size(t *testing.T) int64 {
	t.Helper()
	return gittest.TreeBytes(t, f.dir)
}

// A poll brings commits and trees; reading the task brings its blob and no
// other: the media pushed beside it stays on the server.
func TestBloblessPollReadsOnlyTheTask(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	want := "TASK_ID = T1\n"
	c := gittest.Seed(t, f.rem, branch, map[string]string{"media/take.raw": gittest.Incompressible(4 << 20), taskPath: want})
	m := f.open(t)
	if got := f.fetch(t, m); got != c {
		t.Fatalf("tracking ref %s, want %s", got, c)
	}
	data, err := m.ShowFile(t.Context(), c, taskPath, 1<<16)
	if err != nil || string(data) != want {
		t.Fatalf("ShowFile: %q, %v", data, err)
	}
	if n := f.size(t); n > 1<<20 {
		t.Fatalf("the mirror holds %d bytes after reading a 13-byte task beside 4 MiB of media", n)
	}
	// Read again (the blob is there now) and ancestry in the mirror.
	if data, err := m.ShowFile(t.Context(), c, taskPath, 1<<16); err != nil || string(data) != want {
		t.Fatalf("second ShowFile: %q, %v", data, err)
	}
	base := gittest.Git(t, f.rem.R, f.checkout.Dir, "rev-parse", "HEAD")
	if ok, err := m.IsAncestor(t.Context(), strings.TrimSpace(base), c); err != nil || !ok {
		t.Fatalf("IsAncestor(checkout HEAD, task commit) = %v, %v", ok, err)
	}
	// A commit is its own ancestor; a descendant is none.
	if ok, err := m.IsAncestor(t.Context(), c, c); err != nil || !ok {
		t.Fatalf("IsAncestor(task commit, itself) = %v, %v; want true", ok, err)
	}
	if ok, err := m.IsAncestor(t.Context(), c, strings.TrimSpace(base)); err != nil || ok {
		t.Fatalf("IsAncestor(task commit, its parent) = %v, %v; want false", ok, err)
	}
	// A commit of another branch is no ancestor, and is not fetched to
	// find that out.
	other := gittest.Seed(t, f.rem, "other", map[string]string{"x": "y\n"})
	before := f.size(t)
	if ok, err := m.IsAncestor(t.Context(), other, c); err != nil || ok {
		t.Fatalf("IsAncestor(another branch's commit, task commit) = %v, %v; want false", ok, err)
	}
	if f.size(t) != before {
		t.Error("the ancestry check fetched the other commit")
	}
	if !strings.Contains(gittest.Git(t, f.rem.R, f.dir, "config", "--get", "remote.origin.promisor"), "true") {
		t.Error("the mirror's remote is not a promisor remote")
	}
	if _, err := os.Stat(filepath.Join(f.dir, "hooks")); !os.IsNotExist(err) {
		t.Errorf("the mirror has a hooks directory (%v): git's templates were copied", err)
	}
	// The checkout itself was not fetched into.
	if out := gittest.Git(t, f.rem.R, f.checkout.Dir, "rev-parse", "refs/remotes/origin/"+branch); strings.TrimSpace(out) == c {
		t.Error("the checkout's tracking ref moved: the mirror fetched into the checkout")
	}
}

// A task file over the limit is refused without being downloaded.
func TestOversizedFileIsNotFetched(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := gittest.Seed(t, f.rem, branch, map[string]string{taskPath: gittest.Incompressible(2 << 20)})
	m := f.open(t)
	f.fetch(t, m)
	_, err := m.ShowFile(t.Context(), c, taskPath, 64<<10)
	if !errors.Is(err, gitcli.ErrUnreadableFile) || !strings.Contains(err.Error(), fmt.Sprintf("the limit of %d", 64<<10)) || !strings.Contains(err.Error(), taskPath) {
		t.Fatalf("ShowFile of a 2 MiB file with a 64 KiB limit: %v", err)
	}
	if n := f.size(t); n > 1<<20 {
		t.Fatalf("the mirror holds %d bytes: the oversized file was downloaded", n)
	}
	// A file at the root and a missing path.
	c = gittest.Seed(t, f.rem, branch, map[string]string{"ROOT.md": "root\n"})
	f.fetch(t, m)
	if data, err := m.ShowFile(t.Context(), c, "ROOT.md", 100); err != nil || string(data) != "root\n" {
		t.Fatalf("root file: %q, %v", data, err)
	}
	if _, err := m.ShowFile(t.Context(), c, "docs/none.md", 100); !errors.Is(err, gitcli.ErrNotFound) {
		t.Fatalf("missing path: %v", err)
	}
}

// A task beside a file over the limit, in the same directory: each read
// brings the task and never the other file, whether or not something
// under the directory is still missing; and a file already there but over
// the limit is refused with its size.
func TestReadBesideAWithheldFile(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	want := "TASK_ID = T3\n"
	big := "docs/handoff/take.raw"
	c := gittest.Seed(t, f.rem, branch, map[string]string{big: gittest.Incompressible(2 << 20), taskPath: want})
	m := f.open(t)
	f.fetch(t, m)
	for i := range 2 { // missing, then present beside the missing one
		if data, err := m.ShowFile(t.Context(), c, taskPath, 64<<10); err != nil || string(data) != want {
			t.Fatalf("read %d: %q, %v", i+1, data, err)
		}
		if n := f.size(t); n > 1<<20 {
			t.Fatalf("read %d: the mirror holds %d bytes: the 2 MiB file beside the task was downloaded", i+1, n)
		}
	}
	// Everything under a directory present (the one-call check): a file
	// there over a smaller limit is still refused, by its size.
	note, body := "docs/other/NOTE.md", "twelve bytes\n"
	c = gittest.Seed(t, f.rem, branch, map[string]string{note: body})
	f.fetch(t, m)
	if data, err := m.ShowFile(t.Context(), c, note, 64<<10); err != nil || string(data) != body {
		t.Fatalf("read of %s: %q, %v", note, data, err)
	}
	_, err := m.ShowFile(t.Context(), c, note, 4)
	if want := fmt.Sprintf("is %d bytes, more than the limit of 4", len(body)); !errors.Is(err, gitcli.ErrUnreadableFile) || !strings.Contains(err.Error(), want) {
		t.Fatalf("a present file over a 4-byte limit: %v, want ErrUnreadableFile saying it %s", err, want)
	}
	if n := f.size(t); n > 1<<20 {
		t.Fatalf("the mirror holds %d bytes: the 2 MiB file was downloaded", n)
	}
}

// A force-push is refused in the mirror as it was in the checkout.
func TestForcePushRefused(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	m := f.open(t)
	f.fetch(t, m)
	gittest.Rewrite(t, f.rem, branch, map[string]string{"x": "y\n"})
	_, err := m.FetchBranchUpdated(t.Context(), "origin", branch)
	var fp *gitcli.ForcePushError
	if !errors.As(err, &fp) {
		t.Fatalf("fetch after a force-push: %v", err)
	}
}

// A server that refuses filters sends everything; it works, said once.
func TestServerWithoutFilters(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	gittest.Git(t, f.rem.R, f.rem.Dir, "config", "uploadpack.allowFilter", "false")
	want := "TASK_ID = T2\n"
	c := gittest.Seed(t, f.rem, branch, map[string]string{"media/take.raw": gittest.Incompressible(1 << 20), taskPath: want})
	m := f.open(t)
	f.fetch(t, m)
	if data, err := m.ShowFile(t.Context(), c, taskPath, 1<<16); err != nil || string(data) != want {
		t.Fatalf("ShowFile without filters: %q, %v", data, err)
	}
	gittest.Seed(t, f.rem, branch, map[string]string{"more.raw": gittest.Incompressible(1 << 10)})
	f.fetch(t, m)
	f.fetch(t, f.open(t)) // another process: still said once
	if n := strings.Count(f.logs.String(), "does not filter what it sends"); n != 1 {
		t.Fatalf("the refused filter was reported %d times, want once:\n%s", n, f.logs)
	}
	if n := f.size(t); n < 1<<20 {
		t.Fatalf("the mirror holds %d bytes: the server did not send everything, so the test shows nothing", n)
	}
}

// Deleted, pointed elsewhere, broken or left locked by a killed git: the
// mirror is rebuilt or cleaned and the next poll works.
func TestMirrorRecovers(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := gittest.Seed(t, f.rem, branch, map[string]string{taskPath: "a\n"})
	m := f.open(t)
	f.fetch(t, m)

	if err := os.RemoveAll(f.dir); err != nil {
		t.Fatal(err)
	}
	if got := f.fetch(t, m); got != c {
		t.Fatalf("after deletion: %s, want %s", got, c)
	}
	if !strings.Contains(f.logs.String(), "rebuilt the mirror: it was deleted") {
		t.Errorf("the rebuild was not reported:\n%s", f.logs)
	}

	// A stale ref lock from a git killed mid-fetch.
	c = gittest.Seed(t, f.rem, branch, map[string]string{taskPath: "b\n"})
	lock := filepath.Join(f.dir, "refs", "remotes", "origin", branch+".lock")
	if err := os.WriteFile(lock, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if got := f.fetch(t, m); got != c {
		t.Fatalf("with a stale lock: %s, want %s", got, c)
	}

	// A ref cut short.
	ref := filepath.Join(f.dir, "refs", "remotes", "origin", branch)
	if err := os.WriteFile(ref, []byte("12ab"), 0o644); err != nil {
		t.Fatal(err)
	}
	m = f.open(t)
	if !strings.Contains(f.logs.String(), "rebuilt the mirror: its refs are broken") {
		t.Errorf("a broken ref was not noticed:\n%s", f.logs)
	}
	if got := f.fetch(t, m); got != c {
		t.Fatalf("after a broken ref: %s, want %s", got, c)
	}

	// No record of the URL it mirrors (a mirror made before the record
	// was a file): rebuilt, once.
	if err := os.Remove(filepath.Join(f.dir, "rfhandoff-mirrored-url")); err != nil {
		t.Fatal(err)
	}
	f.open(t)
	m = f.open(t)
	if n := strings.Count(f.logs.String(), "rebuilt the mirror: it does not say which remote it mirrors"); n != 1 {
		t.Errorf("a mirror without its URL record was rebuilt %d times, want once:\n%s", n, f.logs)
	}
	if got := f.fetch(t, m); got != c {
		t.Fatalf("after a rebuild for a missing URL record: %s, want %s", got, c)
	}

	// The checkout's remote moved to another URL.
	other := gittest.NewBareRemoteWith(t, f.rem.R, branch)
	oc := gittest.Seed(t, other, branch, map[string]string{taskPath: "c\n"})
	gittest.Git(t, f.rem.R, f.checkout.Dir, "remote", "set-url", "--", "origin", other.URL)
	m = f.open(t)
	if !strings.Contains(f.logs.String(), "its remote URL is "+f.rem.URL) {
		t.Errorf("the URL change was not reported:\n%s", f.logs)
	}
	// Another history than the one accepted: refused like a force-push
	// until the operator re-anchors.
	var fp *gitcli.ForcePushError
	if _, err := m.FetchBranchUpdated(t.Context(), "origin", branch); !errors.As(err, &fp) {
		t.Fatalf("after the URL change to another history: %v, want a refused force-push", err)
	}
	if err := os.Remove(mirror.AnchorsPath(f.dir)); err != nil {
		t.Fatal(err)
	}
	if got := f.fetch(t, m); got != oc {
		t.Fatalf("after the URL change, re-anchored: %s, want %s", got, oc)
	}
	if left, _ := filepath.Glob(f.dir + ".*-*"); len(left) > 0 {
		t.Errorf("rebuilds left %v", left)
	}
}

// A corrupt mirror is rebuilt without its tracking ref; the tip it last
// accepted, kept beside it, still refuses a branch rewritten meanwhile.
// Without a rewrite the rebuilt mirror follows the branch; removing the
// anchors file (with the mirror) is the explicit re-anchor.
func TestRebuiltMirrorRefusesRewrittenBranch(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	m := f.open(t)
	first := gittest.Seed(t, f.rem, branch, map[string]string{taskPath: "a\n"})
	if got := f.fetch(t, m); got != first {
		t.Fatalf("first fetch: %s, want %s", got, first)
	}
	corrupt := func() {
		t.Helper()
		ref := filepath.Join(f.dir, "refs", "remotes", "origin", branch)
		if err := os.WriteFile(ref, []byte("12ab"), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	// Rebuild without a rewrite: accepted, and the anchor follows.
	corrupt()
	next := gittest.Seed(t, f.rem, branch, map[string]string{taskPath: "b\n"})
	m = f.open(t)
	if got := f.fetch(t, m); got != next {
		t.Fatalf("rebuilt, branch moved on: %s, want %s", got, next)
	}
	data, err := os.ReadFile(mirror.AnchorsPath(f.dir))
	if err != nil || string(data) != next+" "+branch+"\n" {
		t.Fatalf("anchors file: %q, %v; want %s", data, err, next)
	}

	// Rebuild after a force-push: refused, and refused again next poll
	// (the rewritten tip is not kept as the tracking ref).
	rewritten := gittest.Rewrite(t, f.rem, branch, map[string]string{taskPath: "evil\n"})
	corrupt()
	m = f.open(t)
	if !strings.Contains(f.logs.String(), "rebuilt the mirror: its refs are broken") {
		t.Fatalf("the corrupt mirror was not rebuilt:\n%s", f.logs)
	}
	for i := range 2 {
		_, err := m.FetchBranchUpdated(t.Context(), "origin", branch)
		var fp *gitcli.ForcePushError
		if !errors.As(err, &fp) || !strings.Contains(err.Error(), next) {
			t.Fatalf("poll %d after rebuild and force-push: %v, want a refused force-push naming %s", i, err, next)
		}
		if _, err := m.ResolveCommit(t.Context(), "refs/remotes/origin/"+branch); !errors.Is(err, gitcli.ErrNotFound) {
			t.Fatalf("poll %d: the refused tip is the tracking ref (%v)", i, err)
		}
	}
	// A new process after the refusal refuses too.
	if _, err := f.open(t).FetchBranchUpdated(t.Context(), "origin", branch); err == nil {
		t.Fatal("another process accepted the rewritten branch")
	}
	if data, _ := os.ReadFile(mirror.AnchorsPath(f.dir)); string(data) != next+" "+branch+"\n" {
		t.Fatalf("the refusal changed the anchors file: %q", data)
	}

	// The operator's re-anchor: remove the mirror and its anchors file.
	for _, p := range []string{f.dir, mirror.AnchorsPath(f.dir)} {
		if err := os.RemoveAll(p); err != nil {
			t.Fatal(err)
		}
	}
	m = f.open(t)
	if got := f.fetch(t, m); got != rewritten {
		t.Fatalf("re-anchored: %s, want %s", got, rewritten)
	}

	// A damaged anchors file is an error naming it, never a reset.
	if err := os.WriteFile(mirror.AnchorsPath(f.dir), []byte("junk\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	corrupt()
	if _, err := f.open(t).FetchBranchUpdated(t.Context(), "origin", branch); err == nil || !strings.Contains(err.Error(), mirror.AnchorsPath(f.dir)) {
		t.Fatalf("damaged anchors file: %v", err)
	}
}
