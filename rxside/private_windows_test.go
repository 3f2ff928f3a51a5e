package rxside

import "io/fs"

// private tells whether a directory is one: Windows has no mode bits (Go
// reports 0777), and what keeps a state or temporary directory to its
// owner there is the ACL of the user profile it is made in.
func private(fi fs.FileInfo) bool { return fi.IsDir() }
