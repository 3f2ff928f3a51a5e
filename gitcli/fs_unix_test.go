//go:build unix

package gitcli_test

import "io/fs"

// private tells whether a directory's mode keeps it to its owner: 0700.
func private(fi fs.FileInfo) bool { return fi.IsDir() && fi.Mode().Perm() == 0o700 }

// fsLinksStaged: git stages a symlink made in a work tree as one.
const fsLinksStaged = true
