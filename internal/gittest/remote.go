package gittest

import (
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
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
	ConfigureRemote(t, dir)
	rem := &Remote{Dir: dir, URL: ServeURL(t, dir), R: r}
	for _, b := range branches {
		Seed(t, rem, b, map[string]string{"README.md": "branch " + b + "\n"})
	}
	return rem
}

// ConfigureRemote sets up the bare repository at dir as the fixtures'
// remotes are: it serves blobless fetches, as GitHub and GitLab do (the
// mirrors fetch blobless), and starts no housekeeping of its own after a
// push (git gc --auto and git maintenance run --auto are four processes a
// push, which the tests would pay thousands of times for nothing). The
// keys are appended to the repository's config file as git config would
// write them: four git processes a remote, for every remote of the suite,
// saved.
func ConfigureRemote(t testing.TB, dir string) {
	t.Helper()
	f, err := os.OpenFile(filepath.Join(dir, "config"), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.WriteString("[uploadpack]\n\tallowFilter = true\n[receive]\n\tautogc = false\n" +
		"[gc]\n\tauto = 0\n[maintenance]\n\tauto = false\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
}

// SymlinkPrefix marks a Seed value as a symbolic link: the value
// SymlinkPrefix+"target" makes the path a symlink to target.
const SymlinkPrefix = "symlink->"

// zeroID is the object ID git's update-ref reads as "must not exist yet".
const zeroID = "0000000000000000000000000000000000000000"

// Seed commits files (path → content; "" deletes the path; see
// SymlinkPrefix) on top of the remote branch and moves the branch there
// without force, returning the commit's ID. A branch that does not exist
// yet starts with a root commit. The commit is written straight into the
// bare repository, as a push of it would leave it, but runs no hook of
// the remote's: a test that needs a push does one.
func Seed(t testing.TB, rem *Remote, branch string, files map[string]string) string {
	t.Helper()
	old := Tip(t, rem, branch)
	id := seedCommit(t, rem, old, "gittest seed "+branch, files)
	if old == "" {
		old = zeroID
	}
	Git(t, rem.R, rem.Dir, "update-ref", "--end-of-options", "refs/heads/"+branch, id, old)
	return id
}

// Rewrite replaces the remote branch with a new root commit holding only
// files, as a force-push would, and returns the new commit's ID. The old
// tip is no longer an ancestor of the branch.
func Rewrite(t testing.TB, rem *Remote, branch string, files map[string]string) string {
	t.Helper()
	id := seedCommit(t, rem, "", "gittest rewrite "+branch, files)
	Git(t, rem.R, rem.Dir, "update-ref", "--end-of-options", "refs/heads/"+branch, id)
	return id
}

// Commit creates a commit on top of the branch's tip with files, stores it
// in the remote under a side ref without moving the branch, and returns
// its ID. Tests use it to prepare what a hook will move the branch to.
func Commit(t testing.TB, rem *Remote, branch string, files map[string]string) string {
	t.Helper()
	id := seedCommit(t, rem, Tip(t, rem, branch), "gittest seed "+branch, files)
	side := fmt.Sprintf("refs/gittest/commit-%d", seq.Add(1))
	Git(t, rem.R, rem.Dir, "update-ref", "--end-of-options", side, id)
	return id
}

// Tip is the commit the remote branch points to ("" when it does not
// exist), read from the bare repository's ref files as git would (a loose
// ref, else packed-refs) without starting git: the tests ask it thousands
// of times. A symbolic ref is not followed (no fixture branch is one).
func Tip(t testing.TB, rem *Remote, branch string) string {
	t.Helper()
	ref := "refs/heads/" + branch
	if b, err := os.ReadFile(filepath.Join(rem.Dir, filepath.FromSlash(ref))); err == nil {
		if id := strings.TrimSpace(string(b)); isObjectID(id) {
			return id
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	packed, err := os.ReadFile(filepath.Join(rem.Dir, "packed-refs"))
	if errors.Is(err, fs.ErrNotExist) {
		return ""
	} else if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(packed), "\n") {
		if id, name, ok := strings.Cut(line, " "); ok && name == ref && isObjectID(id) {
			return id
		}
	}
	return ""
}

// isObjectID reports whether s is a 40-hex object ID.
func isObjectID(s string) bool {
	if len(s) != 40 {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil
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
