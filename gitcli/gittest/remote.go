package gittest

import (
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"testing"

	"rfhandoff/exec"
)

// Remote is a bare repository in a temporary directory, reached through
// its URL (see ServeURL).
type Remote struct {
	Dir string      // the bare repository
	URL string      // file://<Dir>, or git:// on Windows (ServeURL)
	R   exec.Runner // the runner fixtures use (see Runner)
}

var seq atomic.Int64

// NewBareRemote creates a bare repository and seeds each named branch with
// one commit holding README.md. Its runner is a fresh Runner(t).
func NewBareRemote(t testing.TB, branches ...string) *Remote {
	t.Helper()
	return NewBareRemoteWith(t, Runner(t), branches...)
}

// NewBareRemoteWith is NewBareRemote using runner r.
func NewBareRemoteWith(t testing.TB, r exec.Runner, branches ...string) *Remote {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "remote.git")
	Git(t, r, filepath.Dir(dir), "init", "--quiet", "--bare", dir)
	// As GitHub and GitLab do: the mirrors fetch blobless.
	Git(t, r, dir, "config", "uploadpack.allowFilter", "true")
	rem := &Remote{Dir: dir, URL: ServeURL(t, dir), R: r}
	for _, b := range branches {
		Seed(t, rem, b, map[string]string{"README.md": "branch " + b + "\n"})
	}
	return rem
}

// SymlinkPrefix marks a Seed value as a symbolic link: the value
// SymlinkPrefix+"target" makes the path a symlink to target.
const SymlinkPrefix = "symlink->"

// Seed commits files (path → content; "" deletes the path; see
// SymlinkPrefix) on top of the remote branch and pushes the commit there without force, returning its
// ID. A branch that does not exist yet starts with a root commit.
func Seed(t testing.TB, rem *Remote, branch string, files map[string]string) string {
	t.Helper()
	work := seedWork(t, rem, branch, files)
	id := strings.TrimSpace(Git(t, rem.R, work, "rev-parse", "HEAD"))
	Git(t, rem.R, work, "push", "--quiet", "--end-of-options", rem.URL, "HEAD:refs/heads/"+branch)
	return id
}

// Rewrite replaces the remote branch with a new root commit holding only
// files, as a force-push would, and returns the new commit's ID. The old
// tip is no longer an ancestor of the branch.
func Rewrite(t testing.TB, rem *Remote, branch string, files map[string]string) string {
	t.Helper()
	work := t.TempDir()
	Git(t, rem.R, work, "init", "--quiet")
	WriteFiles(t, work, files)
	Git(t, rem.R, work, "add", "--all")
	Git(t, rem.R, work, "commit", "--quiet", "-m", "gittest rewrite "+branch)
	id := strings.TrimSpace(Git(t, rem.R, work, "rev-parse", "HEAD"))
	// Push to a side ref (a fast path the allowlist permits), then move
	// the branch inside the bare repository: the force-push, server side.
	side := fmt.Sprintf("refs/gittest/rewrite-%d", seq.Add(1))
	Git(t, rem.R, work, "push", "--quiet", "--end-of-options", rem.URL, "HEAD:"+side)
	Git(t, rem.R, rem.Dir, "update-ref", "--end-of-options", "refs/heads/"+branch, id)
	return id
}

// Commit creates a commit on top of the branch's tip with files, stores it
// in the remote under a side ref without moving the branch, and returns
// its ID. Tests use it to prepare what a hook will move the branch to.
func Commit(t testing.TB, rem *Remote, branch string, files map[string]string) string {
	t.Helper()
	work := seedWork(t, rem, branch, files)
	id := strings.TrimSpace(Git(t, rem.R, work, "rev-parse", "HEAD"))
	side := fmt.Sprintf("refs/gittest/commit-%d", seq.Add(1))
	Git(t, rem.R, work, "push", "--quiet", "--end-of-options", rem.URL, "HEAD:"+side)
	return id
}

// Tip is the commit the remote branch points to ("" when it does not exist).
func Tip(t testing.TB, rem *Remote, branch string) string {
	t.Helper()
	res, err := rem.R.Run(t.Context(), exec.Cmd{Tool: exec.Git, Dir: rem.Dir,
		Args: []string{"rev-parse", "--verify", "--quiet", "--end-of-options", "refs/heads/" + branch}})
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(res.Stdout))
}

// InstallHook writes an executable hook script (e.g. "pre-receive") into
// the bare repository. Hooks run by the remote side of a push are the
// remote's own: the runner's empty core.hooksPath applies to the client.
func InstallHook(t testing.TB, rem *Remote, name, script string) {
	t.Helper()
	needHookShell(t, rem, name)
	p := filepath.Join(rem.Dir, "hooks", name)
	WriteScript(t, p, script)
}

// Clone makes a full (not shallow) clone of the remote with a checkout of
// branch, like the RX checkout, and returns its directory.
func Clone(t testing.TB, rem *Remote, branch string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "checkout")
	Git(t, rem.R, filepath.Dir(dir), "clone", "--quiet", "--branch", branch, "--end-of-options", rem.URL, dir)
	return dir
}

// seedWork makes a work clone of branch (or an empty repository when the
// branch does not exist), applies files and commits them.
func seedWork(t testing.TB, rem *Remote, branch string, files map[string]string) string {
	t.Helper()
	work := filepath.Join(t.TempDir(), "seed")
	if Tip(t, rem, branch) != "" {
		Git(t, rem.R, filepath.Dir(work), "clone", "--quiet", "--single-branch", "--branch", branch, "--end-of-options", rem.URL, work)
	} else {
		Git(t, rem.R, filepath.Dir(work), "init", "--quiet", work)
	}
	plain, links := map[string]string{}, map[string]string{}
	for name, v := range files {
		if target, ok := strings.CutPrefix(v, SymlinkPrefix); ok {
			links[name] = target
		} else {
			plain[name] = v
		}
	}
	WriteFiles(t, work, plain)
	Git(t, rem.R, work, "add", "--all")
	stageLinks(t, rem, work, links)
	Git(t, rem.R, work, "commit", "--quiet", "--allow-empty", "-m", "gittest seed "+branch)
	return work
}

// stageLinks puts each path → target into work's index as a symbolic link
// (mode 120000) without making one on disk: a Windows git with
// core.symlinks=false, as Git for Windows is set up, would add a link made
// there as a plain file. The trees are written with hash-object and read
// back with read-tree (the runner allows no update-index).
func stageLinks(t testing.TB, rem *Remote, work string, links map[string]string) {
	t.Helper()
	if len(links) == 0 {
		return
	}
	names := make([]string, 0, len(links))
	for name := range links {
		names = append(names, name)
	}
	sort.Strings(names)
	tree := strings.TrimSpace(Git(t, rem.R, work, "write-tree"))
	for _, name := range names {
		blob := writeObject(t, rem, work, "blob", []byte(links[name]))
		tree = putEntry(t, rem, work, tree, strings.Split(name, "/"), "120000", blob)
	}
	Git(t, rem.R, work, "read-tree", "--end-of-options", tree)
}

// putEntry returns tree with the entry at path set to mode and oid, the
// trees above it rewritten.
func putEntry(t testing.TB, rem *Remote, work, tree string, path []string, mode, oid string) string {
	t.Helper()
	entries := map[string][2]string{} // name → mode, oid
	if tree != "" {
		for _, e := range strings.Split(Git(t, rem.R, work, "ls-tree", "-z", "--end-of-options", tree), "\x00") {
			meta, name, ok := strings.Cut(e, "\t")
			if f := strings.Fields(meta); ok && len(f) == 3 {
				entries[name] = [2]string{f[0], f[2]}
			}
		}
	}
	if len(path) == 1 {
		entries[path[0]] = [2]string{mode, oid}
	} else {
		sub := ""
		if e, ok := entries[path[0]]; ok && e[0] == "040000" {
			sub = e[1]
		}
		entries[path[0]] = [2]string{"040000", putEntry(t, rem, work, sub, path[1:], mode, oid)}
	}
	// git orders a tree's entries by name, a directory's as if it ended in "/".
	key := func(name string) string {
		if entries[name][0] == "040000" {
			return name + "/"
		}
		return name
	}
	names := make([]string, 0, len(entries))
	for name := range entries {
		names = append(names, name)
	}
	sort.Slice(names, func(i, j int) bool { return key(names[i]) < key(names[j]) })
	var raw []byte
	for _, name := range names {
		id, err := hex.DecodeString(entries[name][1])
		if err != nil {
			t.Fatal(err)
		}
		raw = append(raw, strings.TrimPrefix(entries[name][0], "0")+" "+name+"\x00"...)
		raw = append(raw, id...)
	}
	return writeObject(t, rem, work, "tree", raw)
}

// writeObject writes data as an object of kind into work's repository.
func writeObject(t testing.TB, rem *Remote, work, kind string, data []byte) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), kind)
	if err := os.WriteFile(f, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(Git(t, rem.R, work, "hash-object", "-w", "--no-filters", "-t", kind, "--end-of-options", f))
}

// WriteFiles writes files (path → content) into the work tree dir as
// Seed does: "" deletes the path, see SymlinkPrefix for links.
func WriteFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if files[name] == "" {
			if err := os.Remove(p); err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if target, ok := strings.CutPrefix(files[name], SymlinkPrefix); ok {
			_ = os.Remove(p)
			if err := os.Symlink(target, p); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.WriteFile(p, []byte(files[name]), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// MoveOnPush installs a pre-receive hook that, on the first push only,
// moves branch to commit (a commit already in the remote, see Commit) and
// lets the push go on: the push then finds the branch moved under it, as
// when another machine pushes at the same moment. Later pushes pass.
func MoveOnPush(t testing.TB, rem *Remote, branch, commit string) {
	t.Helper()
	// Ref updates are forbidden inside the push's object quarantine; the
	// commit is already outside it, so leaving the quarantine is safe.
	InstallHook(t, rem, "pre-receive", fmt.Sprintf(`#!/bin/sh
marker=./gittest-moved-once
if [ ! -e "$marker" ]; then
	: > "$marker"
	env -u GIT_QUARANTINE_PATH -u GIT_OBJECT_DIRECTORY -u GIT_ALTERNATE_OBJECT_DIRECTORIES \
		git update-ref refs/heads/%s %s || exit 3
fi
exit 0
`, branch, commit))
}

// DeclinePushes installs a pre-receive hook that refuses every push with
// message (no single quotes), as a protected branch or a permission check
// would.
func DeclinePushes(t testing.TB, rem *Remote, message string) {
	t.Helper()
	if strings.Contains(message, "'") {
		t.Fatalf("DeclinePushes: message %q must not contain a single quote", message)
	}
	InstallHook(t, rem, "pre-receive", "#!/bin/sh\necho '"+message+"' >&2\nexit 1\n")
}
