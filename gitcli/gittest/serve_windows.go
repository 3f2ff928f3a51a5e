package gittest

import (
	"path/filepath"
	"testing"
)

// transports are the git transports a fixture runner allows: git:// as
// well, for the daemons ServeURL starts.
var transports = []string{"file", "git"}

// ServeURL is the URL the fixtures reach the bare repository dir by. On
// Windows git.exe serves a file:// remote by running git-upload-pack
// through sh, which Git for Windows ships and a bare git.exe (the Wine
// suite's, scripts/build-git-windows.sh) does not have: the repository is
// served by a git daemon of its own on 127.0.0.1 instead (no shell on
// either side), started in dir's parent and stopped by pid when the test
// ends.
func ServeURL(t testing.TB, dir string) string {
	t.Helper()
	d := StartDaemon(t, filepath.Dir(dir), Environ(Home(t)))
	return d.URL(filepath.Base(dir))
}
