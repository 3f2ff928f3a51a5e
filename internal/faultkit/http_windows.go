package faultkit

import (
	"os"
	"path/filepath"
	"testing"
)

// needHTTPTransport skips where git.exe has no http transport: the Wine
// suite's git.exe is built without curl (NO_CURL, scripts/build-git-windows.sh),
// so it has no git-remote-http.exe; Git for Windows ships one.
func needHTTPTransport(t testing.TB, git string) {
	t.Helper()
	bin := filepath.Dir(git)
	for _, core := range []string{
		filepath.Join(bin, "..", "libexec", "git-core"),            // mingw64\bin\git.exe
		filepath.Join(bin, "..", "mingw64", "libexec", "git-core"), // cmd\git.exe
	} {
		if _, err := os.Stat(filepath.Join(core, "git-remote-http.exe")); err == nil {
			return
		}
	}
	t.Skipf("%s has no http transport (no git-remote-http.exe beside it: built without curl)", git)
}
