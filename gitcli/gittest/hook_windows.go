package gittest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/cli/safeexec"
)

// writeHook writes a shell-script hook where something can run it. The
// Wine suite's Linux daemon has sh but runs only a hook with the
// executable bit, which Wine gives a file it creates only when the name
// ends in .exe or .com (and takes away when such a file is renamed): the
// hook is written under such a name, linked to its own and the .exe name
// removed, which leaves the mode alone (observed under Wine 8). git.exe itself runs hooks through sh, which
// Git for Windows ships and the Wine suite's bare git.exe
// (scripts/build-git-windows.sh) does not have: there the test skips.
func writeHook(t testing.TB, rem *Remote, path, script string) {
	t.Helper()
	if servedByHost(rem.URL) {
		tmp := path + ".exe"
		WriteScript(t, tmp, script)
		if err := os.Link(tmp, path); err != nil {
			t.Fatal(err)
		}
		if err := os.Remove(tmp); err != nil {
			t.Fatal(err)
		}
		return
	}
	if _, err := safeexec.LookPath("sh"); err != nil {
		t.Skipf("the remote's %s hook is a shell script and git.exe has no sh on PATH to run it (Git for Windows ships one)", filepath.Base(path))
	}
	WriteScript(t, path, script)
}
