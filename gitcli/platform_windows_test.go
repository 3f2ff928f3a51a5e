package gitcli

import (
	"os"
	"path/filepath"
)

// abs turns a slash-separated absolute test path into one of this system.
func abs(p string) string { return `C:` + filepath.FromSlash(p) }

// rootedFileURLPath is the file:// path of "/srv/git/rf.git" here: on the
// current directory's drive.
var rootedFileURLPath = func() string {
	wd, err := os.Getwd()
	if err != nil {
		panic(err)
	}
	return filepath.VolumeName(wd) + "/srv/git/rf.git"
}()

// fileURLPath is an absolute path of this system as it follows file://:
// the drive letter first (Git for Windows' form), forward slashes after it.
func fileURLPath(p string) string { return filepath.ToSlash(p) }
