package faultkit

import (
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The second account is another account as far as the system is
// concerned: its processes run with its uid and gid and no other group,
// may write its home and a directory it was given, not a private one of
// this process, and the account is gone when its test ends.
func TestAccount(t *testing.T) {
	var name string
	t.Run("as the account", func(t *testing.T) {
		a := NewAccount(t)
		name = a.Name
		if o := a.Run(t, "/", nil, "", "/usr/bin/id", "-u"); o.Code != 0 || strings.TrimSpace(o.Stdout) != strconv.Itoa(a.UID) {
			t.Fatalf("id as %s (uid %d): %s", a.Name, a.UID, o)
		}
		if o := a.Run(t, "/", nil, "", "/usr/bin/id", "-G"); strings.TrimSpace(o.Stdout) != strconv.Itoa(a.GID) {
			t.Errorf("groups of %s: %q, want only %d", a.Name, o.Stdout, a.GID)
		}
		private := t.TempDir()
		LetReach(t, filepath.Join(private, "x"))
		Chmod(t, private, 0o755)
		if o := a.Sh(t, private, "echo x > mine"); o.Code == 0 {
			t.Errorf("the account wrote into %s (0755, not its own): %s", private, o)
		}
		if o := a.Sh(t, a.Home, "echo x > mine && cat mine"); o.Code != 0 || o.Stdout != "x\n" {
			t.Errorf("the account cannot write its home: %s", o)
		}
		given := filepath.Join(private, "given")
		if err := os.Mkdir(given, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(given, a.UID, a.GID); err != nil {
			t.Fatal(err)
		}
		if o := a.Run(t, given, nil, "from stdin\n", "/bin/sh", "-c", "cat > f"); o.Code != 0 {
			t.Fatalf("writing a directory it was given: %s", o)
		}
		if data, err := os.ReadFile(filepath.Join(given, "f")); err != nil || string(data) != "from stdin\n" {
			t.Errorf("what it wrote: %q, %v", data, err)
		}
	})
	if name == "" {
		return // skipped
	}
	if _, err := user.Lookup(name); err == nil {
		t.Errorf("account %s is still there after its test", name)
	}
}
