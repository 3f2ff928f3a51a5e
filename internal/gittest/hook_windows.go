package gittest

import (
	"testing"

	"github.com/cli/safeexec"
)

// needHookShell skips a test whose remote runs a shell-script hook where
// nothing can run it. git.exe runs hooks through sh, which Git for Windows
// ships and the Wine suite's bare git.exe (scripts/build-git-windows.sh)
// does not have; the Wine suite's Linux daemon has sh but runs only hooks
// with the executable bit, which Wine gives only a file it creates under
// a name ending in .exe or .com (and takes away when such a file is
// renamed; a hard link keeps it). Hooks are not written that way here:
// the suite's hooks embed this side's C:\ paths, which the Linux sh cannot
// reach, and a remote a test serves with git-daemon.exe of its own (the
// faultkit labs) runs them with git.exe, which has no sh.
func needHookShell(t testing.TB, rem *Remote, name string) {
	t.Helper()
	if servedByHost(rem.URL) {
		t.Skipf("the remote's %s hook is a shell script written under Wine: the Linux git daemon serving it ignores it (no executable bit)", name)
	}
	if _, err := safeexec.LookPath("sh"); err != nil {
		t.Skipf("the remote's %s hook is a shell script and git.exe has no sh on PATH to run it (Git for Windows ships one)", name)
	}
}
