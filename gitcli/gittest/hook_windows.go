package gittest

import (
	"testing"

	"github.com/cli/safeexec"
)

// needHookShell skips a test whose remote runs a shell-script hook where
// nothing can run it: git.exe runs hooks through sh, which Git for Windows
// ships and the Wine suite's bare git.exe (scripts/build-git-windows.sh)
// does not have. A remote on the Wine suite's Linux daemon runs its hooks
// there.
func needHookShell(t testing.TB, rem *Remote, name string) {
	t.Helper()
	if servedByHost(rem.URL) {
		return
	}
	if _, err := safeexec.LookPath("sh"); err != nil {
		t.Skipf("the remote's %s hook is a shell script and git.exe has no sh on PATH to run it (Git for Windows ships one)", name)
	}
}
