//go:build unix

package rxside

import "io/fs"

// private tells whether a directory's mode keeps it to its owner: 0700.
func private(fi fs.FileInfo) bool { return fi.IsDir() && fi.Mode().Perm() == 0o700 }
