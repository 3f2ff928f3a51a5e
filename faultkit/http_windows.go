package faultkit

import (
	"os"
	"path/filepath"
	"testing"
)

// needHTTPTransport skips when git (a git.exe in Git for Windows' layout,
// mingw64/bin/git.exe) has no git-remote-http.exe in its exec path: the
// git.exe scripts/build-git-windows.sh builds is NO_CURL, so it cannot
// fetch or push over http(s) at all. Git for Windows' installer ships one.
func needHTTPTransport(t testing.TB, git string) {
	t.Helper()
	helper := filepath.Join(filepath.Dir(git), "..", "libexec", "git-core", "git-remote-http.exe")
	if _, err := os.Stat(helper); err != nil {
		t.Skipf("faultkit: %s has no http transport (no %s: built without curl)", git, helper)
	}
}
