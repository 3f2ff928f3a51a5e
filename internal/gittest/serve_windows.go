package gittest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// transports are the git transports a fixture runner allows: git:// as
// well, for the daemons ServeURL starts.
var transports = []string{"file", "git"}

// Environment of the Wine suite (scripts/test-windows.sh --git): the URL of
// a git daemon the script runs on the Linux side, and the directory (this
// system's temp directory) whose repositories it serves.
const (
	hostDaemonEnv     = "RFHANDOFF_WINE_GIT_DAEMON"
	hostDaemonBaseEnv = "RFHANDOFF_WINE_GIT_DAEMON_BASE"
)

// ServeURL is the URL the fixtures reach the bare repository dir by. On
// Windows git.exe serves a file:// remote by running git-upload-pack
// through sh, which Git for Windows ships and a bare git.exe (the Wine
// suite's, scripts/build-git-windows.sh) does not have: the repository is
// served by a git daemon instead (no shell on the client side). Under the
// Wine suite that is the script's daemon on the Linux side, as a lab's
// server is another machine (git-daemon.exe under Wine broke large pushes
// with "early EOF"); otherwise a git daemon of its own on 127.0.0.1,
// started in dir's parent and stopped by pid when the test ends.
func ServeURL(t testing.TB, dir string) string {
	t.Helper()
	if url, ok := hostDaemonURL(dir); ok {
		return url
	}
	d := StartDaemon(t, filepath.Dir(dir), Environ(Home(t)))
	return d.URL(filepath.Base(dir))
}

// hostDaemonURL is dir's URL on the Wine suite's daemon, if one serves it.
func hostDaemonURL(dir string) (string, bool) {
	url, base := os.Getenv(hostDaemonEnv), os.Getenv(hostDaemonBaseEnv)
	if url == "" || base == "" {
		return "", false
	}
	rel, err := filepath.Rel(base, dir)
	if err != nil || rel == "." || strings.HasPrefix(rel, "..") || filepath.IsAbs(rel) {
		return "", false
	}
	return strings.TrimSuffix(url, "/") + "/" + filepath.ToSlash(rel), true
}

// servedByHost reports whether url is on the Wine suite's daemon.
func servedByHost(url string) bool {
	d := os.Getenv(hostDaemonEnv)
	return d != "" && strings.HasPrefix(url, strings.TrimSuffix(d, "/")+"/")
}
