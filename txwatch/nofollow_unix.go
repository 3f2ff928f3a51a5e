//go:build unix

package txwatch

import "syscall"

// oNoFollow refuses to open a symlink put in place after the Lstat check.
const oNoFollow = syscall.O_NOFOLLOW
