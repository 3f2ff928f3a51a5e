package gittest

import (
	"testing"

	"github.com/cli/safeexec"
)

// needHookShell skips a test whose remote runs a shell-script hook where
// git.exe has no sh to run it with: Git for Windows ships one, the Wine
// suite's bare git.exe (scripts/build-git-windows.sh) does not.
func needHookShell(t testing.TB, name string) {
	t.Helper()
	if _, err := safeexec.LookPath("sh"); err != nil {
		t.Skipf("the remote's %s hook is a shell script and git.exe has no sh on PATH to run it (Git for Windows ships one)", name)
	}
}
