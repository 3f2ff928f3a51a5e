//go:build unix

package exec

import "syscall"

var transientErrno = syscall.EAGAIN
