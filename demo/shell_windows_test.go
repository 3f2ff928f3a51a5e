package demo

import (
	"testing"

	"github.com/cli/safeexec"
)

// skipWithoutShell skips where git.exe cannot serve the sandbox's local
// remote: it runs git-upload-pack and git-receive-pack for a file:// remote
// through sh, which Git for Windows ships and the Wine suite's bare git.exe
// (scripts/build-git-windows.sh) does not have.
func skipWithoutShell(t *testing.T) {
	t.Helper()
	if _, err := safeexec.LookPath("sh"); err != nil {
		t.Skip("no sh on PATH: git.exe reaches the sandbox's file:// remote only through sh (Git for Windows ships one; this git.exe has none)")
	}
}
