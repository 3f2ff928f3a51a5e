package faultkit

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// Account is a throwaway OS account standing for an agent that works in a
// checkout as an account of its own, the way OPERATIONS#threat-model tells a lab to
// run one: what it can do to rfhandoff's files is what the operating
// system lets another account do. NewAccount makes one; its processes run
// with its own uid, gid and no other groups.
type Account struct {
	Name     string
	UID, GID int
	Home     string // its own directory, 0700
}

// Sh runs script with /bin/sh as the account in dir, with its minimal
// environment, and returns how it ended.
func (a *Account) Sh(t testing.TB, dir, script string) Output {
	t.Helper()
	return a.Run(t, dir, nil, "", "/bin/sh", "-c", script)
}

// Env is the account's minimal environment: its HOME, a PATH of the
// system's directories, LANG=C.
func (a *Account) Env() []string {
	return []string{"HOME=" + a.Home, "PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin", "LANG=C"}
}

// LetReach lets every account look up names on the way to path (it does
// not let them list or change anything): each directory above it that
// this process owns and that lacks the search bit for others gets it.
// Test directories are 0700; an agent's account must reach the checkout
// it works in, as it would reach its working tree on a lab machine.
func LetReach(t testing.TB, path string) {
	t.Helper()
	abs, err := filepath.Abs(path)
	if err != nil {
		t.Fatal(err)
	}
	for dir := filepath.Dir(abs); ; dir = filepath.Dir(dir) {
		st, err := os.Stat(dir)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm()&0o001 == 0 && ownedByMe(st) {
			if err := os.Chmod(dir, st.Mode().Perm()|0o001); err != nil {
				t.Fatal(err)
			}
		}
		if filepath.Dir(dir) == dir {
			return
		}
	}
}

// Chmod sets path's permission bits, failing the test on an error.
func Chmod(t testing.TB, path string, mode fs.FileMode) {
	t.Helper()
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}
