//go:build unix

package private

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// An id no account or group on a test machine has: chown to it stands for
// "another account".
const strangerID = 54321

func write(t *testing.T, path string, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, []byte("x = 1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

func mkdirT(t *testing.T, path string, mode os.FileMode) {
	t.Helper()
	if err := os.Mkdir(path, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil { // the umask would take bits away
		t.Fatal(err)
	}
}

// wantRefused checks that err refuses path and says each of wants.
func wantRefused(t *testing.T, what string, err error, path string, wants ...string) {
	t.Helper()
	var pe *fs.PathError
	if !errors.As(err, &pe) || pe.Path != path {
		t.Fatalf("%s: %v; want a refusal naming %s", what, err, path)
	}
	for _, w := range wants {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("%s: %v\nlacks %q", what, err, w)
		}
	}
}

// Only this account may change what rfhandoff trusts: a file or directory
// another account may write, one above it, a link in its place — each is
// refused, naming it and the command that fixes it; what only this
// account may change passes. Every check is made on the file opened, and
// ReadPrivate reads nothing it refuses.
func TestCheckPrivateModes(t *testing.T) {
	dir := t.TempDir()
	ok := filepath.Join(dir, "ok.toml")
	write(t, ok, 0o644)
	if err := Check(ok); err != nil {
		t.Errorf("Check(0644 file) = %v", err)
	}
	if data, err := Read(ok, 64); err != nil || string(data) != "x = 1\n" {
		t.Errorf("Read(0644 file) = %q, %v", data, err)
	}
	if err := Check(dir); err != nil {
		t.Errorf("Check(t.TempDir()) = %v", err)
	}

	world := filepath.Join(dir, "world.toml")
	write(t, world, 0o646)
	wantRefused(t, "world-writable file", Check(world), world, "writable by every account (mode 0646)", "`chmod go-w "+world+"`")
	if data, err := Read(world, 64); data != nil {
		t.Errorf("ReadPrivate read a world-writable file: %q", data)
	} else {
		wantRefused(t, "ReadPrivate world-writable", err, world, "writable by every account")
	}

	open := filepath.Join(dir, "open")
	mkdirT(t, open, 0o777)
	wantRefused(t, "world-writable directory", Check(open), open, "mode 0777")
	inside := filepath.Join(open, "state.json")
	write(t, inside, 0o600)
	wantRefused(t, "file below a world-writable directory", Check(inside), inside,
		"the directory "+open+" above it is writable by every account", "could rename what is below it away", "`chmod go-w "+open+"`")

	sticky := filepath.Join(dir, "sticky")
	mkdirT(t, sticky, 0o777|os.ModeSticky)
	below := filepath.Join(sticky, "mine")
	mkdirT(t, below, 0o700)
	if err := Check(below); err != nil {
		t.Errorf("a private directory in a sticky one (as in /tmp): %v", err)
	}

	target := filepath.Join(dir, "target")
	mkdirT(t, target, 0o700)
	link := filepath.Join(dir, "link")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	wantRefused(t, "symlinked directory", Check(link), link, "a symlink", "never follows a link")
	flink := filepath.Join(dir, "flink.toml")
	if err := os.Symlink(ok, flink); err != nil {
		t.Fatal(err)
	}
	if data, err := Read(flink, 64); data != nil || err == nil {
		t.Errorf("ReadPrivate through a symlink = %q, %v", data, err)
	}
	// Below a symlinked directory, the directory that holds the link and
	// the one it points to are both judged.
	open2 := filepath.Join(dir, "open2")
	mkdirT(t, open2, 0o777)
	far := filepath.Join(dir, "far")
	mkdirT(t, far, 0o700)
	if err := os.Symlink(far, filepath.Join(open2, "hop")); err != nil {
		t.Fatal(err)
	}
	hopped := filepath.Join(open2, "hop", "f.json")
	write(t, hopped, 0o600)
	wantRefused(t, "below a link held by a world-writable directory", Check(hopped), hopped, "the directory "+open2+" above it")

	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err == nil {
		wantRefused(t, "FIFO", Check(fifo), fifo, "a FIFO")
	}
}

// A file or directory another account owns, or one below a directory it
// owns, is refused; so is a group-writable one whose group has other
// members. Root only: only root can give a file away.
func TestCheckPrivateOwners(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("only root can make a file another account's")
	}
	dir := t.TempDir()
	theirs := filepath.Join(dir, "theirs.json")
	write(t, theirs, 0o600)
	if err := os.Chown(theirs, strangerID, strangerID); err != nil {
		t.Fatal(err)
	}
	wantRefused(t, "another account's file", Check(theirs), theirs, "owned by uid 54321, not by you", "cannot be trusted", "`chown root "+theirs+"`")
	if data, err := Read(theirs, 64); data != nil || err == nil {
		t.Errorf("ReadPrivate read another account's file: %q, %v", data, err)
	}

	theirDir := filepath.Join(dir, "theirdir")
	mkdirT(t, theirDir, 0o755)
	mine := filepath.Join(theirDir, "mine.json")
	write(t, mine, 0o600)
	if err := os.Chown(theirDir, strangerID, strangerID); err != nil {
		t.Fatal(err)
	}
	wantRefused(t, "below another account's directory", Check(mine), mine, "the directory "+theirDir+" above it is owned by uid 54321")

	group := filepath.Join(dir, "group.toml")
	write(t, group, 0o664)
	if err := os.Chown(group, 0, strangerID); err != nil {
		t.Fatal(err)
	}
	wantRefused(t, "group-writable, a shared group", Check(group), group, "writable by the group gid 54321 (mode 0664)")
	// Root's own group has root as its only member (on the systems the
	// suite runs on): its group bit is no one else's.
	if privateGroup(0, 0) {
		if err := os.Chown(group, 0, 0); err != nil {
			t.Fatal(err)
		}
		if err := Check(group); err != nil {
			t.Errorf("group-writable with the owner's own group: %v", err)
		}
	}
}

// MkdirPrivate makes a missing directory 0700 and only checks one that is
// there: a directory others may write is refused, never chmod'ed.
func TestMkdirPrivate(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", ".local")
	if err := Mkdir(dir); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(dir)
	if err != nil || st.Mode().Perm() != 0o700 {
		t.Fatalf("made %v, %v; want 0700", st, err)
	}
	if err := Mkdir(dir); err != nil {
		t.Errorf("again: %v", err)
	}
	if err := os.Chmod(dir, 0o770); err != nil {
		t.Fatal(err)
	}
	if err := Mkdir(dir); err == nil && !privateGroup(uint32(os.Getgid()), uint32(os.Geteuid())) {
		t.Errorf("a group-writable state directory passed")
	}
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	wantRefused(t, "world-writable", Mkdir(dir), dir, "mode 0777")
	if st, _ := os.Stat(dir); st.Mode().Perm() != 0o777 {
		t.Errorf("MkdirPrivate changed the mode to %04o", st.Mode().Perm())
	}
}
